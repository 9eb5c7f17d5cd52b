-- The town settings and the category descriptions are editable again (issue 39).
--
-- 20261128000100_town_settings.sql added them to editable_columns; 20261128000200_pages.sql then
-- renamed that function to editable_columns_besides_pages and wrapped it for pages, and
-- 20261128000300_recurring_events.sql redefined editable_columns_besides_pages without them. The
-- wrapper takes them back, beside pages; every other table is still what
-- editable_columns_besides_pages says. The console lets only admins save the town settings (and
-- RLS lets only admins and the service role change the row).

create or replace function public.editable_columns(target text, creating boolean default false)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select case target
    when 'pages' then array['title', 'description', 'intro', 'body', 'items', 'is_published']
      || case when creating then array['path'] else array[]::text[] end
    when 'town_settings' then array['name', 'state', 'state_code', 'zip', 'county', 'tagline', 'time_zone', 'country',
      'latitude', 'longitude', 'coordinator_name', 'coordinator_email', 'contact_email', 'contact_phone']
    when 'location_categories' then array['description']
    else public.editable_columns_besides_pages(target, creating)
  end
$$;
comment on function public.editable_columns(text, boolean) is
  'The columns an operator may set on a content table (and, creating, those a new row may also set); null: not a content table.';

revoke all on function public.editable_columns(text, boolean) from public, anon, authenticated;
grant execute on function public.editable_columns(text, boolean) to service_role;
