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
  entry jsonb;
  old public.businesses%rowtype;
  new_id uuid;
  status text;
  same boolean;
  statuses jsonb := '[]'::jsonb;
  added integer := 0;
  updated integer := 0;
  unchanged integer := 0;
  deactivated jsonb := '[]'::jsonb;
  outcome jsonb;
  nil constant uuid := '00000000-0000-0000-0000-000000000000';
begin
  if entries is null or jsonb_typeof(entries) <> 'array' then
    raise exception 'entries must be a JSON array of businesses';
  end if;
  if jsonb_array_length(entries) = 0 then
    raise exception 'the file has no businesses to import';
  end if;
  if (select count(distinct value ->> 'slug') from jsonb_array_elements(entries)) <> jsonb_array_length(entries) then
    raise exception 'two businesses in the file have the same slug';
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

    for entry in select value from jsonb_array_elements(entries) with ordinality as e(value, n) order by n loop
      select * into old from public.businesses where slug = entry ->> 'slug' for update;
      if not found then
        insert into public.businesses
          (slug, name, category, short_description, full_description, address, phone, website, hours,
           is_featured, is_active, metadata)
        values
          (entry ->> 'slug', entry ->> 'name', coalesce(entry ->> 'category', 'Business'),
           entry ->> 'short_description', entry ->> 'full_description', entry ->> 'address',
           entry ->> 'phone', entry ->> 'website', entry ->> 'hours', false, true,
           coalesce(entry -> 'metadata', '{}'::jsonb) || jsonb_build_object('services', coalesce(entry -> 'services', '[]'::jsonb)))
        returning id into new_id;
        status := 'added';
        added := added + 1;
      else
        new_id := old.id;
        same := old.is_active
          and (old.name, old.category, old.short_description, old.full_description, old.address,
               old.phone, old.website, old.hours)
              is not distinct from
              (entry ->> 'name', coalesce(entry ->> 'category', 'Business'), entry ->> 'short_description',
               entry ->> 'full_description', entry ->> 'address', entry ->> 'phone', entry ->> 'website',
               entry ->> 'hours')
          and coalesce((select jsonb_agg(s.service_name order by s.sort_order)
                          from public.business_services s where s.business_id = old.id), '[]'::jsonb)
              = coalesce(entry -> 'services', '[]'::jsonb)
          and coalesce((select jsonb_agg(jsonb_build_object('day_of_week', h.day_of_week,
                                 'opens_at', to_char(h.opens_at, 'HH24:MI'), 'closes_at', to_char(h.closes_at, 'HH24:MI'),
                                 'is_closed', h.is_closed) order by h.day_of_week, h.opens_at)
                          from public.business_hours h where h.business_id = old.id), '[]'::jsonb)
              = coalesce((select jsonb_agg(jsonb_build_object('day_of_week', (x ->> 'day_of_week')::smallint,
                                 'opens_at', to_char((x ->> 'opens_at')::time, 'HH24:MI'),
                                 'closes_at', to_char((x ->> 'closes_at')::time, 'HH24:MI'),
                                 'is_closed', coalesce((x ->> 'is_closed')::boolean, false))
                                 order by (x ->> 'day_of_week')::smallint, (x ->> 'opens_at')::time)
                          from jsonb_array_elements(coalesce(entry -> 'hours_detail', '[]'::jsonb)) x), '[]'::jsonb);
        if same then
          status := 'unchanged';
          unchanged := unchanged + 1;
          statuses := statuses || jsonb_build_object('slug', entry ->> 'slug', 'status', status);
          continue;
        end if;
        update public.businesses set
          name = entry ->> 'name',
          category = coalesce(entry ->> 'category', 'Business'),
          short_description = entry ->> 'short_description',
          full_description = entry ->> 'full_description',
          address = entry ->> 'address',
          phone = entry ->> 'phone',
          website = entry ->> 'website',
          hours = entry ->> 'hours',
          is_active = true,
          metadata = old.metadata || coalesce(entry -> 'metadata', '{}'::jsonb)
                     || jsonb_build_object('services', coalesce(entry -> 'services', '[]'::jsonb))
        where id = old.id;
        delete from public.business_services where business_id = old.id;
        delete from public.business_hours where business_id = old.id;
        status := 'updated';
        updated := updated + 1;
      end if;

      insert into public.business_services (business_id, service_name, is_featured, sort_order)
      select new_id, s.value, s.n = 1, s.n - 1
        from jsonb_array_elements_text(coalesce(entry -> 'services', '[]'::jsonb)) with ordinality as s(value, n);

      insert into public.business_hours (business_id, day_of_week, opens_at, closes_at, is_closed)
      select new_id, (x ->> 'day_of_week')::smallint, (x ->> 'opens_at')::time, (x ->> 'closes_at')::time,
             coalesce((x ->> 'is_closed')::boolean, false)
        from jsonb_array_elements(coalesce(entry -> 'hours_detail', '[]'::jsonb)) x;

      statuses := statuses || jsonb_build_object('slug', entry ->> 'slug', 'status', status);
    end loop;

    with gone as (
      update public.businesses b set is_active = false
       where b.is_active
         and not exists (select 1 from jsonb_array_elements(entries) e where e.value ->> 'slug' = b.slug)
      returning b.slug
    )
    select coalesce(jsonb_agg(slug order by slug), '[]'::jsonb) into deactivated from gone;

    outcome := jsonb_build_object(
      'summary', jsonb_build_object('added', added, 'updated', updated, 'unchanged', unchanged,
                                    'deactivated', jsonb_array_length(deactivated)),
      'businesses', statuses,
      'deactivated', deactivated,
      'businessCount', (select count(*) from public.businesses where is_active),
      'dryRun', dry_run);

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
