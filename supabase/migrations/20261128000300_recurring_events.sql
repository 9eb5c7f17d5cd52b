-- Recurring events (issue 40): an event may be a series. Its rule is an RFC 5545 RRULE value,
-- expanded at build time in the event's time zone (the town's unless it says otherwise), so a
-- 7 pm meeting stays at 7 pm across daylight-saving changes. One occurrence is cancelled by
-- adding its start to `exdates`; one is moved (or given another place or title) by an exception
-- row: an event with `series_id` naming its series and `recurrence_id` the start of the
-- occurrence it replaces, as iCalendar's RECURRENCE-ID does. The messages for a bad rule live in
-- the shared zod schema (scripts/src/content/schema.ts); these checks protect the site.

alter table public.community_events
  add column rrule text check (rrule is null or (length(rrule) between 6 and 500 and rrule ~ '(^|;)FREQ=')),
  add column exdates timestamptz[] not null default '{}' check (cardinality(exdates) <= 1000),
  add column series_id uuid references public.community_events (id) on delete cascade,
  add column recurrence_id timestamptz,
  add column time_zone text check (time_zone is null or length(time_zone) between 1 and 64),
  add column all_day boolean not null default false,
  add constraint community_events_exception_check check ((series_id is null) = (recurrence_id is null)),
  add constraint community_events_exception_rule_check check (series_id is null or rrule is null),
  add constraint community_events_exception_key unique (series_id, recurrence_id);

comment on column public.community_events.rrule is
  'RFC 5545 RRULE value (FREQ=MONTHLY;BYDAY=2TU), or null for a single event. Expanded from starts_at in time_zone.';
comment on column public.community_events.exdates is
  'The starts of the occurrences of the series that are skipped (cancelled dates): EXDATE.';
comment on column public.community_events.series_id is
  'For an exception (a moved or changed occurrence): the series it belongs to.';
comment on column public.community_events.recurrence_id is
  'For an exception: the start the occurrence had in its series (RECURRENCE-ID).';
comment on column public.community_events.time_zone is
  'The IANA time zone the event''s times and rule are kept in; null means the town''s.';
comment on column public.community_events.all_day is
  'A day (or days) long: starts_at and ends_at are midnights in the event''s zone, the end exclusive.';

create index community_events_series_idx on public.community_events (series_id) where series_id is not null;

-- The columns an operator may set (20261128000200_pages.sql wraps this function for pages): an
-- event's rule and cancelled dates, and for a new exception its series and the date it replaces.
create or replace function public.editable_columns_besides_pages(target text, creating boolean default false)
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
      'is_active', 'is_cancelled', 'rrule', 'exdates', 'all_day']
      || case when creating then array['slug', 'series_id', 'recurrence_id'] else array[]::text[] end
  end
$$;
