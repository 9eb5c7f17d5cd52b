import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { addOperator, asServiceRole, embeddedDb } from '@roland/scripts/operators/accounts'
import { repoRoot } from '@roland/scripts/paths'
import type { OperatorRole, OperatorView } from '@roland/scripts/operators/schema'
import type { Job } from '@roland/scripts/store/types'
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { preloadAxe } from '../../../test/support/axe.ts'
import { launchBrowser } from '../../../test/support/browser.ts'
import { sampleStoreIn } from '../../../scripts/test/support/fresh-store.ts'
import { ensureAppBuilt } from '../../src/server/build-app.ts'
import { publicSubmissionsPath } from '../../src/server/public-submissions.ts'
import { readConsoleConfig } from '../../src/server/config.ts'
import { startConsoleServer, type ConsoleServer, type ConsoleServerOptions } from '../../src/server/server.ts'

/** The automation token (CONSOLE_TOKEN) the tests call the API with as a bearer token. */
export const testSecret = 'test-console-secret-0123456789'

/** The password of every operator the tests create. */
export const testPassword = 'a long test password 4 operators'

/** A temporary data folder for one test file's embedded database. */
export async function tempDataDir(prefix = 'roland-console-'): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

/** Starts a console on a free port of 127.0.0.1 with a data folder and settings for tests. */
export async function startTestConsole(options: {
  dataDir: string
  env?: Record<string, string>
  serveApp?: boolean
  signInLimits?: ConsoleServerOptions['signInLimits']
  accountLimits?: ConsoleServerOptions['accountLimits']
  webhookRetryDelaysMs?: number[]
  submissionWatchMs?: number
}): Promise<ConsoleServer> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: '0',
    CONSOLE_TOKEN: testSecret,
    ROLAND_DATA_DIR: options.dataDir,
    ROLAND_JOBS_POLL_MS: '200',
    ROLAND_REBUILD_DEBOUNCE_MS: '300',
    // A scheduled check would start jobs no test asked for; a test of the schedule turns it on.
    ROLAND_CHECK_EVERY: 'off',
    // A build's process started ahead on each saved edit, which most tests never rebuild after
    // (about 1.5 s of CPU each time, some twenty times a run); e2e.test.ts keeps it on, as the console runs.
    ROLAND_REBUILD_STANDBY: 'off',
    ...options.env,
  }
  // An empty data folder gets the store the console would create in it (migrations, seed and the
  // sample import), copied from the one the unit tests' global setup made.
  if (!env.SUPABASE_URL) await sampleStoreIn(options.dataDir)
  return startConsoleServer({
    config: readConsoleConfig(env),
    // The console closes its database once idle, 250 ms by default, so that a CLI job or a build
    // gets in. A browser test's requests come a few hundred milliseconds apart: the console tests
    // opened the database again about 210 times, at about 0.3 s of CPU each, against 111 with two
    // seconds. How the lease closes is tested on its own (scripts/src/store/leased.test.ts).
    storeIdleMs: 2000,
    serveApp: options.serveApp ?? false,
    signInLimits: options.signInLimits,
    accountLimits: options.accountLimits,
    webhookRetryDelaysMs: options.webhookRetryDelaysMs,
    submissionWatchMs: options.submissionWatchMs,
  })
}

/** Adds an operator through the same function `roland operators add` calls, in the console's database. */
export function addTestOperator(
  server: Pick<ConsoleServer, 'services'>,
  email: string,
  role: OperatorRole,
  password = testPassword,
): Promise<OperatorView> {
  return server.services.store.use((store) => addOperator(asServiceRole(embeddedDb(store)), { email, role, password }))
}

/**
 * Runs `roland operators …` as an operator would, on the data folder's embedded store (or the
 * Supabase project the env names), with stdin piped (the password of --password-stdin).
 */
export function operatorsCli(
  args: string[],
  options: { dataDir: string; stdin?: string; env?: Record<string, string> },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/src/cli.ts'), 'operators', ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ROLAND_DATA_DIR: options.dataDir, ...options.env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(options.stdin ?? '')
  })
}

