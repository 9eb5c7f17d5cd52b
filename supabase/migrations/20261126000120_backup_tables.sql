-- Backups (`roland db backup`, issue 30): which tables a backup holds, in an order that inserts
-- them without breaking a foreign key (a table after every table it refers to), each with its
-- primary key (to read it in pages, in a stable order). Asked of the catalog, so a table a later
-- migration adds is backed up without a change here. The embedded store calls it with select, a
-- Supabase project over rpc; only the service role may.

create or replace function public.backup_tables()
returns jsonb
language sql
stable
set search_path = ''
as $$
  with recursive tables as (
    select c.oid, c.relname::text as name
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p')
  ), refers as (
    select distinct con.conrelid as child, con.confrelid as parent
    from pg_catalog.pg_constraint con
    where con.contype = 'f' and con.conrelid <> con.confrelid
      and con.conrelid in (select oid from tables) and con.confrelid in (select oid from tables)
  ), depth as (
    select oid, 0 as level from tables
    union all
    select refers.child, depth.level + 1 from depth join refers on refers.parent = depth.oid
    where depth.level < 100
  ), ordered as (
    select t.oid, t.name, max(d.level) as level from tables t join depth d on d.oid = t.oid group by t.oid, t.name
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'name', o.name,
           'key', coalesce((
             select jsonb_agg(a.attname::text order by k.n)
             from pg_catalog.pg_index i
               cross join lateral unnest(i.indkey) with ordinality as k(attnum, n)
               join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
             where i.indrelid = o.oid and i.indisprimary), '[]'::jsonb))
         order by o.level, o.name), '[]'::jsonb)
  from ordered o
$$;
comment on function public.backup_tables() is
  'The public tables a backup holds, parents before children, each with its primary key columns: [{name, key}].';

revoke all on function public.backup_tables() from public, anon, authenticated;
grant execute on function public.backup_tables() to service_role;
