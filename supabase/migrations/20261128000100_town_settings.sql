-- The town is a setting, not code (issue 39): one row holds what the site, the console and the
-- jobs say about the town (its name, state, ZIP, county, tagline, time zone, country, centre, and
-- the people visitors write to). Everyone may read it (every page shows it anyway); only admins
-- change it, through the same edit functions as the other content tables, so the audit trigger
-- records each save and the console undoes it. The value rules (a time zone Node knows, a US ZIP,
-- well-formed emails) and their messages live in scripts/src/content/schema.ts; the constraints
-- here keep only what protects the site: no empty name, a two-letter country, a place on Earth.
--
-- Category descriptions become content too: operators edit them from the console (editable_columns
-- below), and the audit trigger already covers location_categories.

create table public.town_settings (
  id smallint primary key default 1 check (id = 1),
  name text not null check (length(btrim(name)) > 0),
  state text not null check (length(btrim(state)) > 0),
  state_code text not null check (length(btrim(state_code)) > 0),
  zip text not null check (length(btrim(zip)) > 0),
  county text not null,
  tagline text not null,
  time_zone text not null check (length(btrim(time_zone)) > 0),
  country text not null default 'US' check (country ~ '^[A-Z]{2}$'),
  latitude double precision not null check (latitude between -90 and 90),
  longitude double precision not null check (longitude between -180 and 180),
  coordinator_name text not null check (length(btrim(coordinator_name)) > 0),
  coordinator_email text not null check (coordinator_email ~* '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  contact_email text check (contact_email is null or contact_email ~* '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  contact_phone text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.town_settings is
  'The town the site is about: exactly one row (id 1) of name, state, ZIP, county, tagline, time zone, country, centre and contacts.';
comment on column public.town_settings.state_code is 'The state''s postal abbreviation (AR): maps searches and addresses use it.';
comment on column public.town_settings.time_zone is 'IANA zone of the town''s clocks: opening hours and event times are read in it.';
comment on column public.town_settings.country is 'ISO 3166-1 alpha-2 code: phone numbers and ZIPs are checked by its rules.';
comment on column public.town_settings.latitude is 'The town centre (degrees north), which attraction distances are measured from.';
comment on column public.town_settings.longitude is 'The town centre (degrees east), which attraction distances are measured from.';
comment on column public.town_settings.coordinator_name is 'The community coordinator who manages events and receives suggestions.';
comment on column public.town_settings.contact_phone is 'A phone number the contact page shows, if the town has one.';

create trigger town_settings_updated_at before update on public.town_settings
  for each row execute function public.set_updated_at();
create trigger town_settings_audit after insert or update or delete on public.town_settings
  for each row execute function public.audit_change();

alter table public.town_settings enable row level security;
create policy "Visitors read the town settings" on public.town_settings
  for select to anon using (true);
create policy "Visitors and operators read the town settings" on public.town_settings
  for select to authenticated using (true);
create policy "Admins change the town settings" on public.town_settings
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
-- No insert or delete policy: the one row is made by the seed or `roland town init` (service role).
grant select on public.town_settings to anon, authenticated;
grant update on public.town_settings to authenticated;
grant select, insert, update, delete on public.town_settings to service_role;

-- The columns an operator may set: as before, plus the town settings (the console lets only admins
-- save them) and a category's description.
create or replace function public.editable_columns(target text, creating boolean default false)
returns text[]
language sql
immutable
set search_path = public, pg_temp
as $$
  select case target
    when 'businesses' then array['name', 'category', 'short_description', 'full_description', 'address',
      'phone', 'email', 'website', 'hours', 'is_featured', 'is_active', 'rating', 'price_range']
      || case when creating then array['slug', 'metadata'] else array[]::text[] end
    when 'business_images' then array['alt_text', 'is_primary', 'sort_order', 'image_type']
      || case when creating then array['business_id', 'image_url', 'metadata', 'width', 'height', 'placeholder', 'variants']
              else array[]::text[] end
    when 'attractions' then array['name', 'category', 'description', 'badge', 'rating', 'distance', 'image_url',
      'address', 'website', 'is_featured', 'is_active', 'sort_order']
      || case when creating then array['id'] else array[]::text[] end
    when 'community_events' then array['title', 'description', 'starts_at', 'ends_at', 'location', 'event_type',
      'is_active', 'is_cancelled']
      || case when creating then array['slug'] else array[]::text[] end
    when 'town_settings' then array['name', 'state', 'state_code', 'zip', 'county', 'tagline', 'time_zone', 'country',
      'latitude', 'longitude', 'coordinator_name', 'coordinator_email', 'contact_email', 'contact_phone']
    when 'location_categories' then array['description']
  end
$$;

/**
 * Starts a store for a town (`roland town init`): its settings, the starting words of its content
 * (`content`: {"category_descriptions": {slug: text}}; later kinds of starter content add keys),
 * and no businesses, attractions or events. A store that holds any of those is refused
 * ({status: 'holds_data', held}) unless `force`, which deletes them. One transaction: the store is
 * the old town or the new one, never between; the audit trail records it all.
 */
create or replace function public.init_town(settings jsonb, content jsonb, force boolean default false, actor jsonb default null)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  held jsonb := jsonb_build_object(
    'businesses', (select count(*) from public.businesses),
    'attractions', (select count(*) from public.attractions),
    'events', (select count(*) from public.community_events));
  rule text;
begin
  perform public.act_as(actor);
  if not force and ((held ->> 'businesses')::int + (held ->> 'attractions')::int + (held ->> 'events')::int) > 0 then
    return jsonb_build_object('status', 'holds_data', 'held', held);
  end if;
  begin
    delete from public.community_events;
    delete from public.attractions;
    delete from public.businesses;
    insert into public.town_settings as t (id, name, state, state_code, zip, county, tagline, time_zone, country,
                                           latitude, longitude, coordinator_name, coordinator_email, contact_email, contact_phone)
    select 1, r.name, r.state, r.state_code, r.zip, r.county, r.tagline, r.time_zone, coalesce(r.country, 'US'),
           r.latitude, r.longitude, r.coordinator_name, r.coordinator_email, r.contact_email, r.contact_phone
      from jsonb_populate_record(null::public.town_settings, settings) r
    on conflict (id) do update set
      (name, state, state_code, zip, county, tagline, time_zone, country, latitude, longitude, coordinator_name,
       coordinator_email, contact_email, contact_phone) =
      (excluded.name, excluded.state, excluded.state_code, excluded.zip, excluded.county, excluded.tagline,
       excluded.time_zone, excluded.country, excluded.latitude, excluded.longitude, excluded.coordinator_name,
       excluded.coordinator_email, excluded.contact_email, excluded.contact_phone);
    update public.location_categories c set description = d.value
      from jsonb_each_text(coalesce(content -> 'category_descriptions', '{}'::jsonb)) d
     where c.slug = d.key and c.description is distinct from d.value;
  exception when check_violation or not_null_violation or invalid_text_representation then
    get stacked diagnostics rule = constraint_name;
    return public.invalid_outcome(sqlerrm, rule);
  end;
  return jsonb_build_object('status', 'ok', 'removed', held);
end;
$$;
comment on function public.init_town(jsonb, jsonb, boolean, jsonb) is
  'Starts a store for a town: its settings and starter content, no businesses, attractions or events (refused when it holds some, unless force).';
revoke all on function public.init_town(jsonb, jsonb, boolean, jsonb) from public, anon, authenticated;
grant execute on function public.init_town(jsonb, jsonb, boolean, jsonb) to service_role;
