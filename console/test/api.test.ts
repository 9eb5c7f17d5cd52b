import { spawn } from 'node:child_process'
import { stat, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import path from 'node:path'
import { interruptedMessage } from '@roland/scripts/jobs/interrupted'
import { openStore } from '@roland/scripts/store/index'
import { repoRoot } from '@roland/scripts/paths'
import type { Job } from '@roland/scripts/store/types'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startFirecrawlStandIn, type FirecrawlStandIn } from '../../scripts/test/crawl-firecrawl-stand-in.ts'
import { startFixtureSite } from '../../scripts/test/crawl-fixture-server.ts'
import type { EmbeddedStore } from '@roland/scripts/store/embedded'
import { photoJpeg } from '../../scripts/test/support/image-fixtures.ts'
import { routes } from '../src/server/server.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { deadProcessId } from '../../scripts/test/support/dead-process.ts'
import {
  addTestOperator,
  call,
  openEvents,
  rolandText,
  signIn,
  startHookReceiver,
  startTestConsole,
  tempDataDir,
  testPassword,
  testSecret,
  waitFor,
  waitForJob,
  type HookReceiver,
} from './support/console.ts'

// The console API over real HTTP on 127.0.0.1, with the real embedded Postgres in a temporary
// folder. Stand-ins only for third parties: the deploy hook and Firecrawl.

const firecrawlKey = 'fc-console-test-key-5f2a9c'
const upload = (names: string[]) => ({
  source: { kind: 'upload', name: 'Roland.txt', base64: Buffer.from(rolandText(names)).toString('base64') },
})

let data: Awaited<ReturnType<typeof tempDataDir>>
let hook: HookReceiver
let firecrawl: FirecrawlStandIn
let server: ConsoleServer
const responses: string[] = []

async function start(): Promise<ConsoleServer> {
  return startTestConsole({
    dataDir: data.dir,
    env: { REBUILD_HOOK_URL: hook.url, FIRECRAWL_API_URL: firecrawl.apiUrl },
    signInLimits: { freeAttempts: 3, baseLockoutMs: 60_000, maxLockoutMs: 60_000 },
  })
}

/** Calls the API and keeps the answer, to check later that no answer ever held a secret. */
async function api(pathname: string, options: Parameters<typeof call>[2] = {}) {
  const answer = await call(server, pathname, options)
  responses.push(answer.text)
  return answer
}

beforeAll(async () => {
  data = await tempDataDir()
  hook = await startHookReceiver()
  firecrawl = await startFirecrawlStandIn({ apiKey: firecrawlKey })
  server = await start()
  await addTestOperator(server, 'admin@example.org', 'admin')
})

afterAll(async () => {
  await server?.close()
  await hook?.close()
  await firecrawl?.close()
  await data?.remove()
})

/** Waits until no rebuild is due or running. */
async function rebuildsSettled(): Promise<void> {
  await waitFor(
    () => !server.services.scheduler.state.pending && !server.services.scheduler.state.running,
    'rebuilds to settle',
  )
  await server.services.scheduler.idle()
}

