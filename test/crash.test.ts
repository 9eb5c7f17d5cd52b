import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { generateRolandText } from '../scripts/bench/migrate.bench.ts'
import { runCrawl } from '@roland/scripts/crawl/job'
import { optimizeImages } from '@roland/scripts/images/optimize'
import { interruptedMessage } from '@roland/scripts/jobs/interrupted'
import { runMigration } from '@roland/scripts/migrate/job'
import { repoRoot } from '@roland/scripts/paths'
import type { EmbeddedStore } from '@roland/scripts/store/embedded'
import type { Job } from '@roland/scripts/store/types'
import { openStore } from '@roland/scripts/store/index'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startFixtureSite, type FixtureSite } from '../scripts/test/crawl-fixture-server.ts'
import { copyFolder, sampleStoreIn } from '../scripts/test/support/fresh-store.ts'
import { photoJpeg } from '../scripts/test/support/image-fixtures.ts'

// DESIGN.md, "Backups and crashes": the CLI and the console are killed with SIGKILL at seeded random
// moments in the middle of each kind of job. After each kill the next start must find the database
// whole, every content table as before the job or as after it, no job left 'running', no file in
// storage that no row names (nor a half-written one), and the same job must then succeed.
// A failure names its seed: ROLAND_CRASH_SEED=<seed> replays the same kill moments.

const seed = Number(process.env.ROLAND_CRASH_SEED) || 20261126
const random = mulberry32(seed)
const cli = path.join(repoRoot, 'scripts', 'src', 'cli.ts')
const consoleMain = path.join(repoRoot, 'console', 'src', 'server', 'main.ts')
const consoleToken = 'crash-test-console-token-0123456789'
const kills: Record<string, number> = {}
/** How many times each kind of job was to be killed (a kill that comes after the job ended misses). */
const attempts: Record<string, number> = {}

/** A small seeded PRNG (mulberry32): the same seed gives the same kill moments. */
function mulberry32(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

let work: string
let pristine: string

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'roland-crash-'))
  // One database with the sample data, copied for each run: the run's copy of what `roland db init`
  // makes (sampleStoreIn), which creating took a CLI process 3.3 CPU-s.
  pristine = path.join(work, 'pristine')
  expect(await sampleStoreIn(pristine)).toBe(true)
})

afterAll(async () => {
  process.stdout.write(
    `crash test (seed ${seed}): kills ${JSON.stringify(kills)} of attempts ${JSON.stringify(attempts)}\n`,
  )
  await rm(work, { recursive: true, force: true })
})

// ---- processes -------------------------------------------------------------------------------

interface Exit {
  code: number | null
  stdout: string
  stderr: string
}

function environment(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
    ROLAND_DATA_DIR: dataDir,
    ...extra,
  }
}

function started(child: ChildProcess): { exited: Promise<Exit>; output: () => string } {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const exited = new Promise<Exit>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
  return { exited, output: () => stdout + stderr }
}

function spawnCli(dataDir: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [cli, ...args], { cwd: repoRoot, env: environment(dataDir, env) })
  return { child, ...started(child) }
}

