import { describe, expect, test } from 'vitest'

// The row-level security probe: every table × select/insert/update/delete as anon, a stranger who
// signed up on their own (authenticated, but no operator), an editor, an admin and service_role,
// plus the operators, the audit trail, the submissions and the functions only operators may call.
// The claims are set the way PostgREST sets them from a JWT, so these are the policies Supabase
// runs. One probe, two databases: the embedded Postgres (scripts/test/rls.test.ts) and a real
// PostgreSQL server with Supabase's own roles and auth functions (real-postgres.test.ts).

/** A database the probe runs in, loaded with the migrations, the seed and probeSetupSql. */
export interface ProbeDatabase {
  /**
   * Runs one statement as a database role with request.jwt.claims (none when null), then rolls it
   * back: how many rows it saw or touched, or the error.
   */
  attempt(
    dbRole: string,
    claims: Record<string, string> | null,
    sql: string,
  ): Promise<{ rows: number } | { error: string }>
  /**
   * Runs statements in one transaction, as a database role with claims (as the owner when the
   * role is null), then rolls it back: the last statement's first row.
   */
  ask(
    dbRole: string | null,
    claims: Record<string, string> | null,
    sql: string[],
  ): Promise<Record<string, unknown> | undefined>
}

export type Role = 'anon' | 'stranger' | 'editor' | 'admin' | 'service_role'
type Operation = 'select' | 'insert' | 'update' | 'delete'

const adminId = '33333333-3333-4333-8333-333333333333'
const editorId = '44444444-4444-4444-8444-444444444444'
const disabledId = '55555555-5555-4555-8555-555555555555'
const strangerId = '66666666-6666-4666-8666-666666666666'
const authUserId = '77777777-7777-4777-8777-777777777777'
const linkedId = '88888888-8888-4888-8888-888888888888'

/** Each role's database role and request.jwt.claims. */
const claimsOf: Record<Role, { dbRole: string; claims: Record<string, string> | null }> = {
  anon: { dbRole: 'anon', claims: { role: 'anon' } },
  stranger: {
    dbRole: 'authenticated',
    claims: { sub: strangerId, email: 'stranger@example.org', role: 'authenticated' },
  },
  editor: {
    dbRole: 'authenticated',
    claims: { sub: editorId, email: 'editor@example.org', role: 'authenticated', app_role: 'editor' },
  },
  admin: {
    dbRole: 'authenticated',
    claims: { sub: adminId, email: 'admin@example.org', role: 'authenticated', app_role: 'admin' },
  },
  service_role: { dbRole: 'service_role', claims: null },
}

export const activeId = '11111111-1111-4111-8111-111111111111'
export const inactiveId = '22222222-2222-4222-8222-222222222222'

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
  pages: {
    insert: `insert into pages (path, title) values ('/new-page', 'New')`,
    update: `update pages set title = 'Changed' where path = '/about'`,
    delete: `delete from pages where path = '/nearby'`,
    // The seed's fifteen pages are published; the draft of the setup below is not.
    visible: 15,
    total: 16,
  },
  alerts: {
    insert: `insert into alerts (title, level, kind) values ('Road closed', 'notice', 'road')`,
    update: `update alerts set title = 'Changed'`,
    delete: `delete from alerts`,
    // The setup's published and ended alerts are on the site; its draft is not.
    visible: 2,
    total: 3,
  },
  listing_findings: {
    insert: `insert into listing_findings (business_id, kind, detail) values ('${activeId}', 'unverified', 'Never verified')`,
    update: `update listing_findings set detail = 'Changed'`,
    delete: `delete from listing_findings`,
    visible: 0,
    total: 1,
  },
  jobs: {
    insert: `insert into jobs (kind) values ('crawl')`,
    update: `update jobs set status = 'running'`,
    delete: `delete from jobs`,
    visible: 0,
    total: 1,
  },
}