/** A concrete path for a route pattern: named groups become a valid-looking UUID. */
function samplePath(route: (typeof routes)[number]): string {
  return route.path.source
    .replace(/^\^/, '')
    .replace(/\$$/, '')
    .replace(/\(\?<\w+>\[\^\/\]\+\)/g, '00000000-0000-4000-8000-000000000000')
    .replace(/\\\//g, '/')
}

describe('authentication', () => {
  test('every route under /api answers 401 without credentials, and with a session cookie nobody issued', async () => {
    const guarded = routes.filter((route) => !route.public)
    expect(guarded.length).toBeGreaterThan(10)
    for (const route of guarded) {
      const pathname = samplePath(route)
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {}
      const bare = await api(pathname, { method: route.method, auth: 'none', body })
      expect(bare.status, `${route.method} ${pathname}`).toBe(401)
      expect(bare.json.error).toMatch(/sign in/i)
      const forged = await api(pathname, {
        method: route.method,
        auth: 'none',
        body,
        headers: { cookie: 'roland_console_session=forged' },
      })
      expect(forged.status, `${route.method} ${pathname} with a forged cookie`).toBe(401)
    }
    // Unknown API paths are guarded too: nothing under /api answers without credentials.
    expect((await api('/api/nothing-here', { auth: 'none' })).status).toBe(401)
    expect((await api('/files/Roland.txt', { auth: 'none' })).status).toBe(401)
  })

  test('signing in with an email and password sets an HttpOnly, SameSite=Strict session cookie that opens the API until sign-out', async () => {
    const wrong = await api('/api/session', {
      method: 'POST',
      auth: 'none',
      body: { email: 'admin@example.org', password: 'not the password at all' },
    })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('set-cookie')).toBeNull()
    const unknown = await api('/api/session', {
      method: 'POST',
      auth: 'none',
      body: { email: 'nobody@example.org', password: testPassword },
    })
    expect(unknown.status).toBe(401)
    expect(unknown.json.error).toBe(wrong.json.error)
    // The secret no longer signs a person in.
    expect((await api('/api/session', { method: 'POST', auth: 'none', body: { secret: testSecret } })).status).toBe(400)

    const right = await api('/api/session', {
      method: 'POST',
      auth: 'none',
      body: { email: ' Admin@Example.org ', password: testPassword },
    })
    expect(right.status).toBe(200)
    expect(right.json).toEqual({ signedIn: true, email: 'admin@example.org', role: 'admin' })
    expect(right.headers.get('set-cookie')).not.toMatch(/Secure/)
    const setCookie = right.headers.get('set-cookie')!
    expect(setCookie).toMatch(/^roland_console_session=[\w-]{40,};/)
    expect(setCookie).toMatch(/; HttpOnly/)
    expect(setCookie).toMatch(/; SameSite=Strict/)
    expect(setCookie).toMatch(/; Path=\//)
    const cookie = setCookie.split(';')[0]!

    const jobs = await api('/api/jobs', { auth: 'none', headers: { cookie } })
    expect(jobs.status).toBe(200)
    expect(Array.isArray(jobs.json.jobs)).toBe(true)
    expect((await api('/api/session', { auth: 'none', headers: { cookie } })).json).toEqual({
      signedIn: true,
      email: 'admin@example.org',
      role: 'admin',
    })

    // Only the token's hash is stored: the database never holds a usable session.
    const token = cookie.split('=')[1]!
    const stored = await server.services.store.use(async (store) =>
      JSON.stringify((await (store as EmbeddedStore).db.query('select * from operator_sessions')).rows),
    )
    expect(stored).not.toContain(token)

    expect((await api('/api/session', { method: 'DELETE', auth: 'none', headers: { cookie } })).status).toBe(200)
    expect((await api('/api/jobs', { auth: 'none', headers: { cookie } })).status).toBe(401)
  })

  test('a session survives a console restart; a new password ends it', async () => {
    const cookie = await signIn(server, 'admin@example.org')
    await server.close()
    server = await start()
    expect((await api('/api/jobs', { auth: 'none', headers: { cookie } })).status).toBe(200)
    await addTestOperator(server, 'second-admin@example.org', 'admin')
    const other = await signIn(server, 'second-admin@example.org')
    const { json } = await api('/api/operators', { auth: 'none', headers: { cookie: other } })
    const admin = json.operators.find((o: { email: string }) => o.email === 'admin@example.org')
    const reset = await api(`/api/operators/${admin.id}/password`, {
      method: 'POST',
      auth: 'none',
      headers: { cookie: other },
      body: { password: testPassword },
    })
    expect(reset.status).toBe(200)
    expect((await api('/api/jobs', { auth: 'none', headers: { cookie } })).status).toBe(401)
    expect((await api('/api/jobs', { auth: 'none', headers: { cookie: other } })).status).toBe(200)
  })

  test('scripts may send the secret as a bearer token; a wrong one is refused', async () => {
    expect((await api('/api/jobs')).status).toBe(200)
    const wrong = await api('/api/jobs', { auth: 'none', headers: { authorization: 'Bearer wrong-secret' } })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer/)
  })
})