/** Runs a CLI command to its end. */
async function runCli(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<Exit> {
  return spawnCli(dataDir, args, env).exited
}

/** Waits until the embedded database's lock names this process: it has opened the database. */
async function lockHeldBy(dataDir: string, pid: number, exited: Promise<unknown>): Promise<boolean> {
  let done = false
  void exited.then(() => (done = true))
  while (!done) {
    const holder = await readFile(path.join(dataDir, 'db.lock'), 'utf8').catch(() => '')
    if (Number(holder) === pid) return true
    await sleep(5)
  }
  return false
}

/** Waits until the job writes its first file to storage (a photo's first derivative). */
async function firstFileWritten(dataDir: string, exited: Promise<unknown>): Promise<boolean> {
  let done = false
  void exited.then(() => (done = true))
  const before = (await storedFiles(dataDir)).length
  while (!done) {
    if ((await storedFiles(dataDir)).length > before) return true
    await sleep(10)
  }
  return false
}

/**
 * When a kill's moment is counted from: the job opened the database ('lock'), wrote its first file
 * to storage ('files', the part of a crawl or a backfill that stores photos), or started ('spawn').
 */
type Anchor = 'lock' | 'files' | 'spawn'

async function anchored(anchor: Anchor, dataDir: string, run: { child: ChildProcess; exited: Promise<Exit> }) {
  if (anchor === 'lock') return lockHeldBy(dataDir, run.child.pid!, run.exited)
  if (anchor === 'files') return firstFileWritten(dataDir, run.exited)
  return true
}

/**
 * Runs a CLI job once to its end and measures its window: from its anchor to its exit. The kills
 * land at seeded random moments within it.
 */
async function measureWindow(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
  anchor: Anchor = 'lock',
): Promise<number> {
  const run = spawnCli(dataDir, args, env)
  expect(await anchored(anchor, dataDir, run)).toBe(true)
  const from = performance.now()
  const exit = await run.exited
  expect(exit.code, exit.stderr).toBe(0)
  return performance.now() - from
}

/**
 * Starts a CLI job and kills it (SIGKILL) a seeded random time into its window: after it opened the
 * database, or (anchor 'spawn') after it started. A kill that misses (the job ended first) says how
 * long the job ran from its anchor, `ranMs`: the window to aim within next time.
 */
async function killCli(
  kind: string,
  dataDir: string,
  args: string[],
  windowMs: number,
  env: Record<string, string> = {},
  anchor: Anchor = 'lock',
): Promise<{ delayMs: number; killed: boolean; ranMs?: number }> {
  const delayMs = Math.round(random() * windowMs)
  const run = spawnCli(dataDir, args, env)
  const seen = await anchored(anchor, dataDir, run)
  const from = performance.now()
  await Promise.race([sleep(delayMs), run.exited])
  const killed = await kill(kind, run)
  return { delayMs, killed, ranMs: !killed && seen ? performance.now() - from : undefined }
}

/**
 * The window the next kill aims within. A job's length swings with the machine's load: measured
 * once on a busy machine, the window can be several times what the job takes later, and most kills
 * miss (CI: 3 kills in 12 attempts). So a miss narrows the window to what that run took.
 */
function narrowed(windowMs: number, attempt: { ranMs?: number }): number {
  return attempt.ranMs === undefined ? windowMs : Math.min(windowMs, attempt.ranMs)
}

/** Kills a process with SIGKILL, unless it has ended; counts the attempt, and the kill. */
async function kill(kind: string, run: { child: ChildProcess; exited: Promise<Exit> }): Promise<boolean> {
  attempts[kind] = (attempts[kind] ?? 0) + 1
  const killed = run.child.exitCode === null && run.child.kill('SIGKILL')
  await run.exited
  if (killed) kills[kind] = (kills[kind] ?? 0) + 1
  return killed
}

// ---- what the next start finds -----------------------------------------------------------------

const contentTables = [
  'businesses',
  'business_services',
  'business_images',
  'business_hours',
  'location_categories',
  'attractions',
  'community_events',
] as const

type Snapshot = Record<string, string[]>

// What differs between two runs of the same job: ids, times, and the times a job writes into metadata.
const volatileKeys = new Set(['id', 'created_at', 'updated_at'])
const volatileMetadata = ['migratedAt', 'crawledAt']

/** Every content table as sorted lines of JSON, without what differs between two runs of one job. */
async function snapshot(store: EmbeddedStore): Promise<Snapshot> {
  const slugs = new Map(
    (await store.db.query<{ id: string; slug: string }>('select id, slug from public.businesses')).rows.map((row) => [
      row.id,
      row.slug,
    ]),
  )
  const result: Snapshot = {}
  for (const table of contentTables) {
    const { rows } = await store.db.query<{ row: Record<string, unknown> }>(
      `select to_jsonb(t) as row from public.${table} t`,
    )
    result[table] = rows
      .map(({ row }) => {
        const clean: Record<string, unknown> = {}
        for (const [key, value] of Object.entries(row)) {
          if (volatileKeys.has(key)) continue
          if (key === 'business_id') clean.business = slugs.get(value as string)
          else if (key === 'metadata' && value && typeof value === 'object') {
            const metadata = { ...(value as Record<string, unknown>) }
            for (const name of volatileMetadata) delete metadata[name]
            clean.metadata = metadata
          } else clean[key] = value
        }
        return JSON.stringify(clean, Object.keys(clean).sort())
      })
      .sort()
  }
  return result
}

/** Says which of the states a snapshot is, by name, or lists the tables that match none. */
function whichState(actual: Snapshot, states: Record<string, Snapshot>): string {
  for (const [name, state] of Object.entries(states)) {
    if (contentTables.every((table) => JSON.stringify(actual[table]) === JSON.stringify(state[table]))) return name
  }
  const differing = contentTables.filter((table) =>
    Object.values(states).every((state) => JSON.stringify(actual[table]) !== JSON.stringify(state[table])),
  )
  return `none of ${Object.keys(states).join(', ')} (tables ${differing.join(', ')})`
}

/** Every file in the storage folder, by bucket path. */
async function storedFiles(dataDir: string): Promise<string[]> {
  const root = path.join(dataDir, 'storage', 'files')
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort()
}

/** Files no business_images row names (Roland.txt, the business list, is no picture), and half-written ones. */
async function orphanedFiles(store: EmbeddedStore, dataDir: string): Promise<string[]> {
  const { rows } = await store.db.query<{ url: string }>(`
    select image_url as url from public.business_images
    union all select v ->> 'url' from public.business_images, jsonb_array_elements(variants) v`)
  const named = new Set(rows.map(({ url }) => url.replace(/^\/files\//, '')))
  return (await storedFiles(dataDir)).filter((file) => file !== 'Roland.txt' && !named.has(file))
}

/**
 * Opens the store as the next CLI command would (the start after the kill) and checks what it
 * finds: the database opens, the content is one of the states, no job is left queued or running
 * (the killed one says interrupted), no file is orphaned. Returns the open store and the state's name.
 */
async function checkAfterKill(
  dataDir: string,
  states: Record<string, Snapshot>,
  context: string,
): Promise<{ store: EmbeddedStore; state: string }> {
  const store = (await openStore({ env: environment(dataDir, { SUPABASE_URL: '' }) })) as EmbeddedStore
  try {
    const state = whichState(await snapshot(store), states)
    expect(Object.keys(states), `${context}: the content is ${state}`).toContain(state)
    const jobs = await store.jobs.list(500)
    expect(
      jobs.filter((job) => job.status === 'queued' || job.status === 'running'),
      `${context}: no job left running`,
    ).toEqual([])
    for (const job of jobs.filter((j) => j.status === 'interrupted')) expect(job.error).toBe(interruptedMessage)
    expect(await orphanedFiles(store, dataDir), `${context}: no orphaned file`).toEqual([])
    return { store, state }
  } catch (error) {
    await store.close()
    throw error
  }
}

/** A fresh data folder: a copy of the pristine one, then what the case sets up. */
async function freshDataDir(name: string, from = pristine): Promise<string> {
  const dir = path.join(work, name)
  await rm(dir, { recursive: true, force: true })
  copyFolder(from, dir)
  return dir
}

async function withStore<T>(dataDir: string, fn: (store: EmbeddedStore) => Promise<T>): Promise<T> {
  const store = (await openStore({ env: environment(dataDir, { SUPABASE_URL: '' }) })) as EmbeddedStore
  try {
    return await fn(store)
  } finally {
    await store.close()
  }
}

/**
 * Kills a CLI job `count` times, each time from the same starting folder: after each kill, the
 * next start finds the content before or after the job, and the same job then succeeds.
 */
async function killRepeatedly(options: {
  kind: string
  setup: string
  args: string[]
  count: number
  env?: Record<string, string>
  anchor?: Anchor
  /** Runs the same job again, in this process, on the store the check opened. */
  again: (store: EmbeddedStore) => Promise<unknown>
}): Promise<void> {
  const { kind, setup, args, count, env } = options
  const reference = await freshDataDir(`${kind}-reference`, setup)
  const before = await withStore(reference, snapshot)
  let windowMs = await measureWindow(reference, args, env, options.anchor)
  const after = await withStore(reference, snapshot)
  expect(whichState(after, { before }), `${kind} changes the content`).not.toBe('before')
  let killed = 0
  for (let i = 0; killed < count && i < count * 3; i++) {
    const dir = await freshDataDir(`${kind}-${i}`, setup)
    const kill = await killCli(kind, dir, args, windowMs, env, options.anchor)
    const context = `${kind} killed ${kill.delayMs} ms after its ${options.anchor ?? 'lock'} anchor (seed ${seed}, run ${i})`
    if (kill.killed) killed++
    windowMs = narrowed(windowMs, kill)
    const { store } = await checkAfterKill(dir, { before, after }, context)
    try {
      const interrupted = (await store.jobs.list(500)).filter((job) => job.status === 'interrupted')
      expect(interrupted.length, `${context}: at most the killed job is interrupted`).toBeLessThan(2)
      // The same job, started again, succeeds and brings the content to the state after it.
      await options.again(store)
      expect(whichState(await snapshot(store), { after }), `${context}: after the job again`).toBe('after')
      expect(await orphanedFiles(store, dir)).toEqual([])
    } finally {
      await store.close()
    }
    await rm(dir, { recursive: true, force: true })
  }
  expect(killed, `${kind}: kills that landed before the job ended`).toBe(count)
}

/** Starts the console (`pnpm console`) on a free port; resolves once it listens. */
async function startConsole(dataDir: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [consoleMain], {
    cwd: repoRoot,
    env: environment(dataDir, { PORT: '0', CONSOLE_TOKEN: consoleToken, ...env }),
  })
  const run = { child, ...started(child) }
  let done = false
  void run.exited.then(() => (done = true))
  for (;;) {
    const url = run.output().match(/Roland console: (http:\/\/\S+)/)?.[1]
    if (url) return { ...run, url }
    if (done) throw new Error(`The console did not start: ${run.output()}`)
    await sleep(20)
  }
}

/** Calls the console's API as a script does, with CONSOLE_TOKEN. */
async function consoleApi(url: string, pathname: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${url}${pathname}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${consoleToken}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  return { status: response.status, json: (await response.json()) as Record<string, unknown> }
}

async function consoleJobs(url: string): Promise<Job[]> {
  const answer = await consoleApi(url, '/api/jobs')
  expect(answer.status).toBe(200)
  return answer.json.jobs as Job[]
}

// Each test kills a job several times and runs it again: one to two minutes alone (the slowest
// 123 s in a whole run of the suite), over five on a machine running another suite beside it.
const killsTimeout = 900_000

/**
 * Waits until a condition holds, looking every `everyMs` (the test's own timeout bounds it). The
 * console's API is asked at most every half second: the console keeps the embedded database open
 * for a quarter of a second after each call, and a local build waits for it to be closed.
 */
async function until<T>(look: () => Promise<T | undefined | false> | T | undefined | false, everyMs = 20): Promise<T> {
  for (;;) {
    const value = await look()
    if (value) return value
    await sleep(everyMs)
  }
}

// ---- the jobs -----------------------------------------------------------------------------------

describe(`crash safety (seed ${seed}; ROLAND_CRASH_SEED replays it)`, () => {
  test(
    'a migration killed at any moment leaves the businesses as before or after, and runs again',
    async () => {
      // 40 businesses: an import long enough for the kills to land inside it (its opening, its
      // transaction, its files and its end), short enough to run six times and again four.
      const file = path.join(work, 'roland-40.txt')
      await writeFile(file, generateRolandText(40))
      await killRepeatedly({
        kind: 'migrate',
        setup: pristine,
        args: ['migrate', '--file', file],
        count: 4,
        again: (store) => runMigration({ store, source: { file } }),
      })
    },
    killsTimeout,
  )

  describe('with a business website to crawl', () => {
    let site: FixtureSite
    let crawlSetup: string
    beforeAll(async () => {
      site = await startFixtureSite('wordpress-bakery')
      crawlSetup = await freshDataDir('crawl-setup')
      await withStore(crawlSetup, async (store) => {
        await store.db.query(`update public.businesses set website = $1 where slug = 'big-rock-coffee'`, [
          site.url('/'),
        ])
      })
    })
    afterAll(() => site.close())

    test(
      'a crawl killed while it stores photos adds all of them or none, and leaves no file behind',
      async () => {
        await killRepeatedly({
          kind: 'crawl',
          setup: crawlSetup,
          args: ['crawl', '--business', 'big-rock-coffee', '--engine', 'builtin', '--allow-private-network'],
          count: 5,
          anchor: 'files',
          again: (store) =>
            runCrawl({
              store,
              target: { slug: 'big-rock-coffee' },
              engine: { engine: 'builtin' },
              allowPrivateNetwork: true,
            }),
        })
      },
      killsTimeout,
    )

    test(
      'a photo backfill killed half-way records no derivative, and leaves no file behind',
      async () => {
        // Photos stored before the derivatives pipeline: rows and originals, no derivatives.
        const setup = await freshDataDir('optimize-setup')
        await withStore(setup, async (store) => {
          const businesses = (await store.listBusinesses()).slice(0, 3)
          for (const [index, business] of businesses.entries()) {
            const objectPath = `business-images/${business.id}-hero-crash${index}.jpg`
            await store.files.put(objectPath, await photoJpeg(640 + index * 8, 400), { contentType: 'image/jpeg' })
            await store.addImage({
              business_id: business.id,
              image_url: store.files.publicUrl(objectPath),
              alt_text: `${business.name} photo`,
              image_type: 'hero',
              is_primary: true,
              sort_order: 0,
              metadata: { source: 'upload' },
            })
          }
        })
        await killRepeatedly({
          kind: 'images',
          setup,
          args: ['images', 'optimize', '--all'],
          count: 4,
          anchor: 'files',
          again: (store) => optimizeImages({ store, missing: false }),
        })
      },
      killsTimeout,
    )
  })

  test(
    'a burst of console edits killed at any moment keeps the edits made, each whole and in order',
    async () => {
      const setup = await freshDataDir('edits-setup')
      const { before, edits } = await withStore(setup, async (store) => ({
        before: await snapshot(store),
        edits: (await store.listBusinesses()).slice(0, 16).map((business, index) => ({
          id: business.id,
          slug: business.slug,
          text: `Crash test edit ${index + 1}: each edit is its own transaction.`,
        })),
      }))
      // The content after the first k edits: the snapshot before, with those short descriptions.
      const afterEdits = (k: number): Snapshot => {
        const texts = new Map(edits.slice(0, k).map((edit) => [edit.slug, edit.text]))
        return {
          ...before,
          businesses: before
            .businesses!.map((line) => {
              const row = JSON.parse(line) as Record<string, unknown>
              const text = texts.get(row.slug as string)
              return text === undefined
                ? line
                : JSON.stringify({ ...row, short_description: text }, Object.keys(row).sort())
            })
            .sort(),
        }
      }
      const states = Object.fromEntries(
        edits.map((_, k) => [String(k), afterEdits(k)]).concat([[String(edits.length), afterEdits(edits.length)]]),
      )
      const patch = (url: string, edit: (typeof edits)[number]) =>
        consoleApi(url, `/api/businesses/${edit.id}`, { method: 'PATCH', body: { short_description: edit.text } })

      // Edits, not rebuilds: no build's process started ahead on each edit (the rebuild's test keeps it).
      const editsOnly = { ROLAND_REBUILD_STANDBY: 'off' }
      for (let round = 0; round < 4; round++) {
        const dir = await freshDataDir(`edits-${round}`, setup)
        const running = await startConsole(dir, editsOnly)
        const killAfter = 1 + Math.floor(random() * (edits.length - 2))
        const extraMs = Math.round(random() * 40)
        let acknowledged = 0
        const burst = (async () => {
          for (const edit of edits) {
            const answer = await patch(running.url, edit)
            expect(answer.status).toBe(200)
            acknowledged++
          }
        })().catch(() => {})
        await until(() => acknowledged >= killAfter)
        await sleep(extraMs)
        expect(await kill('edits', running)).toBe(true)
        await burst
        const context = `edits killed ${extraMs} ms after the ${killAfter}th answer (seed ${seed}, round ${round})`

        // The console starts again: the edits it answered are there, in order, each whole.
        const again = await startConsole(dir, editsOnly)
        try {
          expect((await consoleJobs(again.url)).filter((job) => job.status === 'running')).toEqual([])
          const { store, state } = await checkAfterKill(dir, states, context)
          await store.close()
          const applied = Number(state)
          expect(applied, `${context}: every answered edit is kept`).toBeGreaterThanOrEqual(acknowledged)
          expect(applied, `${context}: at most the edit in flight besides`).toBeLessThanOrEqual(acknowledged + 1)
          // The rest of the burst then goes through.
          for (const edit of edits.slice(applied)) expect((await patch(again.url, edit)).status).toBe(200)
        } finally {
          again.child.kill('SIGTERM')
          await again.exited
        }
        await withStore(dir, async (store) => {
          expect(whichState(await snapshot(store), { all: afterEdits(edits.length) }), context).toBe('all')
        })
        await rm(dir, { recursive: true, force: true })
      }
    },
    killsTimeout,
  )

  test(
    'a rebuild killed at any moment leaves the published site the old one or the new one, never half',
    async () => {
      const dir = await freshDataDir('rebuild')
      const outDir = path.join(work, 'site', 'dist')
      const env = { ROLAND_OUT_DIR: outDir }
      const page = path.join(outDir, 'business', 'big-rock-coffee', 'index.html')
      const marker = 'Crash test: the new site.'
      /** The published site: its files, and whether the changed page is the new one. */
      const published = async () => {
        const files = await readdir(outDir, { recursive: true }).catch(() => [] as string[])
        const text = await readFile(page, 'utf8').catch(() => '')
        return JSON.stringify({ files: files.sort(), isNew: text.includes(marker) })
      }
      // The old site, and how long a build takes here.
      const started = performance.now()
      const first = await runCli(dir, ['rebuild'], env)
      expect(first.code, first.stderr).toBe(0)
      const buildMs = performance.now() - started
      let windowMs = buildMs
      const old = await published()
      await withStore(dir, (store) =>
        store.db.query(`update public.businesses set short_description = $1 where slug = 'big-rock-coffee'`, [marker]),
      )
      const before = await withStore(dir, snapshot)
      const seen: string[] = []

      let killed = 0
      for (let round = 0; killed < 2 && round < 5; round++) {
        const attempt = await killCli('rebuild', dir, ['rebuild'], windowMs, env, 'spawn')
        if (attempt.killed) killed++
        windowMs = narrowed(windowMs, attempt)
        const context = `rebuild killed ${attempt.delayMs} ms after it started (seed ${seed}, round ${round})`
        seen.push(await published())
        const { store } = await checkAfterKill(dir, { before }, context)
        await store.close()
      }
      expect(killed, 'rebuild: kills that landed before the build ended').toBe(2)

      // The console too, in the middle of a rebuild it runs.
      const running = await startConsole(dir, env)
      const earlier = new Set((await consoleJobs(running.url)).map((j) => j.id))
      expect((await consoleApi(running.url, '/api/rebuild', { method: 'POST' })).status).toBe(202)
      const job = await until(
        async () =>
          (await consoleJobs(running.url)).find(
            (j) => j.kind === 'rebuild' && !earlier.has(j.id) && j.status === 'running',
          ),
        500,
      )
      // Within the first third of a full build's time: the console's build is incremental, shorter.
      await sleep(Math.round((random() * buildMs) / 3))
      expect(await kill('rebuild', running)).toBe(true)
      seen.push(await published())

      // The console starts again: it shows the rebuild interrupted, and a rebuild then succeeds.
      const again = await startConsole(dir, env)
      try {
        const jobs = await consoleJobs(again.url)
        // Interrupted, unless the build had finished when the console was killed.
        const killedJob = jobs.find((j) => j.id === job.id)!
        if (killedJob.status !== 'succeeded')
          expect(killedJob).toMatchObject({ status: 'interrupted', error: interruptedMessage })
        expect(jobs.filter((j) => j.status === 'running' || j.status === 'queued')).toEqual([])
        const known = new Set(jobs.map((j) => j.id))
        expect((await consoleApi(again.url, '/api/rebuild', { method: 'POST' })).status).toBe(202)
        const rebuilt = await until(
          async () =>
            (await consoleJobs(again.url)).find(
              (j) => j.kind === 'rebuild' && !known.has(j.id) && (j.status === 'succeeded' || j.status === 'failed'),
            ),
          500,
        )
        expect(rebuilt.status, rebuilt.error ?? '').toBe('succeeded')
      } finally {
        again.child.kill('SIGTERM')
        await again.exited
      }
      const fresh = await published()
      expect(JSON.parse(fresh).isNew).toBe(true)
      for (const site of seen) expect([old, fresh], `a kill left a half-published site (seed ${seed})`).toContain(site)
    },
    killsTimeout,
  )
})
