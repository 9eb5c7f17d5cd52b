import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openEmbeddedStore, type EmbeddedStore } from '../src/store/embedded.ts'

// Row-level security and grants, cell by cell: every table × select/insert/update/delete as
// anon, authenticated and service_role, against the real migrations in the embedded Postgres.

type Role = 'anon' | 'authenticated' | 'service_role'
type Operation = 'select' | 'insert' | 'update' | 'delete'

const activeId = '11111111-1111-4111-8111-111111111111'
const inactiveId = '22222222-2222-4222-8222-222222222222'

// For each table: an insert that satisfies every constraint, an update and a delete that
// target existing rows, and the rows a visitor may see out of everything there.
const tables: Record<string, { insert: string; update: string; delete: string; visible: number; total: number }> = {
  location_categories: {
    insert: `insert into location_categories (slug, name, category_type) values ('new-cat', 'New', 'business')`,
    update: `update location_categories set name = 'Changed' where slug = 'history'`,
    delete: `delete from location_categories where slug = 'history'`,
    visible: 11,
    total: 11,
  },
  businesses: {
    insert: `insert into businesses (slug, name) values ('new-business', 'New Business')`,
    update: `update businesses set name = 'Changed'`,
    delete: `delete from businesses`,
    visible: 1,
    total: 2,
  },
  business_services: {
    insert: `insert into business_services (business_id, service_name) values ('${activeId}', 'Delivery')`,
    update: `update business_services set service_name = 'Changed'`,
    delete: `delete from business_services`,
    visible: 1,
    total: 2,
  },
  business_images: {
    insert: `insert into business_images (business_id, image_url) values ('${activeId}', '/files/new.png')`,
    update: `update business_images set alt_text = 'Changed'`,
    delete: `delete from business_images`,
    visible: 1,
    total: 2,
  },
  business_hours: {
    insert: `insert into business_hours (business_id, day_of_week, is_closed) values ('${activeId}', 0, true)`,
    update: `update business_hours set opens_at = '08:00'`,
    delete: `delete from business_hours`,
    visible: 1,
    total: 2,
  },
  attractions: {
    insert: `insert into attractions (id, name, category, description) values ('new-place', 'New', 'Natural Attractions', 'x')`,
    update: `update attractions set badge = 'Changed'`,
    delete: `delete from attractions`,
    visible: 6,
    total: 6,
  },
  community_events: {
    insert: `insert into community_events (slug, title, starts_at, location, event_type) values ('new-event', 'New', now(), 'Here', 'Social')`,
    update: `update community_events set title = 'Changed'`,
    delete: `delete from community_events`,
    visible: 3,
    total: 3,
  },
  jobs: {
    insert: `insert into jobs (kind) values ('crawl')`,
    update: `update jobs set status = 'running'`,
    delete: `delete from jobs`,
    visible: 0,
    total: 1,
  },
}

let store: EmbeddedStore

beforeAll(async () => {
  store = await openEmbeddedStore()
  await store.db.exec(`
    insert into businesses (id, slug, name, is_active) values
      ('${activeId}', 'open-shop', 'Open Shop', true),
      ('${inactiveId}', 'closed-shop', 'Closed Shop', false);
    insert into business_services (business_id, service_name) values ('${activeId}', 'Coffee'), ('${inactiveId}', 'Tea');
    insert into business_images (business_id, image_url) values ('${activeId}', '/files/a.png'), ('${inactiveId}', '/files/b.png');
    insert into business_hours (business_id, day_of_week, opens_at, closes_at) values
      ('${activeId}', 1, '07:00', '17:00'), ('${inactiveId}', 1, '07:00', '17:00');
    insert into jobs (kind) values ('migrate');
  `)
})

afterAll(async () => {
  await store?.close()
})

/** Runs one statement as a role and rolls it back; says how many rows it saw or touched, or the error. */
async function attempt(role: Role, sql: string): Promise<{ rows: number } | { error: string }> {
  const rollback = new Error('rollback')
  let outcome: { rows: number } | { error: string } = { error: 'not run' }
  await store
    .asRole(role, async (tx) => {
      try {
        const result = await tx.query(sql)
        outcome = { rows: result.affectedRows || result.rows.length }
      } catch (error) {
        outcome = { error: (error as Error).message }
      }
      throw rollback
    })
    .catch((error) => {
      if (error !== rollback) throw error
    })
  return outcome
}