describe('cross-site requests', () => {
  test('are refused with 403 even with valid credentials: another origin, another local port, or a cross-site fetch', async () => {
    const otherPort = `http://127.0.0.1:${server.port === 4321 ? 4322 : 4321}`
    const refused: Array<Record<string, string>> = [
      { origin: 'http://evil.example' },
      { origin: otherPort },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ]
    for (const headers of refused) {
      const answer = await api('/api/jobs', { headers })
      expect(answer.status, JSON.stringify(headers)).toBe(403)
      expect(answer.json.error).toMatch(/cross-site/i)
      const migrate = await api('/api/migration', { method: 'POST', headers, body: upload(['Evil Diner']) })
      expect(migrate.status).toBe(403)
    }
    const signIn = await api('/api/session', {
      method: 'POST',
      auth: 'none',
      headers: { origin: 'http://evil.example' },
      body: { email: 'admin@example.org', password: testPassword },
    })
    expect(signIn.status).toBe(403)
    expect(signIn.headers.get('set-cookie')).toBeNull()
  })

  test('a request naming another host (DNS rebinding) is refused', async () => {
    // fetch will not send a Host of our choosing; node:http will.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        `${server.url}/api/jobs`,
        { headers: { host: 'rebind.example', authorization: `Bearer ${testSecret}` } },
        (res) => {
          res.resume()
          resolve(res.statusCode)
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(421)
  })

  test('the console’s own origin is accepted', async () => {
    const answer = await api('/api/jobs', { headers: { origin: server.url, 'sec-fetch-site': 'same-origin' } })
    expect(answer.status).toBe(200)
  })
})

describe('input validation', () => {
  test('a migration body that is not a source is refused with 400 and what is wrong', async () => {
    const answer = await api('/api/migration', {
      method: 'POST',
      body: { source: { kind: 'upload', name: 'x.txt', base64: '***' } },
    })
    expect(answer.status).toBe(400)
    expect(answer.json.error).toMatch(/base64/)
    const notJson = await api('/api/migration', {
      method: 'POST',
      body: 'source=bucket',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(notJson.status).toBe(415)
  })

  test('the crawler form needs a business name and a URL-shaped website', async () => {
    const answer = await api('/api/crawler/crawl', {
      method: 'POST',
      body: { businessName: '', websiteUrl: 'not a url' },
    })
    expect(answer.status).toBe(400)
    expect(answer.json.issues.map((issue: { path: string }) => issue.path).sort()).toEqual([
      'businessName',
      'websiteUrl',
    ])
  })
})

describe('bad characters (issue 43)', () => {
  test('an import preview of a file with a control character is refused naming the line, and changes nothing', async () => {
    const before = (await api('/api/migration')).json.businessCount
    const text = rolandText(['Lakeview Bakery', 'Bell\u0007 Hardware'])
    const answer = await api('/api/migration/preview', {
      method: 'POST',
      body: { source: { kind: 'upload', name: 'Roland.txt', base64: Buffer.from(text).toString('base64') } },
    })
    expect(answer.status).toBe(422)
    expect(answer.json.error).toMatch(
      /^Roland\.txt cannot be imported: Roland\.txt line \d+ contains an invisible control character \(U\+0007\).*"Bell\uFFFD Hardware - A family business/,
    )
    expect((await api('/api/migration')).json.businessCount).toBe(before)
  })

  test('the crawler form, the file name of an upload and the audit query refuse control characters with 400', async () => {
    const crawl = await api('/api/crawler/crawl', {
      method: 'POST',
      body: { businessName: 'Bell\u0000 Hardware', websiteUrl: 'https://example.com' },
    })
    expect(crawl.status).toBe(400)
    expect(crawl.json.issues).toEqual([
      { path: 'businessName', message: expect.stringMatching(/^Business name contains/) },
    ])
    const named = await api('/api/migration/preview', {
      method: 'POST',
      body: { source: { ...upload(['Lakeview Bakery']).source, name: 'Roland\u0000.txt' } },
    })
    expect(named.status).toBe(400)
    expect((await api('/api/audit?row=a%00b')).status).toBe(400)
  })
})

describe('a job’s lifecycle', () => {
  test('a migration runs as a job: recorded, running with progress and log pushed live, then succeeded with its result', async () => {
    const stream = await openEvents(server)
    try {
      const before = (await api('/api/migration')).json
      expect(before).toMatchObject({ isComplete: true, bucketHasFile: true })

      const preview = await api('/api/migration/preview', { method: 'POST', body: upload(['Lakeview Bakery']) })
      expect(preview.status).toBe(200)
      expect(preview.json.dryRun).toBe(true)
      expect(preview.json.summary.added).toBe(1)
      expect(preview.json.summary.deactivated).toBe(before.businessCount)
      expect((await api('/api/migration')).json.businessCount).toBe(before.businessCount)

      const started = await api('/api/migration', { method: 'POST', body: upload(['Lakeview Bakery']) })
      expect(started.status).toBe(202)
      const job = started.json.job as Job
      expect(job.kind).toBe('migrate')
      expect(job.started_by).toBe(`console:${process.pid}`)

      const finished = await waitForJob(server, job.id)
      expect(finished.status).toBe('succeeded')
      // The file lists one business: the sample's are deactivated, so one is active.
      expect(finished.result).toMatchObject({
        businessCount: 1,
        summary: { added: 1, deactivated: before.businessCount },
      })
      expect(finished.log.map((line) => line.message).join('\n')).toMatch(/Parsed 1 businesses/)
      expect(finished.started_at).not.toBeNull()
      expect(finished.finished_at).not.toBeNull()

      await waitFor(
        () => stream.events.some((e) => e.event === 'job' && e.data.id === job.id && e.data.status === 'succeeded'),
        'the succeeded event',
      )
      const mine = stream.events.filter((e) => e.data?.id === job.id)
      expect(mine.some((e) => e.event === 'job' && e.data.status === 'running')).toBe(true)
      expect(mine.filter((e) => e.event === 'progress').map((e) => e.data.progress.phase)).toEqual([
        'reading',
        'parsing',
        'importing',
        'done',
      ])
      expect(mine.some((e) => e.event === 'log')).toBe(true)
      expect((await api('/api/jobs')).json.jobs.some((j: Job) => j.id === job.id && j.status === 'succeeded')).toBe(
        true,
      )
      expect((await api('/api/migration')).json).toMatchObject({ isComplete: true, businessCount: 1 })
    } finally {
      stream.close()
    }
  })

  test('a migration that cannot import fails as a job with SPEC’s message, and changes nothing', async () => {
    const count = (await api('/api/migration')).json.businessCount
    const started = await api('/api/migration', {
      method: 'POST',
      body: { source: { kind: 'upload', name: 'empty.txt', base64: Buffer.from('\n\n  \n').toString('base64') } },
    })
    expect(started.status).toBe(202)
    const finished = await waitForJob(server, started.json.job.id)
    expect(finished.status).toBe('failed')
    expect(finished.error).toMatch(/^Roland\.txt cannot be imported: /)
    expect((await api('/api/migration')).json.businessCount).toBe(count)
  })

  test('jobs run from the CLI show up in the console’s live updates', { timeout: 180_000 }, async () => {
    const cliHook = await startHookReceiver()
    const stream = await openEvents(server)
    try {
      const exit = await new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/src/cli.ts'), 'rebuild', '--json'], {
          cwd: repoRoot,
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            ROLAND_DATA_DIR: data.dir,
            REBUILD_HOOK_URL: cliHook.url,
          },
          stdio: 'ignore',
        })
        child.on('close', resolve)
      })
      expect(exit).toBe(0)
      expect(cliHook.calls).toHaveLength(1)
      const seen = await waitFor(
        () =>
          stream.events.find(
            (e) =>
              e.event === 'job' &&
              e.data.kind === 'rebuild' &&
              e.data.started_by === 'cli' &&
              e.data.status === 'succeeded',
          ),
        'the CLI rebuild in the event stream',
      )
      expect(seen.data.result).toMatchObject({ mode: 'hook', status: 200 })
    } finally {
      stream.close()
      await cliHook.close()
    }
  })
})

