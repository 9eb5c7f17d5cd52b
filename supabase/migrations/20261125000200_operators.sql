-- Named operators (DESIGN.md, "Operators"): the volunteers who keep the site, each with a role.
--   admin:  everything, plus managing operators;
--   editor: content, jobs and rebuilds, not operators.
-- On Supabase, Supabase Auth holds the passwords and an operator row links the auth user
-- (user_id). On the embedded store, the console checks passwords itself: password_hash holds an
-- argon2id hash and the row's own id stands in for the auth user.
--
-- Anyone may sign up to a Supabase project's Auth, so no policy here or elsewhere may grant
-- anything to the whole `authenticated` role: policies name operators through is_operator() and
-- is_admin().
--
-- The acting operator: whoever writes sets the claims of the transaction, as PostgREST does from
-- the caller's JWT (the console's embedded store does it with set_config):
--   request.jwt.claims = {"sub": "<operator user_id, else operator id>", "email": "<email>",
--                         "role": "authenticated", "app_role": "admin" | "editor"}
-- The automation token (CONSOLE_TOKEN) acts as {"email": "automation", "role": "service_role",
-- "app_role": "admin"}, with no sub. is_operator() and is_admin() trust only sub, looked up here;
-- email and app_role are for the audit log, never for access.

create table public.operators (
  id uuid primary key default gen_random_uuid(),
  user_id uuid unique references auth.users (id) on delete cascade,
  email text not null unique
    check (email = lower(btrim(email)) and email ~ '^[^@\s]+@[^@\s]+$' and length(email) <= 254),
  role text not null check (role in ('admin', 'editor')),
  password_hash text check (password_hash is null or password_hash like '$argon2id$%'),
  failed_attempts integer not null default 0 check (failed_attempts >= 0),
  locked_until timestamptz,
  disabled boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.operators is
  'Console accounts and their role (admin or editor). Supabase: user_id links Supabase Auth. Embedded: password_hash (argon2id).';
comment on column public.operators.password_hash is 'argon2id (PHC string), embedded store only; null on Supabase, where Supabase Auth holds passwords.';
comment on column public.operators.failed_attempts is 'Wrong passwords since the last right one; past a few, locked_until delays the next try.';

create trigger operators_updated_at before update on public.operators
  for each row execute function public.set_updated_at();

create table public.operator_sessions (
  token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
  operator_id uuid not null references public.operators (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
comment on table public.operator_sessions is
  'Console sessions of the embedded store: the SHA-256 of the cookie''s token (never the token), the operator, the expiry.';
create index operator_sessions_operator_idx on public.operator_sessions (operator_id);

-- security definer: the functions read operators, which the caller may not be allowed to read.
create or replace function public.is_operator() returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.operators o
    where not o.disabled and coalesce(o.user_id, o.id) = (select auth.uid())
  )
$$;
comment on function public.is_operator() is 'True when the caller (request.jwt.claims sub) is an operator who is not disabled.';

create or replace function public.is_admin() returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.operators o
    where not o.disabled and o.role = 'admin' and coalesce(o.user_id, o.id) = (select auth.uid())
  )
$$;
comment on function public.is_admin() is 'True when the caller (request.jwt.claims sub) is an admin who is not disabled.';

revoke all on function public.is_operator(), public.is_admin() from public;
grant execute on function public.is_operator(), public.is_admin() to anon, authenticated, service_role;

-- Operators: admins manage them; every operator may see who the others are. Nobody but the
-- service role (the console's sign-in) reads a password hash or the lockout counters.
alter table public.operators enable row level security;
alter table public.operator_sessions enable row level security;

create policy "Operators see the operators" on public.operators
  for select to authenticated using ((select public.is_operator()));
create policy "Admins add operators" on public.operators
  for insert to authenticated with check ((select public.is_admin()));
create policy "Admins change operators" on public.operators
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "Admins remove operators" on public.operators
  for delete to authenticated using ((select public.is_admin()));
create policy "Service role manages operators" on public.operators
  for all to service_role using (true) with check (true);
create policy "Service role manages sessions" on public.operator_sessions
  for all to service_role using (true) with check (true);

revoke all on public.operators, public.operator_sessions from anon, authenticated;
grant select (id, user_id, email, role, disabled, created_at, updated_at) on public.operators to authenticated;
grant insert (user_id, email, role, password_hash, disabled) on public.operators to authenticated;
grant update (email, role, password_hash, disabled) on public.operators to authenticated;
grant delete on public.operators to authenticated;
grant select, insert, update, delete on public.operators, public.operator_sessions to service_role;

-- Content: operators (admins and editors) read everything and write it; visitors and strangers
-- keep the public reads of the catalog migration and nothing more.
create policy "Operators manage categories" on public.location_categories
  for all to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators manage businesses" on public.businesses
  for all to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators manage services" on public.business_services
  for all to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators manage images" on public.business_images
  for all to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators manage hours" on public.business_hours
  for all to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators manage attractions" on public.attractions
  for all to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators manage events" on public.community_events
  for all to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
grant insert, update, delete on public.location_categories, public.businesses, public.business_services,
  public.business_images, public.business_hours, public.attractions, public.community_events
  to authenticated;

-- Jobs: operators see the history; jobs themselves are written by the service role.
create policy "Operators read jobs" on public.jobs
  for select to authenticated using ((select public.is_operator()));
grant select on public.jobs to authenticated;

-- A new password clears the lockout: the admin who set it vouches for the operator.
create or replace function public.operator_password_changed() returns trigger
language plpgsql
as $$
begin
  new.failed_attempts := 0;
  new.locked_until := null;
  return new;
end;
$$;
comment on function public.operator_password_changed() is 'Clears the failed attempts and lockout of an operator whose password changes.';
create trigger operators_password_changed
  before update of password_hash on public.operators
  for each row when (new.password_hash is distinct from old.password_hash)
  execute function public.operator_password_changed();

-- A new password, a disabled account or a removed one ends every session of that operator.
create or replace function public.end_operator_sessions() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  delete from public.operator_sessions where operator_id = old.id;
  return null;
end;
$$;
comment on function public.end_operator_sessions() is 'Signs an operator out everywhere when their password changes or they are disabled.';
create trigger operators_end_sessions
  after update of password_hash, disabled on public.operators
  for each row when (new.password_hash is distinct from old.password_hash or (new.disabled and not old.disabled))
  execute function public.end_operator_sessions();

-- The console must stay manageable: the last admin who can sign in cannot be removed, demoted or disabled.
create or replace function public.keep_an_admin() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if old.role = 'admin' and not old.disabled
     and not exists (select 1 from public.operators o where o.role = 'admin' and not o.disabled)
  then
    raise exception 'The last admin cannot be removed, demoted or disabled: make another operator admin first.'
      using errcode = 'check_violation';
  end if;
  return null;
end;
$$;
comment on function public.keep_an_admin() is 'Refuses a change that would leave no admin able to sign in.';
create trigger operators_keep_an_admin
  after update of role, disabled or delete on public.operators
  for each row execute function public.keep_an_admin();