/** Whether the statement did what it asked: rows changed (writes) or rows seen (reads). */
const succeeded = (outcome: { rows: number } | { error: string }) => 'rows' in outcome && outcome.rows > 0

describe.each(Object.entries(tables))('row-level security on %s', (table, cases) => {
  test.each(['anon', 'authenticated'] as const)('%s reads only what a visitor may see', async (role) => {
    const outcome = await attempt(role, `select * from ${table}`)
    if (cases.visible === 0) {
      expect(outcome).toEqual({ error: expect.stringMatching(/permission denied/) })
    } else {
      expect(outcome).toEqual({ rows: cases.visible })
    }
  })

  test('service_role reads every row', async () => {
    expect(await attempt('service_role', `select * from ${table}`)).toEqual({ rows: cases.total })
  })

  test.each(
    (['anon', 'authenticated'] as const).flatMap((role) =>
      (['insert', 'update', 'delete'] as Operation[]).map((op) => [role, op] as const),
    ),
  )('%s cannot %s', async (role, op) => {
    const sql = cases[op as 'insert' | 'update' | 'delete']
    const outcome = await attempt(role, sql)
    expect(succeeded(outcome), JSON.stringify(outcome)).toBe(false)
    expect(outcome).toEqual({ error: expect.stringMatching(/permission denied|row-level security/) })
  })

  test.each(['insert', 'update', 'delete'] as const)('service_role can %s', async (op) => {
    const outcome = await attempt('service_role', cases[op])
    expect(succeeded(outcome), JSON.stringify(outcome)).toBe(true)
  })
})

describe('the public catalog', () => {
  test('never includes an inactive business or anything of it', async () => {
    const catalog = await store.loadCatalog()
    expect(catalog.businesses.map((b) => b.slug)).toEqual(['open-shop'])
    const [open] = catalog.businesses
    expect(open!.services.map((s) => s.service_name)).toEqual(['Coffee'])
    expect(open!.images.map((i) => [i.business_id, i.image_url])).toEqual([[activeId, '/files/a.png']])
    expect(open!.hours_detail).toHaveLength(1)
  })

  test('the import and status functions are not callable by visitors', async () => {
    for (const role of ['anon', 'authenticated'] as const) {
      expect(await attempt(role, `select import_businesses('[]'::jsonb)`)).toEqual({
        error: expect.stringMatching(/permission denied/),
      })
      expect(await attempt(role, `select migration_status()`)).toEqual({
        error: expect.stringMatching(/permission denied/),
      })
    }
  })
})

describe('the audit trail', () => {
  const writes = {
    insert: `insert into audit_log (actor, table_name, row_id, action, after) values ('me', 'businesses', 'x', 'insert', '{}')`,
    update: `update audit_log set actor = 'someone else'`,
    delete: `delete from audit_log`,
  }

  test.each(['anon', 'authenticated'] as const)('%s cannot read it', async (role) => {
    expect(await attempt(role, 'select * from audit_log')).toEqual({
      error: expect.stringMatching(/permission denied/),
    })
  })

  test('service_role reads the changes the setup made', async () => {
    expect(succeeded(await attempt('service_role', 'select * from audit_log'))).toBe(true)
  })

  test.each(
    (['anon', 'authenticated', 'service_role'] as const).flatMap((role) =>
      (['insert', 'update', 'delete'] as const).map((op) => [role, op] as const),
    ),
  )('%s cannot %s it: only the trigger writes the trail', async (role, op) => {
    const outcome = await attempt(role, writes[op])
    expect(outcome).toEqual({ error: expect.stringMatching(/permission denied|row-level security/) })
  })

  test('a visitor cannot call the editing functions', async () => {
    for (const role of ['anon', 'authenticated'] as const) {
      for (const call of [
        `select create_row('businesses', '{"slug": "x", "name": "X"}')`,
        `select edit_row('businesses', '${activeId}', '{"name": "X"}')`,
        `select delete_row('businesses', '${activeId}')`,
        `select undo_change(1)`,
        `select audit_entries()`,
        `select content_rows('businesses')`,
      ]) {
        expect(await attempt(role, call), call).toEqual({ error: expect.stringMatching(/permission denied/) })
      }
    }
  })
})