/** Signs in with an email and password; returns the Cookie header to send, or fails with the answer. */
export async function signIn(
  server: Pick<ConsoleServer, 'url'>,
  email: string,
  password = testPassword,
): Promise<string> {
  const answer = await call(server, '/api/session', { method: 'POST', auth: 'none', body: { email, password } })
  const setCookie = answer.headers.get('set-cookie')
  if (answer.status !== 200 || !setCookie) throw new Error(`Sign-in answered ${answer.status}: ${answer.text}`)
  return setCookie.split(';')[0]!
}

/** Calls the console API as a script does, with the secret as a bearer token unless told otherwise. */
export async function call(
  server: Pick<ConsoleServer, 'url'>,
  pathname: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string>; auth?: 'bearer' | 'none' } = {},
): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const headers: Record<string, string> = { ...options.headers }
  if ((options.auth ?? 'bearer') === 'bearer') headers.authorization = `Bearer ${testSecret}`
  if (options.body !== undefined) headers['content-type'] ??= 'application/json'
  const response = await fetch(`${server.url}${pathname}`, {
    method: options.method ?? 'GET',
    headers,
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
  })
  const text = await response.text()
  let json: unknown
  try {
    json = text ? JSON.parse(text) : null
  } catch {
    json = null
  }
  return { status: response.status, headers: response.headers, text, json }
}

/** Sends a visitor's suggestion as the site's form does (from the site's origin); answers its id. */
export async function suggest(server: Pick<ConsoleServer, 'url'>, body: unknown): Promise<string> {
  const answer = await call(server, publicSubmissionsPath, {
    method: 'POST',
    auth: 'none',
    body,
    headers: { origin: 'http://127.0.0.1:4321' },
  })
  if (answer.status !== 201) throw new Error(`The suggestion answered ${answer.status}: ${answer.text}`)
  return answer.json.id as string
}

/** A port of 127.0.0.1 free now: a site build must know the console's address before the console starts. */
export { freePort } from '../../../scripts/test/support/free-port.ts'

/** Polls until a check returns a value (not undefined/false), or fails after a generous limit. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  limitMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + limitMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Waits until a job has finished and returns its row. */
export function waitForJob(server: Pick<ConsoleServer, 'url'>, id: string): Promise<Job> {
  return waitFor(async () => {
    const { json } = await call(server, `/api/jobs/${id}`)
    const job = json?.job as Job | undefined
    return job && (job.status === 'succeeded' || job.status === 'failed') ? job : undefined
  }, `job ${id} to finish`)
}

/**
 * Runs an action that asks for a rebuild (a click on Rebuild site, a POST), then waits for the
 * rebuild job that action made to end, and returns it. It waits for the effect of its own action:
 * "the scheduler is idle" already holds before the request's timer starts the rebuild.
 */
export async function rebuildAfter(server: ConsoleServer, ask: () => Promise<unknown>): Promise<Job | undefined> {
  const rebuildIds = async () =>
    (await server.services.jobs.list(100)).filter((job) => job.kind === 'rebuild').map((job) => job.id)
  const before = new Set(await rebuildIds())
  await ask()
  const id = await waitFor(
    async () => (await rebuildIds()).find((jobId) => !before.has(jobId)),
    'the rebuild job the request made',
  )
  // Its job exists, so its rebuild runs: wait for it without polling the database, which the
  // build's own process must open (the console closes it only once no call has used it for a while).
  await server.services.scheduler.idle()
  return (await server.services.jobs.list(100)).find((row) => row.id === id)
}

/** Clicks the Rebuild site button and returns the status of the request it made. */
export async function clickRebuildSite(page: Page): Promise<number> {
  const requested = page.waitForResponse(
    (response) => response.url().endsWith('/api/rebuild') && response.request().method() === 'POST',
  )
  await page.getByTestId('rebuild-panel').getByRole('button', { name: 'Rebuild site' }).click()
  return (await requested).status()
}

/** A stand-in for a host's deploy hook: counts the POSTs it receives. */
export interface HookReceiver {
  url: string
  calls: Array<{ method: string; body: string; contentType: string | undefined }>
  close(): Promise<void>
}