/** The rows the probe expects, made by the database's owner. */
export const probeSetupSql = `
    insert into businesses (id, slug, name, is_active) values
      ('${activeId}', 'open-shop', 'Open Shop', true),
      ('${inactiveId}', 'closed-shop', 'Closed Shop', false);
    insert into business_services (business_id, service_name) values ('${activeId}', 'Coffee'), ('${inactiveId}', 'Tea');
    insert into business_images (business_id, image_url) values ('${activeId}', '/files/a.png'), ('${inactiveId}', '/files/b.png');
    insert into business_hours (business_id, day_of_week, opens_at, closes_at) values
      ('${activeId}', 1, '07:00', '17:00'), ('${inactiveId}', 1, '07:00', '17:00');
    insert into jobs (kind) values ('migrate');
    insert into pages (path, title, is_published) values ('/draft', 'Draft', false);
    insert into listing_findings (business_id, kind, detail) values ('${activeId}', 'no-photo', 'No photo');
    insert into alerts (title, level, kind, status) values ('Boil water', 'emergency', 'water', 'published'),
      ('Storm passed', 'advisory', 'weather', 'ended'), ('Not yet', 'notice', 'other', 'draft');
    insert into auth.users (id, email) values ('${authUserId}', 'linked@example.org');
    insert into operators (id, email, role, password_hash) values
      ('${adminId}', 'admin@example.org', 'admin', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA'),
      ('${editorId}', 'editor@example.org', 'editor', null);
    insert into operators (id, email, role, disabled) values ('${disabledId}', 'gone@example.org', 'admin', true);
    insert into operators (id, user_id, email, role) values ('${linkedId}', '${authUserId}', 'linked@example.org', 'editor');
    insert into operator_sessions (token_hash, operator_id, expires_at) values
      (repeat('a', 64), '${adminId}', now() + interval '1 hour');
    insert into submissions (kind, business_id, payload, contact_email) values
      ('business-update', '${activeId}', '{"business": "open-shop", "phone": "(501) 555-0123"}', 'ann@example.org');
    insert into subscribers (email, topics, status, confirmed_at) values ('resident@example.org', '{alerts}', 'confirmed', now());
    insert into outbox (subscriber_id, kind) select id, 'confirm' from subscribers;
  `