describe('rebuild', () => {
  test('a CLI migration that changed data, seen by the console, causes one rebuild', { timeout: 180_000 }, async () => {
    await rebuildsSettled()
    const stream = await openEvents(server)
    const callsBefore = hook.calls.length
    const file = path.join(data.dir, 'cli-Roland.txt')
    await writeFile(file, rolandText(['Pinnacle Kayaks', 'Valley Feed Store', 'Lakeview Bakery', 'Roland Tax Help']))
    try {
      const exit = await new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/src/cli.ts'), 'migrate', '--file', file], {
          cwd: repoRoot,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, ROLAND_DATA_DIR: data.dir },
          stdio: 'ignore',
        })
        child.on('close', resolve)
      })
      expect(exit).toBe(0)
      await waitFor(
        () =>
          stream.events.find(
            (e) =>
              e.event === 'job' &&
              e.data.kind === 'rebuild' &&
              e.data.status === 'succeeded' &&
              e.data.started_by !== 'cli',
          ),
        'the console’s rebuild after the CLI migration',
      )
      await rebuildsSettled()
      expect(hook.calls.length - callsBefore).toBe(1)
    } finally {
      stream.close()
    }
  })

  test('jobs that change data and finish close together cause one rebuild, which calls the hook once', async () => {
    await rebuildsSettled()
    const callsBefore = hook.calls.length
    const first = await api('/api/migration', { method: 'POST', body: upload(['Pinnacle Kayaks', 'Lakeview Bakery']) })
    const second = await api('/api/migration', {
      method: 'POST',
      body: upload(['Pinnacle Kayaks', 'Maumelle Marina', 'Lakeview Bakery']),
    })
    expect([first.status, second.status]).toEqual([202, 202])
    expect((await waitForJob(server, first.json.job.id)).status).toBe('succeeded')
    expect((await waitForJob(server, second.json.job.id)).status).toBe('succeeded')

    const rebuild = await waitFor(async () => {
      const jobs = (await api('/api/jobs')).json.jobs as Job[]
      return jobs.find(
        (j) =>
          j.kind === 'rebuild' &&
          j.status === 'succeeded' &&
          j.started_by.startsWith('console') &&
          Date.parse(j.created_at) >= Date.parse(second.json.job.created_at),
      )
    }, 'the rebuild after the migrations')
    await server.services.scheduler.idle()
    expect(hook.calls.length - callsBefore).toBe(1)
    expect(hook.calls.at(-1)).toMatchObject({ method: 'POST', contentType: 'application/json' })
    expect(rebuild.params).toMatchObject({ mode: 'hook', trigger: 'jobs' })
    expect((rebuild.params as { jobs: string[] }).jobs.sort()).toEqual([first.json.job.id, second.json.job.id].sort())
    expect(rebuild.result).toMatchObject({ mode: 'hook', status: 200 })
    const state = (await api('/api/rebuild')).json
    expect(state.state).toMatchObject({ mode: 'hook', pending: false, running: false })
    expect(state.last.id).toBe(rebuild.id)
    // The hook's address is a secret of its own: no answer names it.
    expect(JSON.stringify(state)).not.toContain('secret-hook-id')
  })

  test('a migration that changes nothing does not rebuild; the Rebuild site button does', async () => {
    await rebuildsSettled()
    const callsBefore = hook.calls.length
    const same = await api('/api/migration', {
      method: 'POST',
      body: upload(['Pinnacle Kayaks', 'Maumelle Marina', 'Lakeview Bakery']),
    })
    const finished = await waitForJob(server, same.json.job.id)
    expect(finished.result).toMatchObject({ summary: { added: 0, updated: 0, deactivated: 0 } })
    // The scheduler hears of a job's end only after its row says so: wait for the job's own promise,
    // not for "no rebuild is due", which already holds before the scheduler has heard anything.
    await server.services.jobs.idle()
    expect(server.services.scheduler.state).toMatchObject({ pending: false, running: false })
    expect(hook.calls.length).toBe(callsBefore)

    const manual = await api('/api/rebuild', { method: 'POST' })
    expect(manual.status).toBe(202)
    expect(manual.json.outcome).toBe('started')
    await waitFor(() => hook.calls.length === callsBefore + 1, 'the manual rebuild to call the hook')
    await server.services.scheduler.idle()
    const last = (await api('/api/rebuild')).json.last as Job
    expect(last).toMatchObject({ status: 'succeeded', params: { trigger: 'manual' } })
  })
})

