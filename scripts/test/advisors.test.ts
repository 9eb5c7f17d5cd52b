import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'

// What Supabase's advisors (splinter) check, asserted over the catalog of the real migrations, so
// a later migration cannot bring a warning back: every function has a fixed search_path, no table
// has two permissive policies for one role and action, and anon may call no function that writes
// but the visitors' suggestion form and "Notify me"'s subscribe.

/**
 * The functions anon may call that write: the visitors' suggestions (DESIGN.md, "Submissions") and
 * the request for email (DESIGN.md, "Alerts and Notify me").
 */
const anonWritersAllowed = ['public.submit_suggestion', 'public.subscribe']

// Schemas our migrations own. `auth` is Supabase's own (the embedded store's shim only stands in
// for it), and splinter leaves it out too.
const ourSchemas = `n.nspname not in ('pg_catalog', 'information_schema', 'auth') and n.nspname not like 'pg\\_%'`

let store: EmbeddedStore

beforeAll(async () => {
  store = await freshStore()
})

afterAll(async () => {
  await store?.close()
})

async function rows<T>(sql: string): Promise<T[]> {
  return (await store.db.query<T>(sql)).rows
}

describe('the Supabase advisors', () => {
  test('find functions to check, in public and in our own schemas', async () => {
    const functions = await rows<{ name: string }>(
      `select n.nspname || '.' || p.proname as name from pg_proc p
         join pg_namespace n on n.oid = p.pronamespace where ${ourSchemas}`,
    )
    expect(functions.map((f) => f.name)).toEqual(
      expect.arrayContaining(['public.set_updated_at', 'public.import_businesses', 'public.is_operator']),
    )
  })

  test('every function sets its search_path', async () => {
    const mutable = await rows<{ name: string }>(
      `select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as name
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where ${ourSchemas}
          and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search\\_path=%')
        order by 1`,
    )
    expect(mutable.map((f) => f.name)).toEqual([])
  })

  test('no table has two permissive policies for one role and action', async () => {
    // A policy "for all" counts for each action, and one "to public" for each role.
    const doubled = await rows<{ what: string }>(
      `with each as (
         select p.schemaname, p.tablename, p.policyname, role, action
           from pg_policies p,
                unnest(case when p.roles = '{public}' then array['anon', 'authenticated', 'service_role']::name[]
                            else p.roles end) as role,
                unnest(case when p.cmd = 'ALL' then array['SELECT', 'INSERT', 'UPDATE', 'DELETE']
                            else array[p.cmd] end) as action
          where p.permissive = 'PERMISSIVE')
       select format('%s.%s %s %s: %s', schemaname, tablename, role, action, string_agg(policyname, ', ' order by policyname)) as what
         from each group by schemaname, tablename, role, action having count(*) > 1 order by 1`,
    )
    expect(doubled.map((d) => d.what)).toEqual([])
  })

  test(`anon may call no function that can write, but ${anonWritersAllowed.join(' and ')}`, async () => {
    // A function that is not stable or immutable may write. Trigger functions cannot be called
    // directly, whoever holds EXECUTE on them.
    const writers = await rows<{ name: string }>(
      `select n.nspname || '.' || p.proname as name
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where ${ourSchemas} and p.provolatile = 'v' and p.prorettype <> 'trigger'::regtype
          and has_function_privilege('anon', p.oid, 'execute')
        order by 1`,
    )
    expect(writers.map((w) => w.name).filter((name) => !anonWritersAllowed.includes(name))).toEqual([])
  })
})
