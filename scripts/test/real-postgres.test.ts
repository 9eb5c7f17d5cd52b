import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readMigrations } from '../src/store/sql-files.ts'
import { loadSupabaseSchema, startRealPostgres, type RealPostgres } from './support/real-postgres.ts'
import { activeId, defineRlsProbe, probeSetupSql, type ProbeDatabase } from './support/rls-probe.ts'

// The Supabase SQL on a real PostgreSQL server (issue 43). Every other test runs the migrations on
// PGlite: Postgres 17 in WebAssembly, one connection. Supabase runs them on a server with many
// connections, with its own roles and auth functions. Here a throwaway cluster of Debian's
// PostgreSQL (support/real-postgres.ts) gets Supabase's roles, grants and auth.uid(), auth.role()
// and auth.jwt() (support/supabase-bootstrap.sql), then every migration and the seed as postgres;
// then the row-level security probe, a visitor's suggestion, an audited edit and its undo, and
// what one connection cannot show: a flood of suggestions at once, and two editors saving at once.

let server: RealPostgres
let applied: string[]
let owner: pg.Pool
let api: pg.Pool

beforeAll(async () => {
  server = await startRealPostgres()
  applied = await loadSupabaseSchema(server)
  owner = server.pool('postgres', 5)
  // As PostgREST connects: the authenticator's role is set per request.
  api = server.pool('postgres', 30)
  await owner.query(probeSetupSql)
}, 240_000)

afterAll(async () => {
  await server?.stop()
})

/** A connection in a transaction as a role, with the claims and request headers PostgREST would set. */
async function begin(
  role: string | null,
  claims: Record<string, string> | null,
  headers?: Record<string, string>,
): Promise<pg.PoolClient> {
  const client = await api.connect()
  try {
    await client.query('begin')
    if (role) await client.query(`set local role ${role}`)
    if (claims) await client.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)])
    if (headers) await client.query(`select set_config('request.headers', $1, true)`, [JSON.stringify(headers)])
    return client
  } catch (error) {
    client.release(true)
    throw error
  }
}

/** Rolls a connection's transaction back and returns it to the pool. */
async function rollBack(client: pg.PoolClient): Promise<void> {
  try {
    await client.query('rollback')
    client.release()
  } catch (error) {
    client.release(true)
    throw error
  }
}

const realServer: ProbeDatabase = {
  async attempt(dbRole, claims, sql) {
    const client = await begin(dbRole, claims)
    try {
      const result = await client.query(sql)
      return { rows: result.rowCount ?? result.rows.length }
    } catch (error) {
      return { error: (error as Error).message }
    } finally {
      await rollBack(client)
    }
  },
  async ask(dbRole, claims, statements) {
    const client = await begin(dbRole, claims)
    try {
      let row: Record<string, unknown> | undefined
      for (const sql of statements) row = (await client.query<Record<string, unknown>>(sql)).rows[0]
      return row
    } finally {
      await rollBack(client)
    }
  },
}

describe('the migrations on a real PostgreSQL server', () => {
  test('every migration of supabase/migrations and the seed apply, as postgres with Supabase’s roles', async () => {
    const migrations = (await readMigrations()).map((migration) => migration.name)
    expect(migrations.length).toBeGreaterThan(0)
    expect(applied).toEqual([...migrations, 'seed.sql'])
    expect(server.version).toBeGreaterThanOrEqual(15)
    const { rows } = await owner.query<{ superuser: boolean }>(
      `select rolsuper as superuser from pg_roles where rolname = current_user`,
    )
    expect(rows).toEqual([{ superuser: false }])
  })

  test('the auth functions are Supabase’s: they read request.jwt.claims, and are null without them', async () => {
    const claims = { sub: '66666666-6666-4666-8666-666666666666', role: 'authenticated', email: 'x@example.org' }
    expect(
      await realServer.ask('authenticated', claims, [
        'select auth.uid()::text as uid, auth.role() as role, auth.jwt() ->> $$email$$ as email',
      ]),
    ).toEqual({ uid: claims.sub, role: 'authenticated', email: 'x@example.org' })
    expect(
      await realServer.ask('anon', null, ['select auth.uid() as uid, auth.role() as role, auth.jwt() as jwt']),
    ).toEqual({
      uid: null,
      role: null,
      jwt: null,
    })
  })

  // Supabase grants every new function in public to anon; a migration takes back what visitors may
  // not call. Trigger functions are left out: they run only as triggers.
  test('visitors may call submit_suggestion, subscribe and the helpers the policies use, and no other function', async () => {
    const { rows } = await owner.query<{ name: string }>(
      `select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.prorettype <> 'trigger'::regtype
          and has_function_privilege('anon', p.oid, 'execute')
        order by 1`,
    )
    expect(
      rows.map((row) => row.name),
      'a function anon may call: revoke it from public, anon, authenticated in its migration, or list it here if visitors need it',
    ).toEqual(['audit_actor', 'is_admin', 'is_operator', 'submit_suggestion', 'subscribe', 'website_hidden'])
  })
})

