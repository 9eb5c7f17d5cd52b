import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { auditEntries, createRow, editRow, undoChange } from '../src/content/edit.ts'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'
import { openSupabaseStore } from '../src/store/supabase.ts'
import type { Store } from '../src/store/types.ts'
import { sqlFunctions, startSupabaseStandIn, type SupabaseStandIn } from './support/supabase-stand-in.ts'

// The editing functions through the Supabase store: supabase-js calls /rest/v1/rpc/<name> with
// the secret key, and the stand-in answers each call by running the same SQL function in a real
// Postgres (the embedded one) as the service role, as PostgREST would. So the Supabase adapter
// stays thin: the rules and the audit are the SQL's, on both stores.

const publishableKey = 'sb_publishable_edit-test'
const secretKey = 'sb_secret_edit-test'
const automation = { email: 'automation', role: 'admin' } as const

let postgres: EmbeddedStore
let standIn: SupabaseStandIn
let store: Store

beforeAll(async () => {
  postgres = await freshStore()
  const functions = ['create_row', 'edit_row', 'delete_row', 'undo_change', 'audit_entries', 'content_row']
  standIn = await startSupabaseStandIn({
    publishableKey,
    secretKey,
    rpc: sqlFunctions(postgres, functions),
  })
  store = openSupabaseStore({ url: standIn.url, publicKey: publishableKey, secretKey })
})

afterAll(async () => {
  await store?.close()
  await standIn?.close()
  await postgres?.close()
})

describe('editing on the Supabase store', () => {
  test('creates, edits with the stale check, and undoes through rpc, audited under the operator', async () => {
    const created = await createRow(
      store,
      'businesses',
      { slug: 'roland-vet-clinic', name: 'Roland Vet Clinic' },
      automation,
    )
    expect(created.status).toBe('ok')
    if (created.status !== 'ok') return
    const saved = await editRow(
      store,
      'businesses',
      created.row.id,
      { is_featured: true },
      created.row.updated_at,
      automation,
    )
    expect(saved).toMatchObject({ status: 'ok', row: { is_featured: true } })
    const stale = await editRow(store, 'businesses', created.row.id, { phone: '1' }, created.row.updated_at, automation)
    expect(stale.status).toBe('conflict')

    const [latest] = await auditEntries(store, { table: 'businesses', rowId: created.row.id })
    expect(latest).toMatchObject({ actor: 'automation', action: 'update' })
    expect(await undoChange(store, latest!.id, { email: 'coordinator@roland.example', role: 'editor' })).toMatchObject({
      status: 'ok',
    })
    const [undo] = await auditEntries(store, { table: 'businesses', rowId: created.row.id })
    expect(undo).toMatchObject({ actor: 'coordinator@roland.example', after: { is_featured: false } })
    expect(
      standIn.requests.filter((r) => r.path.startsWith('/rest/v1/rpc/')).every((r) => r.headers.apikey === secretKey),
    ).toBe(true)
  })
})
