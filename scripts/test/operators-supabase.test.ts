import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { operatorDirectory, operatorSessions, type OperatorDirectory } from '../src/operators/directory.ts'
import { openSupabaseStore, type SupabaseStore } from '../src/store/supabase.ts'
import { startSupabaseStandIn, type SupabaseStandIn } from './support/supabase-stand-in.ts'

// Operator accounts on a Supabase project, through the stand-in's Auth (GoTrue) and PostgREST:
// Supabase Auth keeps the passwords, the operators table the roles, and only a user with an
// operators row gets in. The same OperatorDirectory the CLI and the console use on PGlite.

const publishableKey = 'sb_publishable_operators-test'
const secretKey = 'sb_secret_operators-test'
const password = 'a long enough password'
const limits = { freeAttempts: 2, baseLockoutMs: 60_000, maxLockoutMs: 60_000 }

let standIn: SupabaseStandIn
let store: SupabaseStore
let directory: OperatorDirectory

beforeAll(async () => {
  standIn = await startSupabaseStandIn({
    publishableKey,
    secretKey,
    tables: { operators: [], operator_sessions: [], sign_in_failures: [] },
    privateTables: ['operators', 'operator_sessions', 'sign_in_failures'],
  })
  store = openSupabaseStore({ url: standIn.url, publicKey: publishableKey, secretKey })
  directory = operatorDirectory(store)
})

afterAll(async () => {
  await store?.close()
  await standIn?.close()
})

const signIn = (email: string, secret = password) => operatorSessions(store).signIn({ email, password: secret }, limits)