describe('crawls and images', () => {
  test('a crawl may not reach 127.0.0.1 unless ROLAND_ALLOW_PRIVATE_NETWORK=1 says so', async () => {
    const site = await startFixtureSite('wordpress-bakery')
    try {
      const started = await api('/api/crawler/crawl', {
        method: 'POST',
        body: { businessName: 'Main Street Bakery', websiteUrl: site.url('/') },
      })
      expect(started.status).toBe(202)
      expect(started.json.job.params).toMatchObject({ engine: 'builtin', allowPrivateNetwork: false })
      const finished = await waitForJob(server, started.json.job.id)
      expect(finished.status).toBe('failed')
      expect(finished.error).toMatch(/^Failed to crawl business images: .*127\.0\.0\.1/)
      expect(site.requests).toHaveLength(0)
    } finally {
      await site.close()
    }
  })

  test('generating an image for a business runs as a job, adds its hero, and rebuilds the site', async () => {
    await rebuildsSettled()
    const callsBefore = hook.calls.length
    const business = (
      (await api('/api/businesses')).json.businesses as Array<{
        id: string
        slug: string
        is_active: boolean
        images: unknown[]
      }>
    ).find((b) => b.is_active)!
    const started = await api(`/api/businesses/${business.id}/generate-image`, { method: 'POST' })
    expect(started.status).toBe(202)
    const finished = await waitForJob(server, started.json.job.id)
    expect(finished).toMatchObject({
      kind: 'images',
      status: 'succeeded',
      params: { target: business.slug },
      result: { summary: { generated: 1 } },
    })
    const after = (
      (await api('/api/businesses')).json.businesses as Array<{
        id: string
        images: Array<{ image_type: string; image_url: string }>
      }>
    ).find((b) => b.id === business.id)!
    expect(after.images).toHaveLength(business.images.length + 1)
    const image = after.images.find((i) => i.image_type === 'hero')!
    const file = await call(server, image.image_url)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('image/png')
    await waitFor(() => hook.calls.length === callsBefore + 1, 'the rebuild after the image')
    expect((await api(`/api/businesses/${business.id}/generate-image`, { method: 'GET' })).status).toBe(405)
    expect((await api('/api/businesses/not-a-uuid/crawl', { method: 'POST' })).status).toBe(400)
  })

  test("'Optimize photos' makes the missing derivatives as a job, then finds nothing to do", async () => {
    // A photo stored before the pipeline: its original in the bucket, its row without derivatives.
    const photo = await photoJpeg(500, 300)
    const business = ((await api('/api/businesses')).json.businesses as Array<{ id: string }>)[0]!
    await server.services.store.use(async (store) => {
      await store.files.put('business-images/before-the-pipeline.jpg', photo, {
        contentType: 'image/jpeg',
        upsert: true,
      })
      await store.addImage({
        business_id: business.id,
        image_url: store.files.publicUrl('business-images/before-the-pipeline.jpg'),
        alt_text: null,
        image_type: 'gallery',
        is_primary: false,
        sort_order: 9,
        metadata: {},
      })
    })
    const started = await api('/api/jobs/optimize-images', { method: 'POST' })
    expect(started.status).toBe(202)
    const finished = await waitForJob(server, started.json.job.id)
    expect(finished).toMatchObject({
      kind: 'images',
      status: 'succeeded',
      params: { action: 'optimize', target: 'missing' },
      result: { summary: { optimized: 1, failed: 0 } },
    })
    const again = await waitForJob(server, (await api('/api/jobs/optimize-images', { method: 'POST' })).json.job.id)
    expect(again.result).toMatchObject({ summary: { optimized: 0, unchanged: 0, failed: 0 } })
    expect(again.log.map((line) => line.message)).toContain(
      'Optimized 0, unchanged 0, skipped ' +
        String((again.result as { summary: { skipped: number } }).summary.skipped) +
        ', failed 0.',
    )
  })
})