defineRlsProbe(() => realServer)

/** Calls submit_suggestion as anon from a sender's address, as PostgREST does; commits it. */
async function submitAsAnon(
  ip: string,
  kind: string,
  payload: unknown,
): Promise<{ id: string } | { code: string; message: string }> {
  const client = await begin('anon', { role: 'anon' }, { 'x-forwarded-for': `${ip}, 10.0.0.1` })
  try {
    const { rows } = await client.query<{ id: string }>('select public.submit_suggestion($1, $2) as id', [
      kind,
      JSON.stringify(payload),
    ])
    await client.query('commit')
    client.release()
    return { id: rows[0]!.id }
  } catch (error) {
    await rollBack(client)
    return { code: (error as { code: string }).code, message: (error as Error).message }
  }
}

const fishFry = { title: 'Fish fry', starts_at: '2027-06-01T18:00:00-05:00', location: 'Park', event_type: 'Social' }

describe('a visitor’s suggestion on the real server', () => {
  test('submit_suggestion as anon stores it, the sender known only by a salted hash of the address in request.headers', async () => {
    const outcome = await submitAsAnon('198.51.100.23', 'event', fishFry)
    expect(outcome).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) })
    const { rows } = await owner.query<{ payload: unknown; status: string; from_sender: boolean }>(
      `select s.payload, s.status,
              s.sender_hash = encode(sha256(convert_to(x.salt || '|' || '198.51.100.23', 'UTF8')), 'hex') as from_sender
         from submissions s, submission_secrets x where s.id = $1`,
      [(outcome as { id: string }).id],
    )
    expect(rows).toEqual([{ payload: fishFry, status: 'pending', from_sender: true }])
  })

  test('bad characters are refused with PT400 naming the field, and a NUL by Postgres itself (22P05)', async () => {
    expect(await submitAsAnon('198.51.100.24', 'event', { ...fishFry, location: 'Pa\u0007rk' })).toEqual({
      code: 'PT400',
      message: expect.stringMatching(/^location contains an invisible control character \(U\+0007\)/),
    })
    expect(await submitAsAnon('198.51.100.24', 'new-business', { name: '\u202Eknab' })).toEqual({
      code: 'PT400',
      message: expect.stringMatching(/^name contains a bidirectional control character \(U\+202E\)/),
    })
    expect(await submitAsAnon('198.51.100.24', 'new-business', { name: 'Null\u0000' })).toMatchObject({ code: '22P05' })
  })

  test('20 suggestions at once from one sender, on 20 connections: exactly 5 are stored, 15 refused with PT429', async () => {
    const ip = '203.0.113.77'
    // Every connection ready in its transaction first, so the 20 calls reach the server together.
    const clients = await Promise.all(
      Array.from({ length: 20 }, () => begin('anon', { role: 'anon' }, { 'x-forwarded-for': ip })),
    )
    const outcomes = await Promise.all(
      clients.map(async (client, n) => {
        try {
          const { rows } = await client.query<{ id: string }>('select public.submit_suggestion($1, $2) as id', [
            'event',
            JSON.stringify({ ...fishFry, title: `Fish fry ${n}` }),
          ])
          await client.query('commit')
          client.release()
          return { id: rows[0]!.id }
        } catch (error) {
          await rollBack(client)
          return { code: (error as { code: string }).code }
        }
      }),
    )
    expect(outcomes.filter((outcome) => 'id' in outcome)).toHaveLength(5)
    expect(outcomes.filter((outcome) => 'code' in outcome)).toEqual(
      Array.from({ length: 15 }, () => ({ code: 'PT429' })),
    )
    const { rows } = await owner.query<{ stored: number }>(
      `select count(*)::int as stored from submissions s, submission_secrets x
        where s.sender_hash = encode(sha256(convert_to(x.salt || '|' || $1, 'UTF8')), 'hex')`,
      [ip],
    )
    expect(rows).toEqual([{ stored: 5 }])
  })
})

