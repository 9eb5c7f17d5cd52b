-- `roland town init` in one transaction (issue 39). init_town (20261128000100_town_settings.sql)
-- wrote the settings and the category descriptions, and the starter pages followed in a second call
-- (replace_pages): a failure between the two left a new town's settings over the old town's pages.
-- Now the pages come in the same call (content -> 'pages', the rows replace_pages takes) and are
-- written in the same block as the rest: a page refused by a rule of the table (a bad path, two
-- pages at one path, an empty title) leaves the store as it was, settings and all, and the caller
-- gets the rule's message. Without 'pages' the pages are left as they are.

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
    if jsonb_typeof(content -> 'pages') = 'array' then
      perform public.replace_pages(content -> 'pages', actor);
    end if;
  exception when check_violation or not_null_violation or unique_violation or invalid_text_representation then
    get stacked diagnostics rule = constraint_name;
    return public.invalid_outcome(sqlerrm, rule);
  end;
  return jsonb_build_object('status', 'ok', 'removed', held,
                            'pages', (select count(*) from public.pages));
end;
$$;
comment on function public.init_town(jsonb, jsonb, boolean, jsonb) is
  'Starts a store for a town in one transaction: its settings, starter content and pages, no businesses, attractions or events (refused when it holds some, unless force).';
revoke all on function public.init_town(jsonb, jsonb, boolean, jsonb) from public, anon, authenticated;
grant execute on function public.init_town(jsonb, jsonb, boolean, jsonb) to service_role;
