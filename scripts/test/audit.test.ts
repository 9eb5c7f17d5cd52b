import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'

// The audit trigger and the editing functions of supabase/migrations, in the embedded Postgres.

let store: EmbeddedStore
let businessId: string

const automation = { email: 'automation', role: 'admin' }

interface Entry {
  id: number
  actor: string
  table: string
  row_id: string
  action: 'insert' | 'update' | 'delete'
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}

interface Outcome {
  status: 'ok' | 'not_found' | 'conflict' | 'invalid'
  row?: Record<string, unknown> & { id: string; updated_at: string }
  message?: string
  constraint?: string | null
}

const entries = (args: { target?: string; row_id?: string } = {}) =>
  store.call<Entry[]>('audit_entries', { target: args.target ?? null, row_id: args.row_id ?? null })

beforeAll(async () => {
  store = await freshStore()
  const created = await store.call<Outcome>('create_row', {
    target: 'businesses',
    fields: { slug: 'roland-vet-clinic', name: 'Roland Vet Clinic', services: [{ service_name: 'Vaccinations' }] },
    actor: automation,
  })
  businessId = created.row!.id
})

afterAll(async () => {
  await store?.close()
})

describe('the audit trigger', () => {
  test('records an insert with the acting operator and the row after', async () => {
    const [entry] = await entries({ target: 'businesses', row_id: businessId })
    expect(entry).toMatchObject({ actor: 'automation', action: 'insert', before: null })
    expect(entry!.after).toMatchObject({ name: 'Roland Vet Clinic', slug: 'roland-vet-clinic' })
  })

  test('records the services saved with a business in the same transaction', async () => {
    const services = await entries({ target: 'business_services' })
    expect(services[0]).toMatchObject({ actor: 'automation', action: 'insert' })
    expect(services[0]!.after).toMatchObject({ service_name: 'Vaccinations', business_id: businessId })
  })

  test('records an edit made by hand in SQL, naming the database user', async () => {
    await store.db.query(`update businesses set phone = '(501) 555-0101' where id = $1`, [businessId])
    const [entry] = await entries({ target: 'businesses', row_id: businessId })
    expect(entry).toMatchObject({ actor: 'sql:postgres', action: 'update' })
    expect(entry!.before).toMatchObject({ phone: null })
    expect(entry!.after).toMatchObject({ phone: '(501) 555-0101' })
  })

  test('records a delete with the row before', async () => {
    const { rows } = await store.db.query<{ id: string }>(
      `insert into attractions (id, name, category, description) values ('old-mill', 'Old Mill', 'Natural Attractions', 'A mill.') returning id`,
    )
    await store.db.query(`delete from attractions where id = $1`, [rows[0]!.id])
    const [entry] = await entries({ target: 'attractions', row_id: 'old-mill' })
    expect(entry).toMatchObject({ action: 'delete', after: null })
    expect(entry!.before).toMatchObject({ name: 'Old Mill' })
  })

  test('does not record a save that changed nothing', async () => {
    const before = (await entries()).length
    await store.db.query(`update businesses set phone = phone where id = $1`, [businessId])
    expect((await entries()).length).toBe(before)
  })

  test('keeps the trail from visitors: the anon role may not read it', async () => {
    await expect(store.asRole('anon', (tx) => tx.query('select * from audit_log'))).rejects.toThrow(/permission denied/)
  })

  test('an actor named by a caller other than the service role is ignored', async () => {
    await store.db.query(
      `select public.edit_row('businesses', $1, '{"address": "1 Main St"}', null, '{"email":"mallory"}')`,
      [businessId],
    )
    const [entry] = await entries({ target: 'businesses', row_id: businessId })
    expect(entry!.actor).toBe('sql:postgres')
  })
})

