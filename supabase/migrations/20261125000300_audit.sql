-- The audit trail of the content tables (DESIGN.md, "Audit"): a trigger records every insert,
-- update and delete, whoever makes it (the console, a job, or a person at a SQL prompt): who,
-- when, the table, the row, and the row before and after. The console shows a row's history
-- from it and undoes a change by writing a new one, which is recorded in turn.
--
-- Who acts is read from request.jwt.claims, the setting PostgREST fills from the caller's JWT
-- and the console's store sets in the transaction of an edit: its email, else its sub, else its
-- role (a job with the service key), else 'sql:<session user>' for a change made by hand.

create table public.audit_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  actor text not null,
  table_name text not null,
  row_id text not null,
  action text not null check (action in ('insert', 'update', 'delete')),
  before jsonb,
  after jsonb,
  -- The changes of one transaction (one save of the editor, say) share it, so undo takes them together.
  txid bigint not null default txid_current(),
  check ((action = 'insert') = (before is null) and (action = 'delete') = (after is null))
);
comment on table public.audit_log is 'Every change to the content tables: who, when, table, row, before and after (jsonb).';
comment on column public.audit_log.txid is 'The transaction of the change: undo reverts every change of a transaction at once.';
create index audit_log_row_idx on public.audit_log (table_name, row_id, id desc);
create index audit_log_txid_idx on public.audit_log (txid);

/** Who is acting: the operator the transaction names, else the database user (a change by hand). */
create or replace function public.audit_actor()
returns text
language sql
stable
set search_path = public, pg_temp
as $$
  select coalesce(
    nullif(claims ->> 'email', ''),
    nullif(claims ->> 'sub', ''),
    nullif(claims ->> 'role', ''),
    'sql:' || session_user)
  from (select case when nullif(current_setting('request.jwt.claims', true), '') is null then '{}'::jsonb
                    else current_setting('request.jwt.claims', true)::jsonb end as claims) c
$$;
comment on function public.audit_actor() is
  'The acting operator from request.jwt.claims (email, sub, role), else sql:<session user>.';

-- Security definer: whoever may change a content table has its change recorded, though nobody
-- but the service role may read or write the trail itself.
create or replace function public.audit_change()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  old_row jsonb := case when tg_op in ('UPDATE', 'DELETE') then to_jsonb(old) end;
  new_row jsonb := case when tg_op in ('INSERT', 'UPDATE') then to_jsonb(new) end;
begin
  if tg_op = 'UPDATE' and old_row - 'updated_at' = new_row - 'updated_at' then
    return null; -- a save that changed nothing is not a change
  end if;
  insert into public.audit_log (actor, table_name, row_id, action, before, after)
  values (public.audit_actor(), tg_table_name, coalesce(new_row, old_row) ->> 'id', lower(tg_op), old_row, new_row);
  return null;
end;
$$;
comment on function public.audit_change() is 'Records a content table''s insert, update or delete in audit_log.';
revoke all on function public.audit_change() from public, anon, authenticated;

do $$
declare
  t text;
begin
  foreach t in array array['businesses', 'business_services', 'business_images', 'business_hours',
                           'attractions', 'community_events', 'location_categories'] loop
    execute format('create trigger %I after insert or update or delete on public.%I
                      for each row execute function public.audit_change()', t || '_audit', t);
  end loop;
end;
$$;

alter table public.audit_log enable row level security;
create policy "Service role reads the audit trail" on public.audit_log
  for select to service_role using (true);
revoke all on public.audit_log from anon, authenticated;
grant select on public.audit_log to service_role;