describe('the Firecrawl key', () => {
  test('an empty key or a key Firecrawl refuses is not saved, with SPEC’s messages', async () => {
    const empty = await api('/api/crawler/key', { method: 'PUT', body: { apiKey: '  ' } })
    expect(empty.status).toBe(400)
    expect(empty.json.error).toBe('Please enter your Firecrawl API key')
    const refused = await api('/api/crawler/key', { method: 'PUT', body: { apiKey: 'fc-typo' } })
    expect(refused.status).toBe(400)
    expect(refused.json.error).toBe('Invalid API key. Please check and try again.')
    expect((await api('/api/crawler')).json).toEqual({ engine: 'builtin', keyStored: false, keySource: null })
  })

  test('a valid key is stored on the server (mode 0600) and never sent back', async () => {
    const saved = await api('/api/crawler/key', { method: 'PUT', body: { apiKey: firecrawlKey } })
    expect(saved.status).toBe(200)
    expect(saved.json.message).toBe('API key validated and saved')
    expect((await api('/api/crawler')).json).toEqual({ engine: 'firecrawl', keyStored: true, keySource: 'console' })
    const info = await stat(server.services.keys.file)
    expect(info.mode & 0o777).toBe(0o600)
    for (const pathname of ['/api/crawler', '/api/jobs', '/api/businesses', '/api/rebuild', '/api/migration'])
      await api(pathname)
    for (const text of responses) expect(text).not.toContain(firecrawlKey)
    expect((await api('/api/crawler/key', { method: 'DELETE' })).json.settings).toEqual({
      engine: 'builtin',
      keyStored: false,
      keySource: null,
    })
  })
})

