import { writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import path from 'node:path'
import { readBackup } from '@roland/scripts/backup/restore'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConsoleServer } from '../src/server/server.ts'
import {
  addTestOperator,
  call,
  operatorsCli,
  signIn,
  startHookReceiver,
  startTestConsole,
  tempDataDir,
  testPassword,
  waitFor,
  type HookReceiver,
} from './support/console.ts'

// Named operators and their roles over real HTTP on 127.0.0.1: operators created with the real
// CLI, an editor who may run jobs and rebuilds but not manage operators, an admin who manages
// them, the per-account lockout, and the console behind an HTTPS reverse proxy (CONSOLE_PUBLIC_URL),
// with the proxy's headers forged by node:http.

const publicUrl = 'https://console.example.org'

let data: Awaited<ReturnType<typeof tempDataDir>>
let hook: HookReceiver
let server: ConsoleServer

/** Runs `roland operators …` on this file's data folder, as an operator would. */
function cli(args: string[], stdin = '') {
  return operatorsCli(args, { dataDir: data.dir, stdin })
}

/** Calls the console as a browser behind the proxy would: node:http lets the test choose Host. */
function viaProxy(
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; setCookie: string[]; json: any }> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body)
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}${pathname}`,
      {
        method: options.method ?? 'GET',
        headers: {
          host: 'console.example.org',
          'x-forwarded-proto': 'https',
          origin: publicUrl,
          'sec-fetch-site': 'same-origin',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            setCookie: res.headers['set-cookie'] ?? [],
            json: JSON.parse(text || 'null'),
          }),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const as = (cookie: string) => ({ auth: 'none' as const, headers: { cookie } })

beforeAll(async () => {
  data = await tempDataDir('roland-operators-')
  hook = await startHookReceiver()
  server = await startTestConsole({
    dataDir: data.dir,
    env: { REBUILD_HOOK_URL: hook.url, CONSOLE_PUBLIC_URL: publicUrl },
    signInLimits: { freeAttempts: 100, baseLockoutMs: 60_000, maxLockoutMs: 60_000 },
    accountLimits: { freeAttempts: 3, baseLockoutMs: 60_000, maxLockoutMs: 60_000 },
  })
  for (const [email, role] of [
    ['coordinator@example.org', 'admin'],
    ['editor@example.org', 'editor'],
  ]) {
    const added = await cli(['add', email!, '--role', role!, '--password-stdin'], `${testPassword}\n`)
    expect(added, added.stderr).toMatchObject({ code: 0 })
  }
}, 180_000)

afterAll(async () => {
  await server?.close()
  await hook?.close()
  await data?.remove()
})

describe('the operators CLI', () => {
  // Each run of the CLI starts a Node process and opens the database: minutes on a loaded machine.
  test(
    'refuses a weak password and a duplicate email with what to do, and lists the operators',
    { timeout: 240_000 },
    async () => {
      const weak = await cli(['add', 'short@example.org', '--role', 'editor', '--password-stdin'], 'too short\n')
      expect(weak.code).toBe(1)
      expect(weak.stderr).toMatch(/at least 12 characters/)
      const twice = await cli(['add', 'Editor@Example.org', '--role', 'admin', '--password-stdin'], `${testPassword}\n`)
      expect(twice.code).toBe(1)
      expect(twice.stderr).toMatch(/editor@example\.org already exists/)
      const list = await cli(['list', '--json'])
      expect(JSON.parse(list.stdout).map((o: { email: string; role: string }) => [o.email, o.role])).toEqual([
        ['coordinator@example.org', 'admin'],
        ['editor@example.org', 'editor'],
      ])
      expect(list.stdout).not.toMatch(/argon2/)
    },
  )

  test('never takes a password as an argument', { timeout: 120_000 }, async () => {
    const answer = await cli(['add', 'x@example.org', '--role', 'editor', '--password', testPassword])
    expect(answer.code).not.toBe(0)
    expect(answer.stderr).toMatch(/unknown option '--password'/)
  })
})

describe('an editor created with the CLI', () => {
  test('signs in, runs a rebuild, and cannot manage operators (403), which the session says', async () => {
    const cookie = await signIn(server, 'editor@example.org')
    expect((await call(server, '/api/session', as(cookie))).json).toEqual({
      signedIn: true,
      email: 'editor@example.org',
      role: 'editor',
    })
    const callsBefore = hook.calls.length
    const rebuild = await call(server, '/api/rebuild', { method: 'POST', ...as(cookie), body: {} })
    expect(rebuild.status).toBe(202)
    await waitFor(() => hook.calls.length === callsBefore + 1, 'the rebuild hook')
    expect((await call(server, '/api/jobs', as(cookie))).status).toBe(200)

    const add = await call(server, '/api/operators', {
      method: 'POST',
      ...as(cookie),
      body: { email: 'friend@example.org', role: 'admin', password: testPassword },
    })
    expect(add.status).toBe(403)
    expect(add.json.error).toMatch(/Only an admin/)
    expect((await call(server, '/api/operators', as(cookie))).status).toBe(403)
    const someone = '00000000-0000-4000-8000-000000000000'
    expect((await call(server, `/api/operators/${someone}`, { method: 'DELETE', ...as(cookie) })).status).toBe(403)
    expect(
      (
        await call(server, `/api/operators/${someone}/password`, {
          method: 'POST',
          ...as(cookie),
          body: { password: testPassword },
        })
      ).status,
    ).toBe(403)
  })
})

describe('an admin', () => {
  test('adds, lists, promotes, resets and removes operators; a removed operator’s session ends', async () => {
    const admin = await signIn(server, 'coordinator@example.org')
    const added = await call(server, '/api/operators', {
      method: 'POST',
      ...as(admin),
      body: { email: 'Volunteer@Example.org', role: 'editor', password: testPassword },
    })
    expect(added.status).toBe(201)
    expect(added.json.operator).toMatchObject({ email: 'volunteer@example.org', role: 'editor' })
    const id = added.json.operator.id as string

    const duplicate = await call(server, '/api/operators', {
      method: 'POST',
      ...as(admin),
      body: { email: 'volunteer@example.org', role: 'editor', password: testPassword },
    })
    expect(duplicate.status).toBe(409)
    const weak = await call(server, '/api/operators', {
      method: 'POST',
      ...as(admin),
      body: { email: 'weak@example.org', role: 'editor', password: 'short' },
    })
    expect(weak.status).toBe(400)
    expect(weak.json.error).toMatch(/at least 12 characters/)

    const list = await call(server, '/api/operators', as(admin))
    expect(list.json.operators.map((o: { email: string }) => o.email)).toContain('volunteer@example.org')
    expect(JSON.stringify(list.json)).not.toMatch(/argon2|password/)

    const volunteer = await signIn(server, 'volunteer@example.org')
    const promoted = await call(server, `/api/operators/${id}/role`, {
      method: 'PUT',
      ...as(admin),
      body: { role: 'admin' },
    })
    expect(promoted.json.operator.role).toBe('admin')
    expect((await call(server, '/api/session', as(volunteer))).json.role).toBe('admin')

    const newPassword = 'another long password 2026'
    const reset = await call(server, `/api/operators/${id}/password`, {
      method: 'POST',
      ...as(admin),
      body: { password: newPassword },
    })
    expect(reset.status).toBe(200)
    expect((await call(server, '/api/session', as(volunteer))).status).toBe(401)
    const again = await signIn(server, 'volunteer@example.org', newPassword)

    expect((await call(server, `/api/operators/${id}`, { method: 'DELETE', ...as(admin) })).status).toBe(200)
    expect((await call(server, '/api/jobs', as(again))).status).toBe(401)
    expect((await call(server, `/api/operators/${id}`, { method: 'DELETE', ...as(admin) })).status).toBe(404)
  })

  test('cannot remove or demote the last admin', async () => {
    const admin = await signIn(server, 'coordinator@example.org')
    const me = (await call(server, '/api/operators', as(admin))).json.operators.find(
      (o: { email: string }) => o.email === 'coordinator@example.org',
    )
    const demote = await call(server, `/api/operators/${me.id}/role`, {
      method: 'PUT',
      ...as(admin),
      body: { role: 'editor' },
    })
    expect(demote.status).toBe(409)
    expect(demote.json.error).toMatch(/last admin/)
    expect((await call(server, `/api/operators/${me.id}`, { method: 'DELETE', ...as(admin) })).status).toBe(409)
  })
})

describe('the backup download', () => {
  test('streams the whole store to an admin as one file a restore accepts; editors and strangers get none', async () => {
    const admin = await signIn(server, 'coordinator@example.org')
    const answer = await fetch(`${server.url}/api/backup`, { headers: { cookie: admin } })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/gzip')
    expect(answer.headers.get('content-disposition')).toMatch(
      /^attachment; filename="roland-backup-\d{8}T\d{6}Z\.tar\.gz"$/,
    )
    const file = path.join(data.dir, 'downloaded.tar.gz')
    await writeFile(file, Buffer.from(await answer.arrayBuffer()))
    // What a restore checks before it changes anything (scripts/test/backup.test.ts restores one whole).
    const backup = await readBackup(file, path.join(data.dir, 'downloaded-files'))
    const { json } = await call(server, '/api/businesses', as(admin))
    const slugs = (rows: Array<{ slug: string }>) => rows.map((row) => row.slug).toSorted()
    expect(slugs(backup.tables.get('businesses') as Array<{ slug: string }>)).toEqual(slugs(json.businesses))
    expect(backup.tables.get('operators')?.map((row) => row.email)).toEqual(
      expect.arrayContaining(['coordinator@example.org', 'editor@example.org']),
    )

    const editor = await signIn(server, 'editor@example.org')
    const refused = await call(server, '/api/backup', as(editor))
    expect(refused.status).toBe(403)
    expect(refused.headers.get('content-disposition')).toBeNull()
    expect((await call(server, '/api/backup', { auth: 'none' })).status).toBe(401)
  })
})

describe('behind an HTTPS reverse proxy (CONSOLE_PUBLIC_URL)', () => {
  test('signing in through the public address sets a Secure cookie, which then opens the API there', async () => {
    const answer = await viaProxy('/api/session', {
      method: 'POST',
      body: { email: 'editor@example.org', password: testPassword },
    })
    expect(answer.status).toBe(200)
    expect(answer.setCookie[0]).toMatch(/; HttpOnly; SameSite=Strict; Secure;/)
    const cookie = answer.setCookie[0]!.split(';')[0]!
    expect((await viaProxy('/api/session', { headers: { cookie } })).json).toMatchObject({ role: 'editor' })
  })

  test('refuses a foreign Host (421), a foreign Origin (403) and a request the proxy says came over http (403)', async () => {
    const body = { email: 'editor@example.org', password: testPassword }
    const foreignHost = await viaProxy('/api/session', { method: 'POST', body, headers: { host: 'evil.example' } })
    expect(foreignHost.status).toBe(421)
    const foreignOrigin = await viaProxy('/api/session', {
      method: 'POST',
      body,
      headers: { origin: 'https://evil.example' },
    })
    expect(foreignOrigin.status).toBe(403)
    expect(foreignOrigin.setCookie).toEqual([])
    const plain = await viaProxy('/api/session', { method: 'POST', body, headers: { 'x-forwarded-proto': 'http' } })
    expect(plain.status).toBe(403)
    expect(plain.json.error).toMatch(/use https:\/\/console\.example\.org/)
  })
})

describe('the per-account lockout', () => {
  // Last: it locks the editor's account for a minute.
  test('past three wrong passwords the account answers 429, even to the right password; other accounts still sign in', async () => {
    const attempt = (password: string) =>
      call(server, '/api/session', { method: 'POST', auth: 'none', body: { email: 'editor@example.org', password } })
    for (let i = 0; i < 4; i++) expect((await attempt(`wrong password ${i}`)).status).toBe(401)
    const locked = await attempt(testPassword)
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(locked.headers.get('set-cookie')).toBeNull()
    await signIn(server, 'coordinator@example.org')
  })

  test('an unknown email gets the very answers an account gets, before and after the lockout', async () => {
    await addTestOperator(server, 'treasurer@example.org', 'editor')
    // Everything a client sees of an answer, but the clock: the date, and how many seconds remain.
    const answers = async (email: string) => {
      const seen = []
      for (let i = 0; i < 6; i++) {
        const answer = await call(server, '/api/session', {
          method: 'POST',
          auth: 'none',
          body: { email, password: `wrong password ${i}` },
        })
        const headers = [...answer.headers].filter(([name]) => !['date', 'content-length'].includes(name))
        seen.push({
          status: answer.status,
          body: answer.text.replace(/\d+ s\b/g, 'N s'),
          headers: headers.map(([name, value]) => [name, name === 'retry-after' ? value.replace(/^\d+$/, 'N') : value]),
        })
      }
      return seen
    }
    const known = await answers('treasurer@example.org')
    expect(known.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 429, 429])
    expect(known.at(-1)!.headers).toContainEqual(['retry-after', 'N'])
    expect(await answers('no-account-here@example.org')).toEqual(known)
  })
})