describe('operators on Supabase', () => {
  test('adding one makes a confirmed Supabase Auth user and links it to a role; no password is kept in the table', async () => {
    const added = await directory.add({ email: 'Coordinator@Roland.example', role: 'admin', password })
    expect(added).toMatchObject({ email: 'coordinator@roland.example', role: 'admin', disabled: false })
    const [user] = [...standIn.users.values()]
    expect(user).toMatchObject({ email: 'coordinator@roland.example', password })
    expect(standIn.tables.operators).toEqual([expect.objectContaining({ user_id: user!.id, role: 'admin' })])
    expect(JSON.stringify(standIn.tables.operators)).not.toContain(password)
    expect(
      standIn.requests.filter((r) => r.path.startsWith('/auth/v1/admin/')).every((r) => r.headers.apikey === secretKey),
    ).toBe(true)
  })

  test('a duplicate email or a short password is refused with what to do, and leaves no Auth user behind', async () => {
    const users = standIn.users.size
    await expect(
      directory.add({ email: 'coordinator@roland.example', role: 'editor', password }),
    ).rejects.toMatchObject({ code: 'duplicate', message: expect.stringContaining('already exists') })
    await expect(
      directory.add({ email: 'new@roland.example', role: 'editor', password: 'short' }),
    ).rejects.toMatchObject({
      code: 'invalid',
      message: expect.stringContaining('at least 12 characters'),
    })
    expect(standIn.users.size).toBe(users)
  })

  test('signs in with the right password, ends the Auth session it was handed, and keeps its own', async () => {
    const outcome = await signIn('coordinator@roland.example')
    expect(outcome).toMatchObject({
      kind: 'signed-in',
      operator: { email: 'coordinator@roland.example', role: 'admin' },
    })
    expect(standIn.accessTokens.size).toBe(0)
    if (outcome.kind !== 'signed-in') return
    const sessions = operatorSessions(store)
    const token = await sessions.start(outcome.operator, 60_000)
    expect(JSON.stringify(standIn.tables.operator_sessions)).not.toContain(token)
    expect(await sessions.operatorOf(token)).toMatchObject({ email: 'coordinator@roland.example' })
    await sessions.end(token)
    expect(await sessions.operatorOf(token)).toBeNull()
    expect(await sessions.operatorOf('not-a-session')).toBeNull()
  })

  test('an expired session lets nobody in', async () => {
    const [admin] = await directory.list()
    const sessions = operatorSessions(store)
    const token = await sessions.start(admin!, -1)
    expect(await sessions.operatorOf(token)).toBeNull()
  })

  test('a stranger who signed up to the project’s Auth gets the answer of a wrong password', async () => {
    const visitor = createClient(standIn.url, publishableKey, { auth: { persistSession: false } })
    const signedUp = await visitor.auth.signUp({ email: 'stranger@example.org', password })
    expect(signedUp.error).toBeNull()
    expect(await signIn('stranger@example.org')).toEqual({ kind: 'wrong' })
    expect(await signIn('nobody@example.org')).toEqual({ kind: 'wrong' })
    expect(await signIn('coordinator@roland.example', 'not the password')).toEqual({ kind: 'wrong' })
  })

  test('an operator’s address taken by another Auth user (after the operator changed theirs in Auth) lets that user in nowhere', async () => {
    await directory.add({ email: 'treasurer@roland.example', role: 'editor', password })
    const treasurer = [...standIn.users.values()].find((u) => u.email === 'treasurer@roland.example')!
    treasurer.email = 'treasurer@elsewhere.example'
    const visitor = createClient(standIn.url, publishableKey, { auth: { persistSession: false } })
    expect((await visitor.auth.signUp({ email: 'treasurer@roland.example', password })).error).toBeNull()
    expect(await signIn('treasurer@roland.example')).toEqual({ kind: 'wrong' })
    await directory.remove({ email: 'treasurer@roland.example' })
  })

  test('adding someone who already signed up takes over their Auth account with the password given', async () => {
    const strangerId = [...standIn.users.values()].find((u) => u.email === 'stranger@example.org')!.id
    const other = 'another long password'
    await directory.add({ email: 'stranger@example.org', role: 'editor', password: other })
    expect(standIn.tables.operators).toContainEqual(expect.objectContaining({ user_id: strangerId, role: 'editor' }))
    expect(await signIn('stranger@example.org', password)).toEqual({ kind: 'wrong' })
    expect(await signIn('stranger@example.org', other)).toMatchObject({ kind: 'signed-in' })
  })

  test('locks an account after repeated wrong passwords, the right one included, until a reset', async () => {
    await directory.add({ email: 'volunteer@roland.example', role: 'editor', password })
    expect(await signIn('volunteer@roland.example', 'wrong 1')).toEqual({ kind: 'wrong' })
    expect(await signIn('volunteer@roland.example', 'wrong 2')).toEqual({ kind: 'wrong' })
    expect(await signIn('volunteer@roland.example', 'wrong 3')).toEqual({ kind: 'wrong' })
    expect(await signIn('volunteer@roland.example')).toMatchObject({ kind: 'locked' })

    const fresh = 'a brand new password'
    const [volunteer] = (await directory.list()).filter((o) => o.email === 'volunteer@roland.example')
    const token = await operatorSessions(store).start(volunteer!, 60_000)
    await directory.resetPassword({ email: 'volunteer@roland.example' }, fresh)
    expect(await operatorSessions(store).operatorOf(token)).toBeNull()
    expect(await signIn('volunteer@roland.example', password)).toEqual({ kind: 'wrong' })
    expect(await signIn('volunteer@roland.example', fresh)).toMatchObject({ kind: 'signed-in' })
  })

  test('changing a role, listing admins first, and removing an operator with their Auth account', async () => {
    expect(await directory.setRole({ email: 'volunteer@roland.example' }, 'admin')).toMatchObject({ role: 'admin' })
    expect((await directory.list()).map((o) => `${o.role} ${o.email}`)).toEqual([
      'admin coordinator@roland.example',
      'admin volunteer@roland.example',
      'editor stranger@example.org',
    ])
    const users = standIn.users.size
    await directory.remove({ email: 'volunteer@roland.example' })
    expect(standIn.users.size).toBe(users - 1)
    expect(await signIn('volunteer@roland.example', 'a brand new password')).toEqual({ kind: 'wrong' })
    await expect(directory.remove({ email: 'volunteer@roland.example' })).rejects.toMatchObject({ code: 'not-found' })
    expect(await directory.count()).toBe(2)
  })

  test('a project that fails is an error that says where, not a wrong password', async () => {
    const sessions = operatorSessions(store)
    const input = { email: 'coordinator@roland.example', password }
    try {
      standIn.options.failWith = { status: 500, body: { message: 'upstream unavailable' } }
      await expect(sessions.signIn(input, limits)).rejects.toThrow(
        /^Could not read the failed sign-ins \(Supabase at http:\/\/127\.0\.0\.1:\d+\): upstream unavailable$/,
      )
      standIn.options.failWith = { status: 500, body: { message: 'upstream unavailable' }, path: '/auth/v1/' }
      await expect(sessions.signIn(input, limits)).rejects.toThrow(
        'Supabase Auth did not answer the sign-in (upstream unavailable): check SUPABASE_URL and that the project is up.',
      )
    } finally {
      delete standIn.options.failWith
    }
    expect(await sessions.signIn(input, limits)).toMatchObject({ kind: 'signed-in' })
  })
})