/** Starts a deploy-hook stand-in on 127.0.0.1. */
export async function startHookReceiver(): Promise<HookReceiver> {
  const calls: HookReceiver['calls'] = []
  const server = createServer((req: IncomingMessage, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    req.on('end', () => {
      calls.push({ method: req.method ?? '', body, contentType: req.headers['content-type'] })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/build_hooks/secret-hook-id`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Reads a console's event stream, collecting events until closed. */
export async function openEvents(
  server: Pick<ConsoleServer, 'url'>,
): Promise<{ events: Array<{ event: string; data: any }>; close(): void }> {
  const controller = new AbortController()
  const response = await fetch(`${server.url}/api/events`, {
    headers: { authorization: `Bearer ${testSecret}`, accept: 'text/event-stream' },
    signal: controller.signal,
  })
  if (response.status !== 200 || !response.body) throw new Error(`The event stream answered ${response.status}`)
  const events: Array<{ event: string; data: any }> = []
  void (async () => {
    const decoder = new TextDecoder()
    let buffer = ''
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const event = block.match(/^event: (.+)$/m)?.[1]
          const data = block.match(/^data: (.+)$/m)?.[1]
          if (event && data) events.push({ event, data: JSON.parse(data) })
        }
      }
    } catch {
      // Closed by the test.
    }
  })()
  return { events, close: () => controller.abort() }
}

/** A small Roland.txt naming businesses the sample data does not have. */
export function rolandText(names: string[]): string {
  return names
    .map(
      (name, index) =>
        `${name} - A family business on Highway 300 serving Roland since ${1990 + index}\n` +
        `(501) 555-01${String(10 + index).padStart(2, '0')}\n` +
        `www.${name.toLowerCase().replace(/[^a-z]+/g, '')}.example\n` +
        `${18000 + index} Highway 300, Roland, AR 72135\n` +
        `Hours: Mon-Fri 8am-5pm\n` +
        `Friendly neighbours who have served the lake community for many years.`,
    )
    .join('\n\n')
}

/** A console serving its built app, and a real Chromium signed in to it: where a console e2e test starts. */
export interface BrowserConsole {
  server: ConsoleServer
  /** The embedded store's data folder. */
  dataDir: string
  /** Where the console's rebuilds write the site (its ROLAND_OUT_DIR), in a temporary folder. */
  outDir: string
  browser: Browser
  /** The signed-in tab, on the screen `open` named. */
  page: Page
  /** Closes the browser and the console, and removes the temporary folders. */
  close(): Promise<void>
}

/**
 * Builds the app if needed, starts a console on a fresh data folder with one operator, and signs
 * in as that operator in Chromium on `open` (default /today). Waits until the signed-in console
 * shows; a test waits for its own screen's content. `prepare` runs once the console has started
 * and before the browser opens (more operators, rows, findings).
 */
export async function startBrowserConsole(options: {
  /** A word naming the test's temporary folders. */
  name: string
  operator: { email: string; role: OperatorRole }
  open?: string
  env?: Record<string, string>
  context?: BrowserContextOptions
  /** Loads axe as an init script (the console's Content-Security-Policy refuses an injected one). */
  axe?: boolean
  /** The page's default timeout for actions and waits (generous: the machine is shared). */
  timeoutMs?: number
  prepare?: (server: ConsoleServer) => Promise<void>
}): Promise<BrowserConsole> {
  const cleanups: Array<() => Promise<unknown>> = []
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  }
  try {
    await ensureAppBuilt()
    const data = await tempDataDir(`roland-console-${options.name}-`)
    cleanups.push(() => data.remove())
    const site = await tempDataDir(`roland-${options.name}-site-`)
    cleanups.push(() => site.remove())
    const outDir = path.join(site.dir, 'dist')
    const server = await startTestConsole({
      dataDir: data.dir,
      serveApp: true,
      env: { ROLAND_OUT_DIR: outDir, ...options.env },
    })
    cleanups.push(() => server.close())
    await addTestOperator(server, options.operator.email, options.operator.role)
    await options.prepare?.(server)
    const browser = await launchBrowser()
    cleanups.push(() => browser.close())
    const page = await (
      await browser.newContext(options.context ?? { viewport: { width: 1200, height: 900 } })
    ).newPage()
    page.setDefaultTimeout(options.timeoutMs ?? 90_000)
    if (options.axe) await preloadAxe(page)
    await signInInBrowser(page, `${server.url}${options.open ?? '/today'}`, options.operator.email)
    return { server, dataDir: data.dir, outDir, browser, page, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** Opens a console address in a tab, signs in there, and waits until the signed-in console shows. */
export async function signInInBrowser(page: Page, url: string, email: string, password = testPassword): Promise<void> {
  await page.goto(url)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByTestId('signed-in-as').waitFor()
}
