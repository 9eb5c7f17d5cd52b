-- The public catalog: businesses with their services, images and opening hours,
-- the location categories every navigation link needs, attractions and community events.
-- Row-level security is enabled on every table in this file; the public (anon) role may
-- only read what a visitor may see, and nobody but the service role writes.

create or replace function public.set_updated_at()
returns trigger
language plpgsql
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;
comment on function public.set_updated_at() is 'Keeps updated_at current on every update.';

-- Slugs are lower-case words joined by single hyphens: the same rule the site's URLs use.
create domain public.slug as text
  check (value ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(value) <= 120);

create table public.location_categories (
  id uuid primary key default gen_random_uuid(),
  slug public.slug not null unique,
  name text not null check (length(btrim(name)) > 0),
  description text,
  icon_name text not null default 'building',
  color text not null default '#1d4ed8' check (color ~ '^#[0-9a-fA-F]{6}$'),
  sort_order integer not null default 0,
  category_type text not null check (category_type in ('business', 'recreation', 'community', 'about')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.location_categories is 'The sections of the site (/{slug}): business categories, recreation, community and about pages.';
create index location_categories_sort_idx on public.location_categories (sort_order, name);

create table public.businesses (
  id uuid primary key default gen_random_uuid(),
  slug public.slug not null unique,
  name text not null check (length(btrim(name)) > 0),
  category text not null default 'Business' check (length(btrim(category)) > 0),
  short_description text,
  full_description text,
  address text,
  phone text,
  website text check (website is null or website ~* '^https?://'),
  hours text,
  is_featured boolean not null default false,
  is_active boolean not null default true,
  rating numeric(2, 1) check (rating >= 0 and rating <= 5),
  price_range text check (price_range is null or price_range ~ '^\$\$?\$?\$?$'),
  metadata jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.businesses is 'Local businesses of Roland, AR. Only active ones are public.';
comment on column public.businesses.metadata is 'Import provenance: source, originalIndex, migratedAt, services.';
create index businesses_active_name_idx on public.businesses (is_active, name);
create index businesses_category_idx on public.businesses (category, name) where is_active;
create index businesses_featured_idx on public.businesses (name) where is_active and is_featured;

create table public.business_services (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null references public.businesses (id) on delete cascade,
  service_name text not null check (length(btrim(service_name)) > 0),
  description text,
  is_featured boolean not null default false,
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.business_services is 'What a business offers: its "Services & Features" list.';
create index business_services_business_idx on public.business_services (business_id, sort_order);

create table public.business_images (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null references public.businesses (id) on delete cascade,
  image_url text not null check (length(btrim(image_url)) > 0),
  alt_text text,
  image_type text not null default 'gallery'
    check (image_type in ('hero', 'logo', 'thumbnail', 'gallery', 'interior', 'exterior', 'product')),
  is_primary boolean not null default false,
  sort_order integer not null default 0,
  metadata jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (business_id, image_url)
);
comment on table public.business_images is 'Photos of a business, kept in our storage (crawled, generated or uploaded).';
comment on column public.business_images.metadata is 'Provenance: sourceUrl for crawled images, generated/provider for generated ones.';
create index business_images_business_idx on public.business_images (business_id, sort_order);
-- At most one primary image per business and image type; the trigger below makes the newest win.
create unique index business_images_one_primary_idx
  on public.business_images (business_id, image_type) where is_primary;

create or replace function public.business_images_clear_other_primary()
returns trigger
language plpgsql
as $$
begin
  if new.is_primary then
    update public.business_images
       set is_primary = false
     where business_id = new.business_id
       and image_type = new.image_type
       and is_primary
       and id <> new.id;
  end if;
  return new;
end;
$$;
comment on function public.business_images_clear_other_primary() is
  'SPEC §4: adding a primary image first clears the primary flag on the business''s other images of the same type.';

create trigger business_images_clear_other_primary
  before insert or update of is_primary, image_type, business_id on public.business_images
  for each row when (new.is_primary)
  execute function public.business_images_clear_other_primary();

create table public.business_hours (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null references public.businesses (id) on delete cascade,
  day_of_week smallint not null check (day_of_week between 0 and 6),
  opens_at time,
  closes_at time,
  is_closed boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (is_closed = (opens_at is null and closes_at is null)),
  unique (business_id, day_of_week, opens_at)
);
comment on table public.business_hours is 'Opening hours parsed from the hours line; day_of_week 0 is Sunday. Read by the site as hours_detail.';
comment on column public.business_hours.closes_at is 'A closing time at or before opens_at means the business closes after midnight.';
create index business_hours_business_idx on public.business_hours (business_id, day_of_week);

create table public.attractions (
  id public.slug primary key,
  name text not null check (length(btrim(name)) > 0),
  category text not null check (category in ('Natural Attractions', 'Sports & Recreation', 'Premium Destinations')),
  description text not null,
  badge text,
  rating numeric(2, 1) check (rating >= 0 and rating <= 5),
  distance text,
  image_url text,
  address text,
  website text check (website is null or website ~* '^https?://'),
  is_featured boolean not null default false,
  is_active boolean not null default true,
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.attractions is 'Recreation attractions around Roland (/attraction/{id}). The featured one leads the home page.';
create index attractions_sort_idx on public.attractions (sort_order, name) where is_active;

create table public.community_events (
  id uuid primary key default gen_random_uuid(),
  slug public.slug not null unique,
  title text not null check (length(btrim(title)) > 0),
  description text,
  starts_at timestamptz not null,
  ends_at timestamptz check (ends_at is null or ends_at >= starts_at),
  location text not null,
  event_type text not null check (event_type in ('Planning', 'Social', 'Business', 'Community', 'Recreation')),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.community_events is 'Community events managed by the community coordinator (/events).';
create index community_events_starts_idx on public.community_events (starts_at) where is_active;

create trigger location_categories_updated_at before update on public.location_categories
  for each row execute function public.set_updated_at();
create trigger businesses_updated_at before update on public.businesses
  for each row execute function public.set_updated_at();
create trigger business_services_updated_at before update on public.business_services
  for each row execute function public.set_updated_at();
create trigger business_images_updated_at before update on public.business_images
  for each row execute function public.set_updated_at();
create trigger business_hours_updated_at before update on public.business_hours
  for each row execute function public.set_updated_at();
create trigger attractions_updated_at before update on public.attractions
  for each row execute function public.set_updated_at();
create trigger community_events_updated_at before update on public.community_events
  for each row execute function public.set_updated_at();

-- Row-level security: visitors read what is active; only the service role writes.
alter table public.location_categories enable row level security;
alter table public.businesses enable row level security;
alter table public.business_services enable row level security;
alter table public.business_images enable row level security;
alter table public.business_hours enable row level security;
alter table public.attractions enable row level security;
alter table public.community_events enable row level security;

create policy "Visitors read every category" on public.location_categories
  for select to anon, authenticated using (true);
create policy "Visitors read active businesses" on public.businesses
  for select to anon, authenticated using (is_active);
create policy "Visitors read services of active businesses" on public.business_services
  for select to anon, authenticated
  using (exists (select 1 from public.businesses b where b.id = business_id and b.is_active));
create policy "Visitors read images of active businesses" on public.business_images
  for select to anon, authenticated
  using (exists (select 1 from public.businesses b where b.id = business_id and b.is_active));
create policy "Visitors read hours of active businesses" on public.business_hours
  for select to anon, authenticated
  using (exists (select 1 from public.businesses b where b.id = business_id and b.is_active));
create policy "Visitors read active attractions" on public.attractions
  for select to anon, authenticated using (is_active);
create policy "Visitors read active events" on public.community_events
  for select to anon, authenticated using (is_active);

-- The service role bypasses RLS on Supabase; these policies say so explicitly, for any
-- Postgres where it does not.
create policy "Service role manages categories" on public.location_categories
  for all to service_role using (true) with check (true);
create policy "Service role manages businesses" on public.businesses
  for all to service_role using (true) with check (true);
create policy "Service role manages services" on public.business_services
  for all to service_role using (true) with check (true);
create policy "Service role manages images" on public.business_images
  for all to service_role using (true) with check (true);
create policy "Service role manages hours" on public.business_hours
  for all to service_role using (true) with check (true);
create policy "Service role manages attractions" on public.attractions
  for all to service_role using (true) with check (true);
create policy "Service role manages events" on public.community_events
  for all to service_role using (true) with check (true);

-- Explicit grants: new Supabase projects no longer grant new tables to the API roles.
revoke all on public.location_categories, public.businesses, public.business_services,
  public.business_images, public.business_hours, public.attractions, public.community_events
  from anon, authenticated;
grant usage on schema public to anon, authenticated, service_role;
grant select on public.location_categories, public.businesses, public.business_services,
  public.business_images, public.business_hours, public.attractions, public.community_events
  to anon, authenticated;
grant select, insert, update, delete on public.location_categories, public.businesses,
  public.business_services, public.business_images, public.business_hours, public.attractions,
  public.community_events
  to service_role;