describe('edit_row', () => {
  const current = async () =>
    (await store.call<Outcome['row']>('content_row', { target: 'businesses', row_id: businessId }))!

  test('changes the given fields and nothing else', async () => {
    const before = await current()
    const outcome = await store.call<Outcome>('edit_row', {
      target: 'businesses',
      row_id: businessId,
      fields: { is_featured: true },
      expected_updated_at: before.updated_at,
      actor: automation,
    })
    expect(outcome.status).toBe('ok')
    expect(outcome.row).toMatchObject({ is_featured: true, address: before.address, name: before.name })
  })

  test('refuses a save from a stale copy, changing nothing', async () => {
    const stale = (await current()).updated_at
    await store.call('edit_row', {
      target: 'businesses',
      row_id: businessId,
      fields: { phone: '1' },
      actor: automation,
    })
    const outcome = await store.call<Outcome>('edit_row', {
      target: 'businesses',
      row_id: businessId,
      fields: { phone: '2' },
      expected_updated_at: stale,
      actor: automation,
    })
    expect(outcome.status).toBe('conflict')
    expect((await current()).phone).toBe('1')
  })

  test('answers not_found for an unknown id', async () => {
    const outcome = await store.call<Outcome>('edit_row', {
      target: 'businesses',
      row_id: '00000000-0000-4000-8000-000000000000',
      fields: { phone: '2' },
    })
    expect(outcome.status).toBe('not_found')
  })

  test('answers invalid, naming the rule, and saves none of the other fields', async () => {
    const before = await current()
    const outcome = await store.call<Outcome>('edit_row', {
      target: 'businesses',
      row_id: businessId,
      fields: { phone: '3', website: 'javascript:alert(1)', services: [] },
    })
    expect(outcome).toMatchObject({ status: 'invalid', constraint: 'businesses_website_check' })
    const after = await current()
    expect(after.phone).toBe(before.phone)
    expect(after.services).toEqual(before.services)
  })
})

describe('undo_change', () => {
  test('undoes a whole save by writing a new change, recorded like any other', async () => {
    const before = await store.call<Outcome['row']>('content_row', { target: 'businesses', row_id: businessId })
    await store.call('edit_row', {
      target: 'businesses',
      row_id: businessId,
      fields: { name: 'Roland Animal Hospital', services: [{ service_name: 'Surgery' }, { service_name: 'Boarding' }] },
      actor: automation,
    })
    const [save] = await entries({ target: 'businesses', row_id: businessId })
    const outcome = await store.call<{ status: string; undone: number }>('undo_change', {
      entry_id: save!.id,
      actor: { email: 'coordinator@roland.example', role: 'editor' },
    })
    expect(outcome.status).toBe('ok')
    const after = await store.call<Outcome['row']>('content_row', { target: 'businesses', row_id: businessId })
    expect(after).toMatchObject({ name: before!.name, services: before!.services })
    const [undo] = await entries({ target: 'businesses', row_id: businessId })
    expect(undo).toMatchObject({ actor: 'coordinator@roland.example', action: 'update' })
    expect(undo!.after).toMatchObject({ name: before!.name })
  })

  test('brings a deleted business back with its services', async () => {
    await store.call('delete_row', { target: 'businesses', row_id: businessId, actor: automation })
    const [deletion] = await entries({ target: 'businesses', row_id: businessId })
    expect(deletion!.action).toBe('delete')
    expect((await store.call<{ status: string }>('undo_change', { entry_id: deletion!.id })).status).toBe('ok')
    const back = await store.call<Outcome['row']>('content_row', { target: 'businesses', row_id: businessId })
    expect(back).toMatchObject({ id: businessId, services: [{ service_name: 'Vaccinations', description: null }] })
  })

  test('refuses to undo a change that a later one built on, changing nothing', async () => {
    await store.call('edit_row', { target: 'businesses', row_id: businessId, fields: { phone: 'A' } })
    const [first] = await entries({ target: 'businesses', row_id: businessId })
    await store.call('edit_row', { target: 'businesses', row_id: businessId, fields: { phone: 'B' } })
    const outcome = await store.call<{ status: string; message: string }>('undo_change', { entry_id: first!.id })
    expect(outcome).toMatchObject({ status: 'conflict', message: expect.stringMatching(/changed since/) })
    const row = await store.call<Outcome['row']>('content_row', { target: 'businesses', row_id: businessId })
    expect(row!.phone).toBe('B')
  })
})
