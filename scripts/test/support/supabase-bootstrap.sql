-- What a new Supabase project's database holds before our migrations run, as far as they touch
-- it, for the real-server tests (scripts/test/real-postgres.test.ts). Unlike the embedded store's
-- shim (scripts/src/store/embedded-shim.sql), these are Supabase's own definitions, from its
-- image's init scripts (supabase/postgres, migrations/db/init-scripts) and its Auth server's
-- migrations (supabase/auth, 20240624145325_recreate_auth_functions): the API roles and their
-- grants, the default privileges that give every new table and function in public to the API
-- roles (so a migration must revoke what they may not have), auth.uid(), auth.role() and
-- auth.jwt() reading request.jwt.claim.* and request.jwt.claims, auth.users, and
-- storage.buckets. Run by the cluster's superuser (supabase_admin); the migrations then run as
-- postgres, which on Supabase is not a superuser.

-- The roles (00000000000000-initial-schema.sql).
create role postgres login createrole createdb replication bypassrls;
create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;
create role authenticator login noinherit;
grant anon, authenticated, service_role to authenticator;
-- postgres may act as the API roles (set role), as the dashboard's SQL editor and our tests do.
grant anon, authenticated, service_role to postgres;
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';

grant all on database postgres to postgres;
grant all on schema public to postgres;
grant usage on schema public to anon, authenticated, service_role;
-- Every table, function and sequence postgres or supabase_admin makes in public is the API roles'
-- until a migration revokes it.
alter default privileges in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on sequences to anon, authenticated, service_role;

create schema extensions;
grant usage on schema extensions to postgres, anon, authenticated, service_role;
alter role postgres set search_path to "$user", public, extensions;

-- Supabase Auth's schema, its users table and its helpers (00000000000001-auth-schema.sql, and
-- the functions as the Auth server defines them today).
create role supabase_auth_admin noinherit createrole login noreplication;
create schema auth authorization supabase_auth_admin;
create table auth.users (
  instance_id uuid null,
  id uuid not null unique,
  aud varchar(255) null,
  "role" varchar(255) null,
  email varchar(255) null unique,
  encrypted_password varchar(255) null,
  confirmed_at timestamptz null,
  last_sign_in_at timestamptz null,
  raw_app_meta_data jsonb null,
  raw_user_meta_data jsonb null,
  is_super_admin bool null,
  created_at timestamptz null,
  updated_at timestamptz null,
  constraint users_pkey primary key (id)
);
alter table auth.users owner to supabase_auth_admin;
grant usage on schema auth to anon, authenticated, service_role, postgres;
grant all on all tables in schema auth to postgres;

create or replace function auth.uid()
returns uuid
set search_path to ''
as $$
  select
    coalesce(
      nullif(current_setting('request.jwt.claim.sub', true), ''),
      (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
    )::uuid
$$ language sql stable;

create or replace function auth.role()
returns text
set search_path to ''
as $$
  select
    coalesce(
      nullif(current_setting('request.jwt.claim.role', true), ''),
      (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
    )::text
$$ language sql stable;

create or replace function auth.email()
returns text
set search_path to ''
as $$
  select
    coalesce(
      nullif(current_setting('request.jwt.claim.email', true), ''),
      (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
    )::text
$$ language sql stable;

create or replace function auth.jwt()
returns jsonb
set search_path to ''
as $$
  select
    coalesce(
      nullif(current_setting('request.jwt.claim', true), ''),
      nullif(current_setting('request.jwt.claims', true), '')
    )::jsonb
$$ language sql stable;

alter function auth.uid() owner to supabase_auth_admin;
alter function auth.role() owner to supabase_auth_admin;
alter function auth.email() owner to supabase_auth_admin;
alter function auth.jwt() owner to supabase_auth_admin;

-- Supabase Storage's buckets (00000000000002-storage-schema.sql, and the Storage server's
-- migrations), so the storage migration's bucket is made as on Supabase.
create role supabase_storage_admin noinherit createrole login noreplication;
create schema storage authorization supabase_storage_admin;
grant usage on schema storage to postgres, anon, authenticated, service_role;
create table storage.buckets (
  id text not null primary key,
  name text not null,
  owner uuid references auth.users (id),
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false
);
create unique index bname on storage.buckets using btree (name);
alter table storage.buckets owner to supabase_storage_admin;
grant all on storage.buckets to postgres, service_role;
