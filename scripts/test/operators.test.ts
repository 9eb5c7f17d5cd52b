import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { withActor } from '../src/operators/acting.ts'
import {
  addOperator,
  asOperator,
  asServiceRole,
  checkPassword,
  createSession,
  deleteSession,
  listOperators,
  OperatorError,
  sessionOperator,
} from '../src/operators/accounts.ts'
import { automationActor } from '../src/operators/schema.ts'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'

// Operator accounts on the real migrations in an in-memory embedded Postgres: how passwords are
// kept, how sign-ins are counted, how sessions end, and the claims each actor writes with.

const password = 'a long enough password'
const limits = { freeAttempts: 2, baseLockoutMs: 1000, maxLockoutMs: 4000 }
let store: EmbeddedStore

beforeAll(async () => {
  store = await freshStore()
  await addOperator(asServiceRole(store.db), { email: 'Admin@Example.org', role: 'admin', password })
  await addOperator(asServiceRole(store.db), { email: 'editor@example.org', role: 'editor', password })
})

afterAll(async () => {
  await store?.close()
})

describe('addOperator', () => {
  test('keeps an argon2id hash, never the password, and the email lower-cased', async () => {
    const { rows } = await store.db.query<{ email: string; password_hash: string }>(
      'select email, password_hash from operators order by email',
    )
    expect(rows.map((row) => row.email)).toEqual(['admin@example.org', 'editor@example.org'])
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/)
      expect(row.password_hash).not.toContain(password)
    }
  })

  test('an editor acting through the policies cannot add an operator', async () => {
    const [editor] = (await listOperators(asServiceRole(store.db))).filter((o) => o.role === 'editor')
    const run = asOperator(store.db, { email: editor!.email, role: 'editor', id: editor!.id })
    await expect(addOperator(run, { email: 'new@example.org', role: 'admin', password })).rejects.toMatchObject({
      code: 'forbidden',
    })
    await expect(
      addOperator(asServiceRole(store.db), { email: 'new@example.org', role: 'admin', password: 'short' }),
    ).rejects.toThrow(OperatorError)
  })
})

describe('checkPassword', () => {
  test('answers the same for an unknown email and a wrong password, and signs in with the right one', async () => {
    expect(await checkPassword(store.db, { email: 'nobody@example.org', password }, limits)).toEqual({ kind: 'wrong' })
    expect(await checkPassword(store.db, { email: 'admin@example.org', password: 'wrong' }, limits)).toEqual({
      kind: 'wrong',
    })
    const right = await checkPassword(store.db, { email: ' ADMIN@example.org ', password }, limits)
    expect(right).toMatchObject({ kind: 'signed-in', operator: { email: 'admin@example.org', role: 'admin' } })
  })

  test('locks an account past the free attempts for a doubling time, refusing even the right password', async () => {
    let now = Date.parse('2026-11-25T12:00:00Z')
    const clock = () => now
    const editor = { email: 'editor@example.org', password: 'wrong' }
    for (let i = 0; i < 3; i++) expect((await checkPassword(store.db, editor, limits, clock)).kind).toBe('wrong')
    expect(await checkPassword(store.db, { ...editor, password }, limits, clock)).toEqual({
      kind: 'locked',
      retryAfterMs: 1000,
    })
    now += 1000
    expect((await checkPassword(store.db, editor, limits, clock)).kind).toBe('wrong')
    expect(await checkPassword(store.db, { ...editor, password }, limits, clock)).toEqual({
      kind: 'locked',
      retryAfterMs: 2000,
    })
    now += 2000
    expect((await checkPassword(store.db, { ...editor, password }, limits, clock)).kind).toBe('signed-in')
    const { rows } = await store.db.query(`select * from sign_in_failures where email = 'editor@example.org'`)
    expect(rows).toEqual([])
  })

  test('locks an unknown email exactly as it locks an account, so a lockout tells nobody who has one', async () => {
    let now = Date.parse('2026-11-25T13:00:00Z')
    const clock = () => now
    const answers = async (email: string) => {
      const seen = []
      for (let i = 0; i < 5; i++) seen.push(await checkPassword(store.db, { email, password: 'wrong' }, limits, clock))
      now += 60_000
      return seen
    }
    const known = await answers('admin@example.org')
    expect(known.map((answer) => answer.kind)).toEqual(['wrong', 'wrong', 'wrong', 'locked', 'locked'])
    expect(await answers('nobody-here@example.org')).toEqual(known)
    expect((await checkPassword(store.db, { email: 'admin@example.org', password }, limits, clock)).kind).toBe(
      'signed-in',
    )
  })
})

describe('sessions', () => {
  test('name their operator until signed out, and end when the operator is disabled', async () => {
    const [admin, editor] = await listOperators(asServiceRole(store.db))
    const token = await createSession(store.db, admin!.id, 60_000)
    expect(await sessionOperator(store.db, token)).toMatchObject({ email: 'admin@example.org' })
    expect(await sessionOperator(store.db, `${token}x`)).toBeNull()
    await deleteSession(store.db, token)
    expect(await sessionOperator(store.db, token)).toBeNull()

    const editorToken = await createSession(store.db, editor!.id, 60_000)
    await store.db.query(`update operators set disabled = true where id = $1`, [editor!.id])
    expect(await sessionOperator(store.db, editorToken)).toBeNull()
    await store.db.query(`update operators set disabled = false where id = $1`, [editor!.id])
  })

  test('expire', async () => {
    const [admin] = await listOperators(asServiceRole(store.db))
    const token = await createSession(store.db, admin!.id, -1)
    expect(await sessionOperator(store.db, token)).toBeNull()
  })
})

describe('withActor', () => {
  test('sets the request.jwt.claims the audit trigger and the policies read', async () => {
    const [admin] = await listOperators(asServiceRole(store.db))
    const read = (actor: Parameters<typeof withActor>[1]) =>
      withActor(store.db, actor, async (tx) => {
        const { rows } = await tx.query<{ claims: Record<string, string>; who: string; admin: boolean }>(
          `select auth.jwt() as claims, current_user as who, is_admin() as admin`,
        )
        return rows[0]
      })
    expect(await read({ email: admin!.email, role: 'admin', id: admin!.id })).toEqual({
      claims: { sub: admin!.id, email: 'admin@example.org', role: 'authenticated', app_role: 'admin' },
      who: 'authenticated',
      admin: true,
    })
    expect(await read(automationActor)).toEqual({
      claims: { email: 'automation', role: 'service_role', app_role: 'admin' },
      who: 'service_role',
      admin: false,
    })
  })
})
