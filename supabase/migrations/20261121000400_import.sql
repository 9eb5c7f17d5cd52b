-- The Roland.txt import (SPEC §5, §7), atomic by construction: one function call is one
-- transaction, so a failure at any row leaves every table as it was. The CLI and the console
-- call it with the service role: `select import_businesses(...)` on the embedded store,
-- `rpc('import_businesses', ...)` on Supabase.
--
-- Each entry: { slug, name, category, short_description, full_description, address, phone,
--   website, hours, services: [text], hours_detail: [{day_of_week, opens_at, closes_at, is_closed}],
--   metadata: {source, originalIndex, migratedAt} }.
-- By default businesses are matched by slug and updated in place, so their ids, images,
-- featured flag, rating and price range survive; businesses missing from the file are marked
-- inactive. With reset, every business and its children are deleted first (SPEC §7).
-- With dry_run, the same work is done and then rolled back, so the answer is exactly what
-- an import would do.

create or replace function public.import_businesses(
  entries jsonb,
  reset boolean default false,
  dry_run boolean default false
)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  deactivated jsonb;
  outcome jsonb;
  nil constant uuid := '00000000-0000-0000-0000-000000000000';
begin
  if entries is null or jsonb_typeof(entries) <> 'array' then
    raise exception 'entries must be a JSON array of businesses';
  end if;
  if jsonb_array_length(entries) = 0 then
    raise exception 'the file has no businesses to import';
  end if;

  -- A block with an exception handler is a subtransaction: a dry run raises at its end to
  -- roll its own work back and hand the outcome out through the error.
  begin
    if reset then
      delete from public.business_hours where id <> nil;
      delete from public.business_services where id <> nil;
      delete from public.business_images where id <> nil;
      delete from public.businesses where id <> nil;
    end if;

    -- Set-based throughout: one pass per table, whatever the number of businesses.
    drop table if exists pg_temp.import_incoming;
    create temp table import_incoming on commit drop as
    select e.n::integer as n,
           e.value ->> 'slug' as slug,
           e.value ->> 'name' as name,
           coalesce(e.value ->> 'category', 'Business') as category,
           e.value ->> 'short_description' as short_description,
           e.value ->> 'full_description' as full_description,
           e.value ->> 'address' as address,
           e.value ->> 'phone' as phone,
           e.value ->> 'website' as website,
           e.value ->> 'hours' as hours,
           coalesce(e.value -> 'services', '[]'::jsonb) as services,
           coalesce((select jsonb_agg(jsonb_build_object(
                       'day_of_week', (x ->> 'day_of_week')::smallint,
                       'opens_at', (x ->> 'opens_at')::time,
                       'closes_at', (x ->> 'closes_at')::time,
                       'is_closed', coalesce((x ->> 'is_closed')::boolean, false))
                       order by (x ->> 'day_of_week')::smallint, (x ->> 'opens_at')::time)
                     from jsonb_array_elements(coalesce(e.value -> 'hours_detail', '[]'::jsonb)) x), '[]'::jsonb) as hours_detail,
           coalesce(e.value -> 'metadata', '{}'::jsonb) as metadata,
           b.id as business_id,
           case when b.id is null then 'added' end as status
      from jsonb_array_elements(entries) with ordinality as e(value, n)
      left join public.businesses b on b.slug = e.value ->> 'slug';

    if (select count(distinct slug) from import_incoming) <> (select count(*) from import_incoming) then
      raise exception 'two businesses in the file have the same slug';
    end if;
    create index on import_incoming (slug);

    -- Unchanged means every imported field, the services and the hours are as they are now.
    update import_incoming i
       set status = case when b.is_active
                          and (b.name, b.category, b.short_description, b.full_description, b.address,
                               b.phone, b.website, b.hours)
                              is not distinct from
                              (i.name, i.category, i.short_description, i.full_description, i.address,
                               i.phone, i.website, i.hours)
                          and coalesce(s.list, '[]'::jsonb) = i.services
                          and coalesce(h.list, '[]'::jsonb) = i.hours_detail
                         then 'unchanged' else 'updated' end
      from public.businesses b
      left join (select business_id, jsonb_agg(service_name order by sort_order) as list
                   from public.business_services group by business_id) s on s.business_id = b.id
      left join (select business_id, jsonb_agg(jsonb_build_object('day_of_week', day_of_week,
                          'opens_at', opens_at, 'closes_at', closes_at, 'is_closed', is_closed)
                          order by day_of_week, opens_at) as list
                   from public.business_hours group by business_id) h on h.business_id = b.id
     where b.id = i.business_id;

    with inserted as (
      insert into public.businesses
        (slug, name, category, short_description, full_description, address, phone, website, hours,
         is_featured, is_active, metadata)
      select slug, name, category, short_description, full_description, address, phone, website, hours,
             false, true, metadata || jsonb_build_object('services', services)
        from import_incoming where status = 'added' order by n
      returning id, slug
    )
    update import_incoming i set business_id = inserted.id from inserted where inserted.slug = i.slug;

    -- Operators' additions survive an update: id, images, featured flag, rating, price range.
    update public.businesses b set
      name = i.name, category = i.category, short_description = i.short_description,
      full_description = i.full_description, address = i.address, phone = i.phone,
      website = i.website, hours = i.hours, is_active = true,
      metadata = b.metadata || i.metadata || jsonb_build_object('services', i.services)
      from import_incoming i
     where i.business_id = b.id and i.status = 'updated';

    delete from public.business_services s using import_incoming i
     where s.business_id = i.business_id and i.status = 'updated';
    delete from public.business_hours h using import_incoming i
     where h.business_id = i.business_id and i.status = 'updated';

    insert into public.business_services (business_id, service_name, is_featured, sort_order)
    select i.business_id, s.value, s.n = 1, s.n - 1
      from import_incoming i
     cross join lateral jsonb_array_elements_text(i.services) with ordinality as s(value, n)
     where i.status in ('added', 'updated');

    insert into public.business_hours (business_id, day_of_week, opens_at, closes_at, is_closed)
    select i.business_id, (x ->> 'day_of_week')::smallint, (x ->> 'opens_at')::time,
           (x ->> 'closes_at')::time, (x ->> 'is_closed')::boolean
      from import_incoming i
     cross join lateral jsonb_array_elements(i.hours_detail) x
     where i.status in ('added', 'updated');

    with gone as (
      update public.businesses b set is_active = false
       where b.is_active and not exists (select 1 from import_incoming i where i.slug = b.slug)
      returning b.slug
    )
    select coalesce(jsonb_agg(slug order by slug), '[]'::jsonb) into deactivated from gone;

    select jsonb_build_object(
      'summary', jsonb_build_object(
        'added', count(*) filter (where status = 'added'),
        'updated', count(*) filter (where status = 'updated'),
        'unchanged', count(*) filter (where status = 'unchanged'),
        'deactivated', jsonb_array_length(deactivated)),
      'businesses', jsonb_agg(jsonb_build_object('slug', slug, 'status', status) order by n),
      'deactivated', deactivated,
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
comment on function public.import_businesses(jsonb, boolean, boolean) is
  'Imports parsed Roland.txt entries in one transaction; returns {summary, businesses, deactivated, businessCount, dryRun}.';

revoke all on function public.import_businesses(jsonb, boolean, boolean) from public, anon, authenticated;
grant execute on function public.import_businesses(jsonb, boolean, boolean) to service_role;

-- SPEC §4: the migration is complete when at least one business exists.
create or replace function public.migration_status()
returns jsonb
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
  select jsonb_build_object('isComplete', count(*) > 0, 'businessCount', count(*))
    from public.businesses where is_active
$$;
comment on function public.migration_status() is 'SPEC §4 migration status: {isComplete, businessCount}.';
revoke all on function public.migration_status() from public, anon, authenticated;
grant execute on function public.migration_status() to service_role;