describe('restarts', () => {
  test('the job history survives a restart, and jobs a stopped console left running are marked interrupted', async () => {
    const before = ((await api('/api/jobs')).json.jobs as Job[]).map((j) => j.id)
    await server.close()

    // A console that died mid-job: its pid is gone, its job still says running.
    const deadPid = await deadProcessId()
    const store = await openStore({ env: { ROLAND_DATA_DIR: data.dir } })
    const orphan = await store.jobs.create('crawl', { businessName: 'Orphan' }, `console:${deadPid}`)
    await store.jobs.update(orphan.id, { status: 'running', started_at: new Date().toISOString() })
    await store.close()

    server = await start()
    const after = (await api('/api/jobs')).json.jobs as Job[]
    expect(after.map((j) => j.id)).toEqual(expect.arrayContaining(before))
    expect(after.find((j) => j.id === orphan.id)).toMatchObject({ status: 'interrupted', error: interruptedMessage })
  })
})

describe('slowing down wrong secrets and passwords', () => {
  // Last: the lockout applies to every caller from 127.0.0.1.
  test('past three wrong passwords, sign-in answers 429 with Retry-After, even for the right password', async () => {
    const attempt = (email: string, password: string) =>
      api('/api/session', { method: 'POST', auth: 'none', body: { email, password } })
    for (let i = 0; i < 3; i++) expect((await attempt(`nobody-${i}@example.org`, `wrong-${i}`)).status).toBe(401)
    const fourth = await attempt('nobody@example.org', 'wrong-again')
    expect(fourth.status).toBe(401)
    const locked = await attempt('admin@example.org', testPassword)
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(locked.headers.get('set-cookie')).toBeNull()
    expect((await api('/api/jobs')).status).toBe(429)
  })
})
