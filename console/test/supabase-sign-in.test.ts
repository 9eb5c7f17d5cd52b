import { readFile } from 'node:fs/promises'
import { createRow } from '@roland/scripts/content/edit'
import { automationActor } from '@roland/scripts/operators/schema'
import { type EmbeddedStore } from '@roland/scripts/store/embedded'
import { freshStore } from '../../scripts/test/support/fresh-store.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  sqlFunctions,
  startSupabaseStandIn,
  type SupabaseStandIn,
} from '../../scripts/test/support/supabase-stand-in.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { call, operatorsCli, startTestConsole, tempDataDir, testPassword } from './support/console.ts'

// The console on a Supabase project: operators sign in through Supabase Auth (the stand-in's
// GoTrue), each with their own role, and their edits are named in the audit log. The stand-in
// answers the editing functions by running the same SQL in a real Postgres (PGlite), as the
// service role, the way PostgREST would; the operators live in Auth and the operators table.

const publishableKey = 'sb_publishable_console-test'
const photo = new URL(
  '../../scripts/test/fixtures/sites/wordpress-bakery/wp-content/uploads/2024/03/cinnamon-rolls.jpg',
  import.meta.url,
)
const secretKey = 'sb_secret_console-test'

let data: Awaited<ReturnType<typeof tempDataDir>>
let postgres: EmbeddedStore
let standIn: SupabaseStandIn
let server: ConsoleServer
let env: Record<string, string>
let businessId: string

/** Runs `roland operators …` on this file's project, as an operator would. */
function cli(args: string[], stdin = '') {
  return operatorsCli(args, { dataDir: data.dir, stdin, env })
}

/** Signs in; returns the answer and the cookie it set. */
async function signIn(email: string, password = testPassword) {
  const answer = await call(server, '/api/session', { method: 'POST', auth: 'none', body: { email, password } })
  return { ...answer, cookie: answer.headers.get('set-cookie')?.split(';')[0] ?? '' }
}

beforeAll(async () => {
  data = await tempDataDir('roland-console-supabase-')
  postgres = await freshStore()
  const created = await createRow(
    postgres,
    'businesses',
    { slug: 'roland-feed-store', name: 'Roland Feed Store' },
    automationActor,
  )
  if (created.status !== 'ok') throw new Error(`could not create the test business: ${JSON.stringify(created)}`)
  businessId = String(created.row.id)
  const functions = ['create_row', 'edit_row', 'delete_row', 'undo_change', 'audit_entries', 'content_row']
  standIn = await startSupabaseStandIn({
    publishableKey,
    secretKey,
    tables: { operators: [], operator_sessions: [], jobs: [], sign_in_failures: [] },
    privateTables: ['operators', 'operator_sessions', 'jobs', 'sign_in_failures'],
    rpc: sqlFunctions(postgres, functions),
  })
  env = { SUPABASE_URL: standIn.url, SUPABASE_PUBLISHABLE_KEY: publishableKey, SUPABASE_SECRET_KEY: secretKey }
  server = await startTestConsole({ dataDir: data.dir, env })
}, 120_000)

afterAll(async () => {
  await server?.close()
  await standIn?.close()
  await postgres?.close()
  await data?.remove()
})

