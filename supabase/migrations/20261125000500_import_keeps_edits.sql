-- Re-importing Roland.txt keeps what operators edited in the console (issue 18).
--
-- Each imported business remembers the values the file gave it, in metadata.imported. A field
-- whose value now differs from that record was edited since (in the console, or by hand in SQL).
-- When the file brings a different value for such a field, that is a conflict: the import keeps
-- the operator's value and lists the conflict, unless overwrite_edits asks to take the file's.
-- A field nobody edited follows the file, as before. Businesses added in the console
-- (metadata.source 'console') are never deactivated for being absent from the file.
--
-- Otherwise as 20261121000400_import.sql: one call is one transaction, dry_run rolls back and
-- answers what would happen (conflicts included), reset deletes every business first.

drop function if exists public.import_businesses(jsonb, boolean, boolean);

create or replace function public.import_businesses(
  entries jsonb,
  reset boolean default false,
  dry_run boolean default false,
  overwrite_edits boolean default false
)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  deactivated jsonb;
  all_conflicts jsonb;
  outcome jsonb;
  fields constant text[] := array['name', 'category', 'short_description', 'full_description', 'address',
                                  'phone', 'website', 'hours', 'services'];
  nil constant uuid := '00000000-0000-0000-0000-000000000000';
begin
  if entries is null or jsonb_typeof(entries) <> 'array' then
    raise exception 'entries must be a JSON array of businesses';
  end if;
  if jsonb_array_length(entries) = 0 then
    raise exception 'the file has no businesses to import';
  end if;

  begin
    if reset then
      delete from public.business_hours where id <> nil;
      delete from public.business_services where id <> nil;
      delete from public.business_images where id <> nil;
      delete from public.businesses where id <> nil;
    end if;

    drop table if exists pg_temp.import_incoming;
    create temp table import_incoming on commit drop as
    select e.n::integer as n,
           e.value ->> 'slug' as slug,
           jsonb_build_object(
             'name', e.value ->> 'name',
             'category', coalesce(e.value ->> 'category', 'Business'),
             'short_description', e.value ->> 'short_description',
             'full_description', e.value ->> 'full_description',
             'address', e.value ->> 'address',
             'phone', e.value ->> 'phone',
             'website', e.value ->> 'website',
             'hours', e.value ->> 'hours',
             'services', coalesce(e.value -> 'services', '[]'::jsonb)) as incoming,
           coalesce((select jsonb_agg(jsonb_build_object(
                       'day_of_week', (x ->> 'day_of_week')::smallint,
                       'opens_at', (x ->> 'opens_at')::time,
                       'closes_at', (x ->> 'closes_at')::time,
                       'is_closed', coalesce((x ->> 'is_closed')::boolean, false))
                       order by (x ->> 'day_of_week')::smallint, (x ->> 'opens_at')::time)
                     from jsonb_array_elements(coalesce(e.value -> 'hours_detail', '[]'::jsonb)) x), '[]'::jsonb) as hours_detail,
           coalesce(e.value -> 'metadata', '{}'::jsonb) as metadata,
           b.id as business_id,
           null::jsonb as current,
           null::jsonb as resolved,
           null::jsonb as current_hours,
           '[]'::jsonb as conflicts,
           case when b.id is null then 'added' end as status
      from jsonb_array_elements(entries) with ordinality as e(value, n)
      left join public.businesses b on b.slug = e.value ->> 'slug';

    if (select count(distinct slug) from import_incoming) <> (select count(*) from import_incoming) then
      raise exception 'two businesses in the file have the same slug';
    end if;
    create index on import_incoming (slug);

    -- What each existing business holds now, and what the file gave it last time (its base).
    update import_incoming i
       set current = jsonb_build_object(
             'name', b.name, 'category', b.category, 'short_description', b.short_description,
             'full_description', b.full_description, 'address', b.address, 'phone', b.phone,
             'website', b.website, 'hours', b.hours, 'services', coalesce(s.list, '[]'::jsonb),
             '_active', b.is_active,
             -- Imported before this rule: the services the import recorded, else nothing counts as edited.
             '_base', coalesce(b.metadata -> 'imported',
                               jsonb_strip_nulls(jsonb_build_object('services', b.metadata -> 'services')))),
           current_hours = coalesce(h.list, '[]'::jsonb)
      from public.businesses b
      left join (select business_id, jsonb_agg(service_name order by sort_order) as list
                   from public.business_services group by business_id) s on s.business_id = b.id
      left join (select business_id, jsonb_agg(jsonb_build_object('day_of_week', day_of_week,
                          'opens_at', opens_at, 'closes_at', closes_at, 'is_closed', is_closed)
                          order by day_of_week, opens_at) as list
                   from public.business_hours group by business_id) h on h.business_id = b.id
     where b.id = i.business_id;

    -- Field by field: an edited field (differs from its base) that the file would change is a
    -- conflict, kept unless overwrite_edits; any other field takes the file's value.
    update import_incoming i
       set conflicts = coalesce(c.list, '[]'::jsonb),
           resolved = c.resolved
      from (
        select i2.slug,
               jsonb_agg(jsonb_build_object('field', f.f, 'current', i2.current -> f.f, 'incoming', i2.incoming -> f.f))
                 filter (where f.conflict) as list,
               jsonb_object_agg(f.f, case when f.conflict and not overwrite_edits then i2.current -> f.f
                                          else i2.incoming -> f.f end) as resolved
          from import_incoming i2
          cross join lateral (
            select k as f,
                   (i2.current -> k) is distinct from (i2.incoming -> k)
                   and (i2.current -> '_base') ? k
                   and (i2.current -> k) is distinct from (i2.current -> '_base' -> k) as conflict
              from unnest(fields) k) f
         where i2.business_id is not null
         group by i2.slug
      ) c
     where c.slug = i.slug;

    update import_incoming set resolved = incoming where business_id is null;

    -- Unchanged: every field, the services and the hours stay as they are.
    update import_incoming i
       set status = case when (i.current -> '_active')::boolean
                          and i.resolved = (i.current - '_active' - '_base')
                          and (i.resolved -> 'hours' is distinct from i.incoming -> 'hours'
                               or i.current_hours = i.hours_detail)
                         then 'unchanged' else 'updated' end
     where i.business_id is not null;

    with inserted as (
      insert into public.businesses
        (slug, name, category, short_description, full_description, address, phone, website, hours,
         is_featured, is_active, metadata)
      select slug, resolved ->> 'name', resolved ->> 'category', resolved ->> 'short_description',
             resolved ->> 'full_description', resolved ->> 'address', resolved ->> 'phone',
             resolved ->> 'website', resolved ->> 'hours', false, true,
             metadata || jsonb_build_object('services', incoming -> 'services', 'imported', incoming)
        from import_incoming where status = 'added' order by n
      returning id, slug
    )
    update import_incoming i set business_id = inserted.id from inserted where inserted.slug = i.slug;

    update public.businesses b set
      name = i.resolved ->> 'name', category = i.resolved ->> 'category',
      short_description = i.resolved ->> 'short_description',
      full_description = i.resolved ->> 'full_description', address = i.resolved ->> 'address',
      phone = i.resolved ->> 'phone', website = i.resolved ->> 'website', hours = i.resolved ->> 'hours',
      is_active = true,
      metadata = b.metadata || i.metadata || jsonb_build_object('services', i.incoming -> 'services', 'imported', i.incoming)
      from import_incoming i
     where i.business_id = b.id and i.status = 'updated';

    -- Services follow the file unless they were an edit kept; hours rows follow the hours text.
    delete from public.business_services s using import_incoming i
     where s.business_id = i.business_id and i.status = 'updated'
       and i.resolved -> 'services' is distinct from i.current -> 'services';
    insert into public.business_services (business_id, service_name, is_featured, sort_order)
    select i.business_id, s.value, s.n = 1, s.n - 1
      from import_incoming i
     cross join lateral jsonb_array_elements_text(i.resolved -> 'services') with ordinality as s(value, n)
     where i.status = 'added'
        or (i.status = 'updated' and i.resolved -> 'services' is distinct from i.current -> 'services');

    delete from public.business_hours h using import_incoming i
     where h.business_id = i.business_id and i.status = 'updated'
       and i.resolved -> 'hours' = i.incoming -> 'hours' and i.current_hours <> i.hours_detail;
    insert into public.business_hours (business_id, day_of_week, opens_at, closes_at, is_closed)
    select i.business_id, (x ->> 'day_of_week')::smallint, (x ->> 'opens_at')::time,
           (x ->> 'closes_at')::time, (x ->> 'is_closed')::boolean
      from import_incoming i
     cross join lateral jsonb_array_elements(i.hours_detail) x
     where i.status = 'added'
        or (i.status = 'updated' and i.resolved -> 'hours' = i.incoming -> 'hours' and i.current_hours <> i.hours_detail);

    with gone as (
      update public.businesses b set is_active = false
       where b.is_active and not exists (select 1 from import_incoming i where i.slug = b.slug)
         and coalesce(b.metadata ->> 'source', 'roland.txt') <> 'console'
      returning b.slug
    )
    select coalesce(jsonb_agg(slug order by slug), '[]'::jsonb) into deactivated from gone;

    select coalesce(jsonb_agg(c || jsonb_build_object('slug', i.slug, 'name', i.current ->> 'name')
                              order by i.n, c ->> 'field'), '[]'::jsonb)
      into all_conflicts
      from import_incoming i cross join lateral jsonb_array_elements(i.conflicts) c;

    select jsonb_build_object(
      'summary', jsonb_build_object(
        'added', count(*) filter (where status = 'added'),
        'updated', count(*) filter (where status = 'updated'),
        'unchanged', count(*) filter (where status = 'unchanged'),
        'deactivated', jsonb_array_length(deactivated),
        'conflicts', jsonb_array_length(all_conflicts)),
      'businesses', jsonb_agg(jsonb_build_object('slug', slug, 'status', status) order by n),
      'deactivated', deactivated,
      'conflicts', all_conflicts,
      'overwriteEdits', overwrite_edits,
      'businessCount', (select count(*) from public.businesses where is_active),
      'dryRun', dry_run)
      into outcome
      from import_incoming;

    drop table import_incoming;

    if dry_run then
      raise exception using errcode = 'RL001', message = outcome::text;
    end if;
  exception when sqlstate 'RL001' then
    return sqlerrm::jsonb;
  end;
  return outcome;
end;
$$;
comment on function public.import_businesses(jsonb, boolean, boolean, boolean) is
  'Imports parsed Roland.txt entries in one transaction, keeping operators'' edits unless overwrite_edits; returns {summary, businesses, deactivated, conflicts, businessCount, dryRun}.';

revoke all on function public.import_businesses(jsonb, boolean, boolean, boolean) from public, anon, authenticated;
grant execute on function public.import_businesses(jsonb, boolean, boolean, boolean) to service_role;
