-- Pages as content (issue 39): the words of every page that used to be written in an .astro file
-- (the home page's sections, /about, /community and its pages, /nearby, /contact, the recreation
-- intros, the 404 page) are a row each, addressed by the page's URL. The layouts, cards and styles
-- stay in the code; the build reads the published rows with the catalog. Operators edit them in
-- the console through the same edit functions as the other content tables, so every save is
-- audited, undone from the console, and refused when stale.
--
-- The value rules and their messages (sizes, the shape of a list entry) live in
-- scripts/src/content/schema.ts; the constraints here keep what protects the site: a page's URL,
-- a title, a list that is a list, a body of at most 100 KB, and the pages the site cannot do
-- without (the home page, /businesses, /events, /contact and the 404 page) always published.

create table public.pages (
  id uuid primary key default gen_random_uuid(),
  path text not null unique check (path ~ '^/([a-z0-9]+(-[a-z0-9]+)*(/[a-z0-9]+(-[a-z0-9]+)*)*)?$'),
  title text not null check (length(btrim(title)) > 0),
  description text,
  intro text,
  body text not null default '' check (octet_length(body) <= 102400),
  items jsonb not null default '[]'::jsonb check (jsonb_typeof(items) = 'array'),
  is_published boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint pages_always_published check (is_published or path not in ('/', '/businesses', '/events', '/contact', '/404'))
);
comment on table public.pages is
  'The words of the site''s pages, one row per URL: title, meta description, intro, Markdown body and list entries.';
comment on column public.pages.path is 'The page''s URL on the site, such as /community/emergency (/ is the home page).';
comment on column public.pages.description is 'The meta description search engines and link previews show.';
comment on column public.pages.intro is 'The plain-text line under the page''s heading.';
comment on column public.pages.body is 'Markdown (CommonMark; raw HTML is shown as text; links only http(s), mailto, tel and the site''s own paths).';
comment on column public.pages.items is
  'A list page''s entries in order: [{name, phone, address, website, hours, note}], all but name optional.';
comment on column public.pages.is_published is
  'false takes the page off the site, its navigation and its sitemap (the home page, /businesses, /events, /contact and /404 stay).';

create trigger pages_updated_at before update on public.pages
  for each row execute function public.set_updated_at();
create trigger pages_audit after insert or update or delete on public.pages
  for each row execute function public.audit_change();

alter table public.pages enable row level security;
create policy "Visitors read published pages" on public.pages
  for select to anon using (is_published);
create policy "Visitors and operators read pages" on public.pages
  for select to authenticated using (is_published or (select public.is_operator()));
create policy "Operators add pages" on public.pages
  for insert to authenticated with check ((select public.is_operator()));
create policy "Operators change pages" on public.pages
  for update to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators remove pages" on public.pages
  for delete to authenticated using ((select public.is_operator()));
revoke all on public.pages from anon, authenticated;
grant select on public.pages to anon;
grant select, insert, update, delete on public.pages to authenticated, service_role;

-- The edit functions (20261125000400_editing.sql) ask editable_columns which columns of a table an
-- operator may set. Pages join them by wrapping the function as it stands, whichever migration
-- last defined it, rather than repeating its list: the other tables' columns stay where they are.
alter function public.editable_columns(text, boolean) rename to editable_columns_besides_pages;
comment on function public.editable_columns_besides_pages(text, boolean) is
  'The columns an operator may set on each content table but pages (public.editable_columns adds pages).';

create function public.editable_columns(target text, creating boolean default false)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select case when target = 'pages'
    then array['title', 'description', 'intro', 'body', 'items', 'is_published']
         || case when creating then array['path'] else array[]::text[] end
    else public.editable_columns_besides_pages(target, creating)
  end
$$;
comment on function public.editable_columns(text, boolean) is
  'The columns an operator may set on a content table (and, creating, those a new row may also set); null: not a content table.';

/** Every page, as the console lists them: by URL, the home page first. */
create function public.page_rows()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce(jsonb_agg(to_jsonb(p) - 'created_at' order by p.path), '[]'::jsonb) from public.pages p
$$;
comment on function public.page_rows() is 'Every page row (published or not), ordered by path, for the console.';

/**
 * Puts a new set of pages in place of every page, in one change (`roland town init` starts a new
 * town's site with neutral words): [{path, title, description, intro, body, items, is_published}].
 */
create function public.replace_pages(pages jsonb, actor jsonb default null)
returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
begin
  perform public.act_as(actor);
  delete from public.pages;
  insert into public.pages (path, title, description, intro, body, items, is_published)
  select p.path, p.title, p.description, p.intro, coalesce(p.body, ''), coalesce(p.items, '[]'::jsonb),
         coalesce(p.is_published, true)
    from jsonb_to_recordset(pages) as p(path text, title text, description text, intro text, body text,
                                        items jsonb, is_published boolean);
  return jsonb_build_object('status', 'ok', 'pages', (select count(*) from public.pages));
end;
$$;
comment on function public.replace_pages(jsonb, jsonb) is
  'Replaces every page with the given ones in one audited change (roland town init).';

revoke all on function public.editable_columns_besides_pages(text, boolean) from public, anon, authenticated;
revoke all on function public.editable_columns(text, boolean) from public, anon, authenticated;
revoke all on function public.page_rows() from public, anon, authenticated;
revoke all on function public.replace_pages(jsonb, jsonb) from public, anon, authenticated;
grant execute on function public.editable_columns_besides_pages(text, boolean) to service_role;
grant execute on function public.editable_columns(text, boolean) to service_role;
grant execute on function public.page_rows() to service_role;
grant execute on function public.replace_pages(jsonb, jsonb) to service_role;