describe('operators on Supabase', () => {
  test('the CLI adds an admin and an editor as Supabase Auth users with a role', async () => {
    const admin = await cli(['add', 'coordinator@roland.example', '--role', 'admin', '--password-stdin'], testPassword)
    expect(admin).toMatchObject({
      code: 0,
      stdout: 'Added coordinator@roland.example (admin). They sign in at the console with this password.\n',
    })
    const editor = await cli(['add', 'volunteer@roland.example', '--role', 'editor', '--password-stdin'], testPassword)
    expect(editor.code).toBe(0)
    const list = await cli(['list', '--json'])
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ email: 'coordinator@roland.example', role: 'admin' }),
      expect.objectContaining({ email: 'volunteer@roland.example', role: 'editor' }),
    ])
    expect([...standIn.users.values()].map((user) => user.email).sort()).toEqual([
      'coordinator@roland.example',
      'volunteer@roland.example',
    ])
  }, 60_000)

  test('an editor signs in through Supabase Auth, edits a business, adds an event and a photo, cannot manage operators, and is named in the audit log', async () => {
    const signedIn = await signIn('volunteer@roland.example')
    expect(signedIn.status).toBe(200)
    expect(signedIn.json).toEqual({ signedIn: true, email: 'volunteer@roland.example', role: 'editor' })
    expect(signedIn.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/)
    const cookie = { cookie: signedIn.cookie }

    const { json: current } = await call(server, `/api/businesses/${businessId}`, { auth: 'none', headers: cookie })
    const saved = await call(server, `/api/businesses/${businessId}`, {
      method: 'PATCH',
      auth: 'none',
      headers: cookie,
      body: { phone: '(501) 555-0142', updated_at: current.business.updated_at },
    })
    expect(saved.status).toBe(200)
    expect(saved.json.business).toMatchObject({ phone: '(501) 555-0142' })

    const refused = await call(server, '/api/operators', {
      method: 'POST',
      auth: 'none',
      headers: cookie,
      body: { email: 'friend@roland.example', role: 'admin', password: testPassword },
    })
    expect(refused.status).toBe(403)
    expect(standIn.users.size).toBe(2)

    const audit = await call(server, `/api/audit?table=businesses&row=${businessId}`)
    expect(audit.json.entries[0]).toMatchObject({ actor: 'volunteer@roland.example', action: 'update' })

    // An event, in Roland time on the screen and UTC in the database.
    const event = await call(server, '/api/events', {
      method: 'POST',
      auth: 'none',
      headers: cookie,
      body: {
        title: 'Fourth of July Fireworks',
        description: 'Fireworks over the lake.',
        starts_at: '2027-07-05T02:00:00.000Z',
        ends_at: '2027-07-05T03:00:00.000Z',
        location: 'Roland Ballfield',
        event_type: 'Community',
      },
    })
    expect(event.status).toBe(201)
    const events = await call(server, `/api/audit?table=community_events&row=${event.json.event.id}`)
    expect(events.json.entries[0]).toMatchObject({ actor: 'volunteer@roland.example', action: 'insert' })

    // A photo: its original and derivatives go to the project's Storage, its row through the SQL.
    const form = new FormData()
    form.set('file', new Blob([await readFile(photo)]), 'rolls.jpg')
    form.set('alt_text', 'Fresh cinnamon rolls')
    const uploaded = await fetch(`${server.url}/api/businesses/${businessId}/images`, {
      method: 'POST',
      headers: cookie,
      body: form,
    })
    expect(uploaded.status).toBe(201)
    const { image } = (await uploaded.json()) as {
      image: { image_url: string; variants: { url: string; format: string }[] }
    }
    expect(image.image_url).toMatch(new RegExp(`^${standIn.url}/storage/v1/object/public/files/`))
    expect(new Set(image.variants.map((variant) => variant.format))).toEqual(new Set(['avif', 'webp', 'jpeg']))
    for (const variant of image.variants) {
      expect(standIn.objects.has(`files/${variant.url.split('/object/public/files/')[1]}`)).toBe(true)
    }

    expect((await call(server, '/api/session', { method: 'DELETE', auth: 'none', headers: cookie })).status).toBe(200)
    expect((await call(server, '/api/session', { auth: 'none', headers: cookie })).status).toBe(401)
  })

  test('an admin manages operators from the console: adds one who can then sign in, and removes them', async () => {
    const { cookie } = await signIn('coordinator@roland.example')
    const added = await call(server, '/api/operators', {
      method: 'POST',
      auth: 'none',
      headers: { cookie },
      body: { email: 'friend@roland.example', role: 'editor', password: testPassword },
    })
    expect(added.status).toBe(201)
    const friend = await signIn('friend@roland.example')
    expect(friend.status).toBe(200)
    const removed = await call(server, `/api/operators/${added.json.operator.id}`, {
      method: 'DELETE',
      auth: 'none',
      headers: { cookie },
    })
    expect(removed.status).toBe(200)
    // Removing an operator ends their sessions and their Auth account.
    expect((await call(server, '/api/session', { auth: 'none', headers: { cookie: friend.cookie } })).status).toBe(401)
    expect((await signIn('friend@roland.example')).status).toBe(401)
  })

  test('a stranger who signed up to the project’s Auth gets what a wrong password gets', async () => {
    // Signing up is open to anyone with the publishable key (it is in every visitor's browser).
    const signUp = await fetch(`${standIn.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: publishableKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'stranger@example.org', password: testPassword }),
    })
    expect(signUp.status).toBe(200)
    const stranger = await signIn('stranger@example.org')
    const wrong = await signIn('coordinator@roland.example', 'not the password at all')
    expect(stranger.status).toBe(401)
    expect(wrong.status).toBe(401)
    expect(stranger.json).toEqual(wrong.json)
    expect(stranger.headers.get('set-cookie')).toBeNull()
  })

  test('the CLI resets a password (the old one stops working) and removes an operator', async () => {
    const before = await signIn('volunteer@roland.example')
    const fresh = 'a brand new password for the volunteer'
    expect((await cli(['reset-password', 'volunteer@roland.example', '--password-stdin'], fresh)).code).toBe(0)
    expect((await call(server, '/api/session', { auth: 'none', headers: { cookie: before.cookie } })).status).toBe(401)
    expect((await signIn('volunteer@roland.example')).status).toBe(401)
    expect((await signIn('volunteer@roland.example', fresh)).status).toBe(200)
    expect(await cli(['remove', 'volunteer@roland.example'])).toMatchObject({
      code: 0,
      stdout: 'Removed volunteer@roland.example.\n',
    })
    expect((await signIn('volunteer@roland.example', fresh)).status).toBe(401)
  }, 60_000)
})
