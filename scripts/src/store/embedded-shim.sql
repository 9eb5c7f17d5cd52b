-- What a Supabase database has and a bare Postgres lacks, so the same migrations and the
-- same row-level security run in the embedded store: the API roles and the auth helpers.
-- Embedded store only; never applied to Supabase.

do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end;
$$;

create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

create or replace function auth.jwt() returns jsonb
language sql stable
as $$ select coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb $$;

create or replace function auth.role() returns text
language sql stable
as $$ select coalesce(auth.jwt() ->> 'role', current_user) $$;

create or replace function auth.uid() returns uuid
language sql stable
as $$ select nullif(auth.jwt() ->> 'sub', '')::uuid $$;

-- Supabase Auth's users, as far as the migrations refer to them (operators.user_id). The embedded
-- store keeps no one here: its operators sign in with the password hash of their operators row.
create table if not exists auth.users (
  id uuid primary key default gen_random_uuid(),
  email text,
  created_at timestamptz not null default now()
);
revoke all on auth.users from anon, authenticated;

-- Which migrations the embedded database has applied, so new ones apply on next open.
create schema if not exists roland;
create table if not exists roland.schema_migrations (
  version text primary key,
  name text not null,
  applied_at timestamptz not null default now()
);
revoke all on schema roland from public;