/** The business's updated_at, as text so that no microsecond is lost on the way. */
async function versionOf(id: string): Promise<string> {
  const { rows } = await owner.query<{ updated_at: string }>(`select updated_at::text from businesses where id = $1`, [
    id,
  ])
  return rows[0]!.updated_at
}

const editor = (email: string) => JSON.stringify({ email, role: 'editor' })

describe('editing on the real server', () => {
  test('an audited edit names the operator, and its undo writes the old value back as a new change', async () => {
    const version = await versionOf(activeId)
    const client = await begin('service_role', null)
    let outcome: unknown
    try {
      const { rows } = await client.query<{ outcome: unknown }>(
        `select public.edit_row('businesses', $1, $2, $3, $4) as outcome`,
        [activeId, JSON.stringify({ name: 'Open Shop & Café' }), version, editor('ann@example.org')],
      )
      outcome = rows[0]?.outcome
      await client.query('commit')
    } finally {
      client.release()
    }
    expect(outcome).toMatchObject({ status: 'ok', row: { name: 'Open Shop & Café' } })
    const { rows: entries } = await owner.query<{ id: string; actor: string; before: string; after: string }>(
      `select id, actor, before ->> 'name' as before, after ->> 'name' as after
         from audit_log where table_name = 'businesses' and row_id = $1 order by id desc limit 1`,
      [activeId],
    )
    expect(entries).toEqual([
      { id: expect.any(String), actor: 'ann@example.org', before: 'Open Shop', after: 'Open Shop & Café' },
    ])

    const undoing = await begin('service_role', null)
    try {
      const { rows } = await undoing.query(`select public.undo_change($1, $2) as outcome`, [
        entries[0]!.id,
        editor('bob@example.org'),
      ])
      expect(rows).toEqual([{ outcome: { status: 'ok', undone: 1 } }])
      await undoing.query('commit')
    } finally {
      undoing.release()
    }
    const { rows: after } = await owner.query(
      `select b.name, (select jsonb_build_object('actor', a.actor, 'name', a.after ->> 'name') from audit_log a
                        where a.table_name = 'businesses' and a.row_id = $1::text order by a.id desc limit 1) as latest
         from businesses b where b.id = $1::uuid`,
      [activeId],
    )
    expect(after).toEqual([{ name: 'Open Shop', latest: { actor: 'bob@example.org', name: 'Open Shop' } }])
  })

  test('two editors saving the same listing at once: the first is saved, the second is a conflict (the console’s 409)', async () => {
    const loaded = await versionOf(activeId)
    const save = (client: pg.PoolClient, phone: string, email: string) =>
      client.query<{ outcome: { status: string; row: { phone: string } } }>(
        `select public.edit_row('businesses', $1, $2, $3, $4) as outcome`,
        [activeId, JSON.stringify({ phone }), loaded, editor(email)],
      )
    const first = await begin('service_role', null)
    const second = await begin('service_role', null)
    try {
      const { rows: backend } = await second.query<{ pid: number }>('select pg_backend_pid() as pid')
      const pid = backend[0]!.pid
      // The first save holds the row; the second, from the same loaded copy, waits for it.
      const firstSaved = await save(first, '(501) 555-0111', 'ann@example.org')
      const secondSaving = save(second, '(501) 555-0122', 'bob@example.org')
      for (let waiting = false; !waiting;) {
        const { rows } = await owner.query<{ waiting: boolean }>(
          `select coalesce(bool_or(wait_event_type = 'Lock'), false) as waiting from pg_stat_activity where pid = $1`,
          [pid],
        )
        waiting = rows[0]!.waiting
        if (!waiting) await new Promise((resolve) => setTimeout(resolve, 20))
      }
      await first.query('commit')
      const secondSaved = await secondSaving
      await second.query('commit')
      expect(firstSaved.rows[0]!.outcome).toMatchObject({ status: 'ok', row: { phone: '(501) 555-0111' } })
      expect(secondSaved.rows[0]!.outcome).toMatchObject({ status: 'conflict', row: { phone: '(501) 555-0111' } })
    } finally {
      first.release()
      second.release()
    }
    const { rows } = await owner.query(
      `select actor, after ->> 'phone' as phone from audit_log
        where table_name = 'businesses' and row_id = $1 and before ->> 'phone' is distinct from after ->> 'phone'
        order by id`,
      [activeId],
    )
    expect(rows).toEqual([{ actor: 'ann@example.org', phone: '(501) 555-0111' }])
  })
})
