-- The console as a volunteer reads it (issue 43).
--
-- "Recent changes" on Today shows one line per save or job, never one per row: recent_changes()
-- groups the audit trail by transaction and says which job, if any, made each one. A job's rows
-- are written by the database role the job runs as (sql:postgres, service_role), which names no
-- person: the job that was running names them instead. The rows the store was set up with (the
-- seed and the migrations, made before any job ran) are no change a volunteer made.
--
-- A dismissed finding can be restored (restore_finding), so a dismissal made by mistake is not
-- for ever.

create index if not exists audit_log_txid_id_idx on public.audit_log (txid, id);

/** Says whether an audit actor is a database role rather than a person (an operator, or the automation token). */
create or replace function public.audit_actor_is_role(actor text)
returns boolean
language sql
immutable
set search_path = public, pg_temp
as $$ select actor like 'sql:%' or actor in ('service_role', 'authenticated', 'anon', 'postgres', 'supabase_admin') $$;
comment on function public.audit_actor_is_role(text) is
  'True when an audit_log actor is a database role (sql:<user>, service_role) rather than an operator.';

/**
 * The latest changes, one per transaction, newest first: when, who, how many rows of which
 * tables, the main row it touched (a business, event or attraction, with its name), and the job
 * that made it when a database role wrote it while a job ran. `setup` marks the rows written
 * before any job (the seed and the migrations), which Today leaves out.
 */
create or replace function public.recent_changes(max_changes integer default 8)
returns jsonb
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
  with recursive txns (txid, last_id, first_id, n) as (
    (select l.txid, l.id, (select min(m.id) from public.audit_log m where m.txid = l.txid), 1
       from public.audit_log l order by l.id desc limit 1)
    union all
    (select l.txid, l.id, (select min(m.id) from public.audit_log m where m.txid = l.txid), t.n + 1
       from txns t
       join lateral (select * from public.audit_log l where l.id < t.first_id order by l.id desc limit 1) l on true
      where t.n < least(greatest(coalesce(max_changes, 8), 1), 100))
  ),
  first_job as (select min(created_at) as at from public.jobs)
  select coalesce(jsonb_agg(g order by g.last_id desc), '[]'::jsonb)
    from (
      select t.txid, t.last_id, last.at, last.actor, last.submission_id,
             public.audit_actor_is_role(last.actor) as by_role,
             public.audit_actor_is_role(last.actor)
               and coalesce(last.at < (select fj.at from first_job fj), true) as setup,
             counts.rows, counts.tables,
             (select jsonb_build_object('table', m.table_name, 'row_id', m.row_id, 'action', m.action,
                       'label', coalesce(m.after ->> 'name', m.after ->> 'title', m.before ->> 'name',
                                         m.before ->> 'title', ''))
                from public.audit_log m
               where m.txid = t.txid and m.id between t.first_id and t.last_id
                 and m.table_name in ('businesses', 'community_events', 'attractions', 'location_categories')
               order by m.id limit 1) as main,
             (select count(distinct m.row_id)
                from public.audit_log m
               where m.txid = t.txid and m.id between t.first_id and t.last_id
                 and m.table_name in ('businesses', 'community_events', 'attractions', 'location_categories'))
               as main_rows,
             case when public.audit_actor_is_role(last.actor) then
               -- The result's counts and names, not its lists (an import's warnings may be long).
               (select jsonb_build_object('id', j.id, 'kind', j.kind, 'params', j.params, 'status', j.status,
                         'started_by', j.started_by,
                         'result', (select jsonb_object_agg(e.key, e.value)
                                      from jsonb_each(case when jsonb_typeof(j.result) = 'object' then j.result
                                                           else '{}'::jsonb end) e
                                     where jsonb_typeof(e.value) <> 'array'))
                  from public.jobs j
                 where j.started_at is not null and j.started_at <= last.at
                   and coalesce(j.finished_at, 'infinity') >= last.at and j.kind <> 'rebuild'
                 order by j.started_at desc limit 1)
             end as job
        from txns t
        join public.audit_log last on last.id = t.last_id
        cross join lateral (
          select count(*) as rows, jsonb_agg(distinct c.table_name) as tables
            from public.audit_log c
           where c.txid = t.txid and c.id between t.first_id and t.last_id
        ) counts
    ) g
$$;
comment on function public.recent_changes(integer) is
  'The latest audited transactions, newest first, each with its counts, main row and the job that made it (Today).';

/** Brings back a dismissed finding: it shows in Needs attention again, as it was before the dismissal. */
create or replace function public.restore_finding(finding uuid, actor jsonb default null)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  done uuid;
begin
  perform public.act_as(actor);
  update public.listing_findings
     set dismissed_at = null, dismissed_by = null, dismissed_detail = null
   where id = finding and resolved_at is null and dismissed_at is not null
  returning id into done;
  return jsonb_build_object('status', case when done is null then 'not_found' else 'ok' end);
end;
$$;
comment on function public.restore_finding(uuid, jsonb) is
  'Undoes the dismissal of an open finding, so Needs attention lists it again.';

do $$
declare
  f text;
begin
  foreach f in array array['audit_actor_is_role(text)', 'recent_changes(integer)', 'restore_finding(uuid, jsonb)'] loop
    execute format('revoke all on function public.%s from public, anon, authenticated', f);
    execute format('grant execute on function public.%s to service_role', f);
  end loop;
end;
$$;
