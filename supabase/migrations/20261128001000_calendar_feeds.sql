-- Calendar feeds (issue 40, second half): operators subscribe to the iCalendar URLs the school,
-- the library and the churches already keep (Google Calendar, Outlook, LibCal), and a sync job
-- (scripts/src/feeds/) copies their events into community_events. A feed's event keeps its feed,
-- its UID and its RECURRENCE-ID, so the next sync updates it, adds what is new and removes what
-- the feed dropped, all in one call of sync_calendar_feed (one transaction per feed). A feed that
-- fails records last_error and changes none of its events.
--
-- Feeds are the operators' business: visitors never read this table. What the site shows of a
-- feed is the name on its events ("From {feed name}"), kept on each event as feed_name.
--
-- An operator may hide a feed's event (is_active = false, which a sync leaves alone) but not edit
-- its text or times: the feed would overwrite them. The trigger feed_event_guard refuses such an
-- edit with a check_violation naming community_events_feed_text, which the edit functions answer
-- as a 400; only sync_calendar_feed (which sets roland.feed_sync for its transaction) writes them.

create table public.calendar_feeds (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (length(btrim(name)) between 1 and 100 and name = btrim(name)),
  url text not null check (url ~* '^https?://[^\s]+$' and length(url) <= 2000),
  etag text check (length(etag) <= 500),
  last_modified text check (length(last_modified) <= 100),
  last_synced_at timestamptz,
  last_attempt_at timestamptz,
  last_error text check (length(last_error) <= 1000),
  created_by text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.calendar_feeds is
  'iCalendar URLs the site follows: their events are copied into community_events by the feeds sync.';
comment on column public.calendar_feeds.name is 'What the site says the events are from ("From {name}"); unique.';
comment on column public.calendar_feeds.url is 'The http(s) address of the .ics file, fetched through the crawler''s safe fetch.';
comment on column public.calendar_feeds.etag is 'The ETag of the last fetch, sent back as If-None-Match (304: unchanged).';
comment on column public.calendar_feeds.last_modified is 'The Last-Modified of the last fetch, sent back as If-Modified-Since.';
comment on column public.calendar_feeds.last_synced_at is 'When a sync last read the feed (or learnt it was unchanged).';
comment on column public.calendar_feeds.last_attempt_at is 'When a sync last tried the feed, whether it worked or not.';
comment on column public.calendar_feeds.last_error is
  'Why the last sync failed (unreachable, not iCalendar, too big); null when it worked. Needs attention lists it.';
comment on column public.calendar_feeds.created_by is 'The operator who added the feed.';

create trigger calendar_feeds_updated_at before update on public.calendar_feeds
  for each row execute function public.set_updated_at();
create trigger calendar_feeds_audit after insert or update or delete on public.calendar_feeds
  for each row execute function public.audit_change();

alter table public.calendar_feeds enable row level security;
create policy "Operators read feeds" on public.calendar_feeds
  for select to authenticated using ((select public.is_operator()));
create policy "Operators add feeds" on public.calendar_feeds
  for insert to authenticated with check ((select public.is_operator()));
create policy "Operators change feeds" on public.calendar_feeds
  for update to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators remove feeds" on public.calendar_feeds
  for delete to authenticated using ((select public.is_operator()));
create policy "Service role manages feeds" on public.calendar_feeds
  for all to service_role using (true) with check (true);
revoke all on public.calendar_feeds from anon, authenticated;
grant select, insert, update, delete on public.calendar_feeds to authenticated, service_role;

alter table public.community_events
  add column feed_id uuid references public.calendar_feeds (id) on delete cascade,
  add column feed_name text check (feed_name is null or length(feed_name) <= 100),
  add column feed_uid text check (feed_uid is null or length(feed_uid) between 1 and 1000),
  add column feed_recurrence_id timestamptz,
  add constraint community_events_feed_check check ((feed_id is null) = (feed_uid is null) and (feed_id is null) = (feed_name is null));
-- One row per VEVENT of a feed: its UID, and its RECURRENCE-ID for an override (null for the rest).
create unique index community_events_feed_key on public.community_events (feed_id, feed_uid, feed_recurrence_id)
  nulls not distinct where feed_id is not null;
comment on column public.community_events.feed_id is
  'The calendar feed the event comes from (removing the feed removes its events); null for an event made here.';
comment on column public.community_events.feed_name is 'The feed''s name, which the site shows as "From {feed name}".';
comment on column public.community_events.feed_uid is 'The VEVENT''s UID in its feed.';
comment on column public.community_events.feed_recurrence_id is
  'The VEVENT''s RECURRENCE-ID in its feed (an override of one date of a series); null for the series or a single event.';

/** Refuses an edit of a feed event's text or times (only a feed sync writes them); hiding it is allowed. */
create or replace function public.feed_event_guard()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.feed_id is not null and current_setting('roland.feed_sync', true) is distinct from 'on'
     and (new.title, new.description, new.starts_at, new.ends_at, new.location, new.event_type, new.is_cancelled,
          new.rrule, new.exdates, new.series_id, new.recurrence_id, new.time_zone, new.all_day, new.slug,
          new.feed_id, new.feed_name, new.feed_uid, new.feed_recurrence_id)
         is distinct from
         (old.title, old.description, old.starts_at, old.ends_at, old.location, old.event_type, old.is_cancelled,
          old.rrule, old.exdates, old.series_id, old.recurrence_id, old.time_zone, old.all_day, old.slug,
          old.feed_id, old.feed_name, old.feed_uid, old.feed_recurrence_id) then
    raise exception 'This event comes from the calendar feed "%": its text and times are the feed''s, and the next sync would overwrite an edit. Change it in that calendar, or hide the event here.', old.feed_name
      using errcode = 'check_violation', constraint = 'community_events_feed_text';
  end if;
  return new;
end;
$$;
comment on function public.feed_event_guard() is
  'Keeps a feed event''s text and times as its feed has them: operators may hide it (is_active), not edit it.';
revoke all on function public.feed_event_guard() from public, anon, authenticated;
create trigger community_events_feed_guard before update on public.community_events
  for each row execute function public.feed_event_guard();

/** Every feed with how many events it has, for `roland feeds list` and the console. */
create or replace function public.calendar_feed_rows()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce(jsonb_agg(to_jsonb(f) || jsonb_build_object(
           'events', (select count(*) from public.community_events e where e.feed_id = f.id and e.feed_recurrence_id is null),
           'hidden', (select count(*) from public.community_events e where e.feed_id = f.id and not e.is_active))
         order by f.name), '[]'::jsonb)
    from public.calendar_feeds f
$$;
comment on function public.calendar_feed_rows() is
  'Every calendar feed with its number of events (series and single events) and of hidden ones.';

/** Adds a feed: {status: ok, feed} or {status: duplicate | invalid, message}. */
create or replace function public.add_calendar_feed(feed_name text, feed_url text, actor jsonb default null)
returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
declare
  added public.calendar_feeds;
  rule text;
begin
  perform public.act_as(actor);
  insert into public.calendar_feeds (name, url, created_by)
  values (btrim(feed_name), btrim(feed_url), public.audit_actor())
  returning * into added;
  return jsonb_build_object('status', 'ok', 'feed', to_jsonb(added) || jsonb_build_object('events', 0, 'hidden', 0));
exception
  when unique_violation then
    return jsonb_build_object('status', 'duplicate',
      'message', format('A feed named "%s" exists already: choose another name, or remove that feed first', btrim(feed_name)));
  when check_violation or not_null_violation then
    get stacked diagnostics rule = constraint_name;
    return public.invalid_outcome(sqlerrm, rule);
end;
$$;

/** Removes a feed (by id, or by name) and, with it, its events: {status: ok | not_found, feed, events}. */
create or replace function public.remove_calendar_feed(feed uuid default null, feed_name text default null,
                                                      actor jsonb default null)
returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
declare
  gone public.calendar_feeds;
  removed integer;
begin
  perform public.act_as(actor);
  select * into gone from public.calendar_feeds f
   where (feed is not null and f.id = feed) or (feed is null and f.name = btrim(feed_name));
  if gone.id is null then
    return jsonb_build_object('status', 'not_found');
  end if;
  select count(*) into removed from public.community_events e where e.feed_id = gone.id;
  perform set_config('roland.feed_sync', 'on', true);
  delete from public.calendar_feeds f where f.id = gone.id;
  perform set_config('roland.feed_sync', 'off', true);
  return jsonb_build_object('status', 'ok', 'feed', to_jsonb(gone), 'events', removed);
end;
$$;

/**
 * Records one sync of a feed, in one transaction. `events` is every VEVENT the feed now has, as
 * rows: [{uid, recurrence_id, slug, title, description, location, starts_at, ends_at, all_day,
 * time_zone, rrule, exdates}] (recurrence_id null for a series or a single event; a slug for a
 * new row). Events the feed no longer has are removed, new ones added, changed ones updated (a
 * hidden one stays hidden); an override of a date of a series in the feed becomes an exception
 * row of that series. `events` null means the feed answered "not modified": only the sync is noted.
 * Answers {status: ok | not_found, inserted, updated, removed}.
 */
create or replace function public.sync_calendar_feed(feed uuid, events jsonb, etag text default null,
                                                    last_modified text default null, actor jsonb default null)
returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
declare
  source public.calendar_feeds;
  inserted integer := 0;
  updated integer := 0;
  removed integer := 0;
  rule text;
begin
  perform public.act_as(actor);
  select * into source from public.calendar_feeds f where f.id = feed for update;
  if source.id is null then
    return jsonb_build_object('status', 'not_found');
  end if;
  if events is not null then
    perform set_config('roland.feed_sync', 'on', true);
    create temporary table feed_rows on commit drop as
    select r.* from jsonb_to_recordset(events) as r(uid text, recurrence_id timestamptz, slug text, title text,
      description text, location text, starts_at timestamptz, ends_at timestamptz, all_day boolean,
      time_zone text, rrule text, exdates timestamptz[]);

    begin
      delete from public.community_events e
       where e.feed_id = feed
         and not exists (select 1 from feed_rows r
                          where r.uid = e.feed_uid and r.recurrence_id is not distinct from e.feed_recurrence_id);
      get diagnostics removed = row_count;

      -- Series and single events first, so the overrides find their series.
      with written as (
        insert into public.community_events as e (slug, title, description, starts_at, ends_at, location, event_type,
          rrule, exdates, time_zone, all_day, feed_id, feed_name, feed_uid, feed_recurrence_id)
        select r.slug, r.title, r.description, r.starts_at, r.ends_at, coalesce(r.location, ''), 'Community',
               r.rrule, coalesce(r.exdates, '{}'), r.time_zone, coalesce(r.all_day, false), feed, source.name, r.uid, null
          from feed_rows r where r.recurrence_id is null
        on conflict (feed_id, feed_uid, feed_recurrence_id) where feed_id is not null do update set
          title = excluded.title, description = excluded.description, starts_at = excluded.starts_at,
          ends_at = excluded.ends_at, location = excluded.location, rrule = excluded.rrule,
          exdates = excluded.exdates, time_zone = excluded.time_zone, all_day = excluded.all_day,
          feed_name = excluded.feed_name
        where (e.title, e.description, e.starts_at, e.ends_at, e.location, e.rrule, e.exdates, e.time_zone,
               e.all_day, e.feed_name)
              is distinct from (excluded.title, excluded.description, excluded.starts_at, excluded.ends_at,
               excluded.location, excluded.rrule, excluded.exdates, excluded.time_zone, excluded.all_day,
               excluded.feed_name)
        returning (xmax = 0) as fresh
      )
      select count(*) filter (where fresh), count(*) filter (where not fresh) into inserted, updated from written;

      with overrides as (
        select r.*, s.id as series from feed_rows r
          left join public.community_events s
            on s.feed_id = feed and s.feed_uid = r.uid and s.feed_recurrence_id is null and s.rrule is not null
         where r.recurrence_id is not null
      ), written as (
        insert into public.community_events as e (slug, title, description, starts_at, ends_at, location, event_type,
          time_zone, all_day, series_id, recurrence_id, feed_id, feed_name, feed_uid, feed_recurrence_id)
        select o.slug, o.title, o.description, o.starts_at, o.ends_at, coalesce(o.location, ''), 'Community',
               o.time_zone, coalesce(o.all_day, false), o.series,
               case when o.series is not null then o.recurrence_id end, feed, source.name, o.uid, o.recurrence_id
          from overrides o
        on conflict (feed_id, feed_uid, feed_recurrence_id) where feed_id is not null do update set
          title = excluded.title, description = excluded.description, starts_at = excluded.starts_at,
          ends_at = excluded.ends_at, location = excluded.location, time_zone = excluded.time_zone,
          all_day = excluded.all_day, series_id = excluded.series_id, recurrence_id = excluded.recurrence_id,
          feed_name = excluded.feed_name
        where (e.title, e.description, e.starts_at, e.ends_at, e.location, e.time_zone, e.all_day, e.series_id,
               e.recurrence_id, e.feed_name)
              is distinct from (excluded.title, excluded.description, excluded.starts_at, excluded.ends_at,
               excluded.location, excluded.time_zone, excluded.all_day, excluded.series_id, excluded.recurrence_id,
               excluded.feed_name)
        returning (xmax = 0) as fresh
      )
      select inserted + count(*) filter (where fresh), updated + count(*) filter (where not fresh)
        into inserted, updated from written;
    exception when check_violation or not_null_violation or unique_violation or invalid_text_representation then
      -- A row the table refuses: the feed's events stay as they were (the block is rolled back).
      get stacked diagnostics rule = constraint_name;
      drop table if exists feed_rows;
      perform set_config('roland.feed_sync', 'off', true);
      update public.calendar_feeds f set last_attempt_at = now(), last_error = left(sqlerrm, 1000) where f.id = feed;
      return public.invalid_outcome(sqlerrm, rule);
    end;
    drop table feed_rows;
    perform set_config('roland.feed_sync', 'off', true);
  end if;
  update public.calendar_feeds f
     set last_synced_at = now(), last_attempt_at = now(), last_error = null,
         etag = coalesce(sync_calendar_feed.etag, case when events is null then f.etag end),
         last_modified = coalesce(sync_calendar_feed.last_modified, case when events is null then f.last_modified end)
   where f.id = feed;
  return jsonb_build_object('status', 'ok', 'inserted', inserted, 'updated', updated, 'removed', removed);
end;
$$;

/** Records a failed sync of a feed: its events stay as they are; Needs attention lists the error. */
create or replace function public.fail_calendar_feed(feed uuid, error text, actor jsonb default null)
returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
declare
  done uuid;
begin
  perform public.act_as(actor);
  update public.calendar_feeds f set last_attempt_at = now(), last_error = left(error, 1000)
   where f.id = feed returning f.id into done;
  return jsonb_build_object('status', case when done is null then 'not_found' else 'ok' end);
end;
$$;

do $$
declare
  f text;
begin
  foreach f in array array['calendar_feed_rows()', 'add_calendar_feed(text, text, jsonb)',
    'remove_calendar_feed(uuid, text, jsonb)', 'sync_calendar_feed(uuid, jsonb, text, text, jsonb)',
    'fail_calendar_feed(uuid, text, jsonb)'] loop
    execute format('revoke all on function public.%s from public, anon, authenticated', f);
    execute format('grant execute on function public.%s to service_role', f);
  end loop;
end;
$$;