/** Declares the probe's tests against the database the getter answers once the tests run. */
export function defineRlsProbe(database: () => ProbeDatabase): void {
  /** Runs one statement as one of the probe's roles and rolls it back. */
  const attempt = (role: Role, sql: string) => database().attempt(claimsOf[role].dbRole, claimsOf[role].claims, sql)

  /** Whether the statement did what it asked: rows changed (writes) or rows seen (reads). */
  const succeeded = (outcome: { rows: number } | { error: string }) => 'rows' in outcome && outcome.rows > 0

  describe.each(Object.entries(tables))('row-level security on %s', (table, cases) => {
    test.each(['anon', 'stranger'] as const)('%s reads only what a visitor may see', async (role) => {
      const outcome = await attempt(role, `select * from ${table}`)
      if (cases.visible === 0) {
        // Refused outright (anon), or every row filtered out by the policies (a stranger).
        expect([{ rows: 0 }, { error: expect.stringMatching(/permission denied/) }]).toContainEqual(outcome)
      } else {
        expect(outcome).toEqual({ rows: cases.visible })
      }
    })

    test.each(['service_role', 'editor', 'admin'] as const)('%s reads every row', async (role) => {
      expect(await attempt(role, `select * from ${table}`)).toEqual({ rows: cases.total })
    })

    test.each(
      (['anon', 'stranger'] as const).flatMap((role) =>
        (['insert', 'update', 'delete'] as Operation[]).map((op) => [role, op] as const),
      ),
    )('%s cannot %s', async (role, op) => {
      const sql = cases[op as 'insert' | 'update' | 'delete']
      const outcome = await attempt(role, sql)
      expect(succeeded(outcome), JSON.stringify(outcome)).toBe(false)
      // Refused outright, or (a stranger's update or delete) the policies leave no row to touch.
      if ('error' in outcome) expect(outcome.error).toMatch(/permission denied|row-level security/)
      else expect(role === 'stranger' && op !== 'insert').toBe(true)
    })

    // Jobs and the check's findings are written by the service role (the jobs, the console's routes).
    const serviceOnly = table === 'jobs' || table === 'listing_findings'
    const writers: Role[] = serviceOnly ? ['service_role'] : ['service_role', 'editor', 'admin']
    test.each(writers.flatMap((role) => (['insert', 'update', 'delete'] as const).map((op) => [role, op] as const)))(
      '%s can %s',
      async (role, op) => {
        const outcome = await attempt(role, cases[op])
        expect(succeeded(outcome), JSON.stringify(outcome)).toBe(true)
      },
    )

    if (serviceOnly) {
      test.each(
        (['editor', 'admin'] as const).flatMap((role) =>
          (['insert', 'update', 'delete'] as const).map((op) => [role, op]),
        ),
      )('%s cannot %s: only the service role writes', async (role, op) => {
        expect(succeeded(await attempt(role as Role, cases[op as 'insert']))).toBe(false)
      })
    }
  })

  describe('row-level security on the alerts’ messages', () => {
    // The setup's published alert has one message (Alert) and its ended one one (Alert, all clear);
    // a draft has none until it is published.
    test.each(['anon', 'stranger', 'editor', 'admin', 'service_role'] as const)(
      '%s reads the messages of the published and ended alerts',
      async (role) => {
        expect(await attempt(role, 'select * from alert_messages')).toEqual({ rows: 2 })
      },
    )

    test.each(['anon', 'stranger', 'editor', 'admin'] as const)(
      '%s cannot write the history, which only the database’s trigger keeps',
      async (role) => {
        for (const sql of [
          `insert into alert_messages (alert_id, sequence, msg_type) select id, 9, 'Update' from alerts`,
          `update alert_messages set note = 'Changed'`,
          'delete from alert_messages',
        ]) {
          const outcome = await attempt(role, sql)
          expect(succeeded(outcome), `${role}: ${sql}: ${JSON.stringify(outcome)}`).toBe(false)
        }
      },
    )

    test('an anonymous visitor never reads a draft alert, nor a message of one', async () => {
      expect(await attempt('anon', `select * from alerts where status = 'draft'`)).toEqual({ rows: 0 })
      const published = await database().ask(null, null, [
        `update alerts set status = 'draft' where title = 'Boil water'`,
        `set local role anon`,
        `select count(*)::int as messages from alert_messages`,
      ])
      expect(published).toEqual({ messages: 1 })
    })
  })

  describe('row-level security on the town settings', () => {
    const change = `update town_settings set tagline = 'Changed'`
    const add = `insert into town_settings (id, name, state, state_code, zip, county, tagline, time_zone, latitude,
      longitude, coordinator_name, coordinator_email) values (1, 'X', 'X', 'X', '00000', 'X', 'X', 'UTC', 0, 0, 'X', 'x@example.org')`
    const remove = 'delete from town_settings'

    test.each(['anon', 'stranger', 'editor', 'admin', 'service_role'] as const)(
      '%s reads the one row',
      async (role) => {
        expect(await attempt(role, 'select * from town_settings')).toEqual({ rows: 1 })
      },
    )

    test.each(['anon', 'stranger', 'editor'] as const)('%s cannot change, add or remove it', async (role) => {
      for (const sql of [change, add, remove]) {
        const outcome = await attempt(role, sql)
        expect(succeeded(outcome), `${role}: ${sql}: ${JSON.stringify(outcome)}`).toBe(false)
      }
    })

    test('an admin changes it, but neither adds a second row nor removes it', async () => {
      expect(succeeded(await attempt('admin', change))).toBe(true)
      expect(succeeded(await attempt('admin', add))).toBe(false)
      expect(succeeded(await attempt('admin', remove))).toBe(false)
    })

    test('the service role (the seed, `roland town init`) writes it; there is never a second row', async () => {
      expect(succeeded(await attempt('service_role', change))).toBe(true)
      expect(succeeded(await attempt('service_role', remove))).toBe(true)
      expect(await attempt('service_role', add.replace('values (1,', 'values (2,'))).toEqual({
        error: expect.stringMatching(/town_settings_id_check/),
      })
    })
  })

  describe('row-level security on operators and their sessions', () => {
    const addOperator = `insert into operators (email, role) values ('new@example.org', 'editor')`
    const promote = `update operators set role = 'admin' where id = '${editorId}'`
    const removeEditor = `delete from operators where id = '${editorId}'`

    test.each(['anon', 'stranger'] as const)('%s sees no operator and no session', async (role) => {
      for (const table of ['operators', 'operator_sessions']) {
        const outcome = await attempt(role, `select * from ${table}`)
        expect(succeeded(outcome), `${table}: ${JSON.stringify(outcome)}`).toBe(false)
      }
      expect(succeeded(await attempt(role, 'select id, email from operators'))).toBe(false)
    })

    test.each(['anon', 'stranger', 'editor'] as const)('%s cannot add, change or remove an operator', async (role) => {
      for (const sql of [addOperator, promote, removeEditor, `update operators set password_hash = null`]) {
        expect(succeeded(await attempt(role, sql)), `${role}: ${sql}`).toBe(false)
      }
    })

    test('an editor sees who the operators are, but never a password hash or a session', async () => {
      expect(await attempt('editor', 'select id, email, role from operators')).toEqual({ rows: 4 })
      expect(await attempt('editor', 'select password_hash from operators')).toEqual({
        error: expect.stringMatching(/permission denied/),
      })
      expect(await attempt('editor', 'select * from operator_sessions')).toEqual({
        error: expect.stringMatching(/permission denied/),
      })
    })

    test('an admin adds, changes and removes operators, but reads no password hash or session either', async () => {
      for (const sql of [addOperator, promote, removeEditor]) {
        expect(succeeded(await attempt('admin', sql)), sql).toBe(true)
      }
      expect(await attempt('admin', 'select password_hash from operators')).toEqual({
        error: expect.stringMatching(/permission denied/),
      })
      expect(await attempt('admin', 'select * from operator_sessions')).toEqual({
        error: expect.stringMatching(/permission denied/),
      })
    })

    test.each(['anon', 'stranger', 'editor', 'admin'] as const)(
      '%s neither reads nor changes the failed sign-ins, which only the sign-in itself counts',
      async (role) => {
        for (const sql of [
          'select * from sign_in_failures',
          `insert into sign_in_failures (email) values ('someone@example.org')`,
          'delete from sign_in_failures',
        ]) {
          expect(await attempt(role, sql), `${role}: ${sql}`).toEqual({
            error: expect.stringMatching(/permission denied/),
          })
        }
      },
    )

    test('a disabled operator is nobody: is_operator() and is_admin() are false for them', async () => {
      const claims = { sub: disabledId, email: 'gone@example.org', role: 'authenticated' }
      const result = await database().ask('authenticated', claims, [
        'select is_operator() as operator, is_admin() as admin',
      ])
      expect(result).toEqual({ operator: false, admin: false })
    })

    test('a Supabase Auth user linked by user_id is an operator; the claims’ app_role grants nothing by itself', async () => {
      const ask = (claims: Record<string, string>) =>
        database().ask('authenticated', claims, ['select is_operator() as operator, is_admin() as admin'])
      expect(await ask({ sub: authUserId, role: 'authenticated' })).toEqual({ operator: true, admin: false })
      expect(
        await ask({ sub: strangerId, role: 'authenticated', app_role: 'admin', email: 'admin@example.org' }),
      ).toEqual({ operator: false, admin: false })
    })

    test('the last admin who can sign in cannot be removed or demoted', async () => {
      expect(await attempt('service_role', `delete from operators where id = '${adminId}'`)).toEqual({
        error: expect.stringMatching(/last admin/),
      })
      expect(await attempt('admin', `update operators set role = 'editor' where id = '${adminId}'`)).toEqual({
        error: expect.stringMatching(/last admin/),
      })
    })

    test('a new password ends the operator’s sessions', async () => {
      const { count: sessions } = (await database().ask(null, null, [
        `update operators set password_hash = null where id = '${adminId}'`,
        `select count(*)::int as count from operator_sessions where operator_id = '${adminId}'`,
      ]))!
      expect(sessions).toBe(0)
    })
  })

  describe('the import and status functions', () => {
    test('the import and status functions are not callable by visitors or strangers', async () => {
      for (const role of ['anon', 'stranger'] as const) {
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

    test.each(['anon', 'stranger', 'editor'] as const)('%s cannot read it', async (role) => {
      expect(await attempt(role, 'select * from audit_log')).toEqual({
        error: expect.stringMatching(/permission denied/),
      })
    })

    test('service_role reads the changes the setup made', async () => {
      expect(succeeded(await attempt('service_role', 'select * from audit_log'))).toBe(true)
    })

    test.each(
      (['anon', 'stranger', 'editor', 'admin', 'service_role'] as const).flatMap((role) =>
        (['insert', 'update', 'delete'] as const).map((op) => [role, op] as const),
      ),
    )('%s cannot %s it: only the trigger writes the trail', async (role, op) => {
      const outcome = await attempt(role, writes[op])
      expect(outcome).toEqual({ error: expect.stringMatching(/permission denied|row-level security/) })
    })

    test('a visitor cannot call the editing functions', async () => {
      for (const role of ['anon', 'stranger', 'editor'] as const) {
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

  describe('row-level security on submissions', () => {
    const cases = {
      select: 'select * from submissions',
      insert: `insert into submissions (kind, payload) values ('event', '{"title": "Sneaked in"}')`,
      update: `update submissions set status = 'accepted', decided_at = now(), decided_by = 'me'`,
      delete: 'delete from submissions',
    }

    test.each(
      (['anon', 'stranger'] as const).flatMap((role) =>
        (['select', 'insert', 'update', 'delete'] as const).map((op) => [role, op] as const),
      ),
    )('%s cannot %s one: visitors send suggestions only through submit_suggestion', async (role, op) => {
      const outcome = await attempt(role, cases[op])
      expect(succeeded(outcome), JSON.stringify(outcome)).toBe(false)
      if ('error' in outcome) expect(outcome.error).toMatch(/permission denied|row-level security/)
    })

    test.each(['editor', 'admin'] as const)(
      '%s reads them and decides them, but neither adds nor deletes one',
      async (role) => {
        expect(await attempt(role, cases.select)).toEqual({ rows: 1 })
        expect(succeeded(await attempt(role, cases.update))).toBe(true)
        expect(succeeded(await attempt(role, cases.insert))).toBe(false)
        expect(succeeded(await attempt(role, cases.delete))).toBe(false)
      },
    )

    test('an editor cannot rewrite what a visitor sent', async () => {
      expect(await attempt('editor', `update submissions set payload = '{}'`)).toEqual({
        error: expect.stringMatching(/permission denied/),
      })
    })

    test.each(['anon', 'stranger'] as const)(
      '%s may call submit_suggestion and nothing else that writes them',
      async (role) => {
        const submit = `select submit_suggestion('event', '{"title": "Fish fry", "starts_at": "2027-06-01T18:00:00-05:00", "location": "Park", "event_type": "Social"}')`
        expect(succeeded(await attempt(role, submit))).toBe(true)
        for (const call of [
          `select accept_submission(gen_random_uuid(), '{}')`,
          `select decide_submission(gen_random_uuid(), 'spam')`,
          'select submission_entries()',
        ]) {
          expect(await attempt(role, call), call).toEqual({ error: expect.stringMatching(/permission denied/) })
        }
      },
    )
  })
  describe('row-level security on subscribers and the outbox (Notify me)', () => {
    const writes = [
      `insert into subscribers (email) values ('sneaky@example.org')`,
      `update subscribers set status = 'confirmed', confirmed_at = now()`,
      `delete from subscribers`,
      `insert into outbox (kind) values ('confirm')`,
      `update outbox set status = 'sent', sent_at = now()`,
      `delete from outbox`,
    ]

    test.each(['anon', 'stranger', 'editor'] as const)(
      '%s reads no address and no message, and writes none',
      async (role) => {
        for (const table of ['subscribers', 'outbox', 'subscription_attempts']) {
          const outcome = await attempt(role, `select * from ${table}`)
          expect(succeeded(outcome), `${role}: ${table}: ${JSON.stringify(outcome)}`).toBe(false)
        }
        for (const sql of writes) expect(succeeded(await attempt(role, sql)), `${role}: ${sql}`).toBe(false)
      },
    )

    test('an admin reads the addresses and the outbox, and deletes an address on request, but writes nothing else', async () => {
      expect(await attempt('admin', 'select email from subscribers')).toEqual({ rows: 1 })
      expect(await attempt('admin', 'select * from outbox')).toEqual({ rows: 1 })
      expect(succeeded(await attempt('admin', 'delete from subscribers'))).toBe(true)
      for (const sql of [writes[0]!, writes[1]!, writes[3]!, writes[4]!]) {
        expect(succeeded(await attempt('admin', sql)), sql).toBe(false)
      }
    })

    test('the service role (the sender) reads and writes them', async () => {
      expect(await attempt('service_role', 'select email from subscribers')).toEqual({ rows: 1 })
      for (const sql of writes) expect(succeeded(await attempt('service_role', sql)), sql).toBe(true)
    })
  })
}
