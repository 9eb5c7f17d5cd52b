-- Search words (issue 49): words an operator adds to a business for what the OpenStreetMap presets
-- miss, so the site's search (and the console's) finds it by them. A short list: at most 20 words
-- or phrases of 1 to 40 characters each. Visitors read them with the rest of an active listing
-- (the catalog's select reads every column); operators edit them as any field, audited by the
-- businesses table's audit trigger (20261125000300_audit.sql) like every other column.

create function public.search_words_fit(words text[])
returns boolean
language sql
immutable
set search_path = ''
as $$
  select cardinality(words) <= 20
     and not exists (select 1 from unnest(words) w where w is null or length(btrim(w)) = 0 or length(w) > 40)
$$;
comment on function public.search_words_fit(text[]) is
  'Whether a business''s search words fit: at most 20, each 1 to 40 characters (the check of businesses.search_words).';

alter table public.businesses
  add column search_words text[] not null default '{}'
    constraint businesses_search_words_check check (public.search_words_fit(search_words));
comment on column public.businesses.search_words is
  'Words an operator adds for what the OpenStreetMap presets miss ("septic", "notary"): the search finds the business by them. At most 20, each 1 to 40 characters.';

-- The edit functions (20261125000400_editing.sql) ask editable_columns which columns of a table an
-- operator may set. Search words join the businesses' columns by wrapping the function as it
-- stands, whichever migration last defined it (as 20261128000200_pages.sql does for pages), rather
-- than repeating its list.
alter function public.editable_columns(text, boolean) rename to editable_columns_besides_search_words;
comment on function public.editable_columns_besides_search_words(text, boolean) is
  'The columns an operator may set on each content table, but businesses.search_words (public.editable_columns adds it).';

create function public.editable_columns(target text, creating boolean default false)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select case when target = 'businesses'
    then public.editable_columns_besides_search_words(target, creating) || array['search_words']
    else public.editable_columns_besides_search_words(target, creating)
  end
$$;
comment on function public.editable_columns(text, boolean) is
  'The columns an operator may set on a content table (and, creating, those a new row may also set); null: not a content table.';

revoke all on function public.search_words_fit(text[]) from public, anon, authenticated;
revoke all on function public.editable_columns_besides_search_words(text, boolean) from public, anon, authenticated;
revoke all on function public.editable_columns(text, boolean) from public, anon, authenticated;
-- Not anon: visitors never write a business (and may call only what real-postgres.test.ts lists).
grant execute on function public.search_words_fit(text[]) to authenticated, service_role;
grant execute on function public.editable_columns_besides_search_words(text, boolean) to service_role;
grant execute on function public.editable_columns(text, boolean) to service_role;
