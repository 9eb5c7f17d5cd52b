import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { loadPublicCatalog, readCatalogAhead } from '../catalog/load.ts'
import { runJob, type JobListener } from '../jobs/run-job.ts'
import { repoRoot } from '../paths.ts'
import type { LeasedStore } from '../store/leased.ts'
import type { Store } from '../store/types.ts'
import { buildHeapMb, readyAstroBuild, RebuildError, runAstroBuild, type AstroBuildOptions } from './astro-build.ts'

/** How the site gets rebuilt: a deploy hook (CI builds and publishes) or a local `astro build`. */
export type RebuildMode = 'hook' | 'local'

/** What a rebuild did. */
export interface RebuildResult {
  mode: RebuildMode
  /** The hook's HTTP status (hook mode). */
  status?: number
  /** Where the site was written (local mode). */
  outDir?: string
  durationMs: number
}

/** Options of one rebuild. */
export interface RebuildOptions {
  /** Where REBUILD_HOOK_URL and the build's settings come from (default process.env). */
  env?: NodeJS.ProcessEnv
  /** Lines of output worth keeping (the build's output, the hook's answer). */
  onLog?: (line: string) => void
  /** Which phase the rebuild is in. */
  onPhase?: (phase: 'calling hook' | 'building') => void
  signal?: AbortSignal
  /** The longest a hook call may take (default 60 s). */
  hookTimeoutMs?: number
  /**
   * The store the site's catalog is in, open: a local build's catalog is read from it here, while
   * the build's process starts, and handed over (build-process.ts).
   */
  store?: Store
  /** Keep the next local build's process ready (runAstroBuild's `standby`): the console does. */
  standby?: boolean
}

/** Says which way the environment rebuilds the site, checking REBUILD_HOOK_URL when it is set. */
export function rebuildMode(env: NodeJS.ProcessEnv = process.env): RebuildMode {
  return hookUrl(env) ? 'hook' : 'local'
}

function hookUrl(env: NodeJS.ProcessEnv): URL | null {
  const raw = env.REBUILD_HOOK_URL?.trim()
  if (!raw) return null
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new RebuildError(
      'REBUILD_HOOK_URL is not a URL: use the deploy hook address your host gives you (https://…), or unset it to build locally.',
    )
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new RebuildError(
      `REBUILD_HOOK_URL must be an http(s) address, not ${url.protocol}: check .env (see .env.example).`,
    )
  }
  return url
}

/**
 * Rebuilds the site (DESIGN.md, "Jobs"): POSTs to REBUILD_HOOK_URL when it is set, else runs
 * `astro build` at the repository root. Fails with a RebuildError saying what went wrong.
 */
export async function rebuildSite(options: RebuildOptions = {}): Promise<RebuildResult> {
  const env = options.env ?? process.env
  const started = performance.now()
  const url = hookUrl(env)
  if (url) {
    options.onPhase?.('calling hook')
    const status = await callHook(url, options)
    return { mode: 'hook', status, durationMs: Math.round(performance.now() - started) }
  }
  options.onPhase?.('building')
  const outDir = await buildLocally(env, options)
  return { mode: 'local', outDir, durationMs: Math.round(performance.now() - started) }
}

// A deploy hook's address is itself the secret (anyone holding it can trigger deploys):
// messages name only its host.
async function callHook(url: URL, options: RebuildOptions): Promise<number> {
  const where = `the rebuild hook at ${url.host}`
  const timeout = AbortSignal.timeout(options.hookTimeoutMs ?? 60_000)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  const request = hookRequest(url, options.env ?? process.env)
  let response: Response
  try {
    response = await fetch(url, { ...request, signal, redirect: 'error' })
  } catch (error) {
    const reason = timeout.aborted
      ? 'no answer within the time limit'
      : (((error as Error).cause as Error)?.message ?? (error as Error).message)
    throw new RebuildError(
      `Could not reach ${where} (${reason}): check REBUILD_HOOK_URL and your network, then rebuild again.`,
    )
  }
  const body = (await response.text().catch(() => '')).trim().slice(0, 200)
  if (!response.ok) {
    throw new RebuildError(
      `${where} answered HTTP ${response.status}${body ? ` (${body})` : ''}: check REBUILD_HOOK_URL with your host, then rebuild again.`,
    )
  }
  options.onLog?.(`${where} answered HTTP ${response.status}${body ? `: ${body}` : ''}`)
  return response.status
}

/** Tells whether a hook URL is GitHub's repository_dispatch endpoint (/repos/OWNER/REPO/dispatches). */
export function isGitHubDispatch(url: URL): boolean {
  return /^\/(api\/v3\/)?repos\/[^/]+\/[^/]+\/dispatches\/?$/.test(url.pathname)
}

// Build hooks (Netlify, Cloudflare Pages) take any POST; GitHub's repository_dispatch wants its
// own body, a token and its media type, and starts .github/workflows/deploy.yml.
function hookRequest(url: URL, env: NodeJS.ProcessEnv): RequestInit {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'roland-rebuild/1.0' }
  const at = new Date().toISOString()
  if (!isGitHubDispatch(url)) {
    return { method: 'POST', headers, body: JSON.stringify({ trigger: 'roland', at }) }
  }
  const token = env.REBUILD_HOOK_TOKEN?.trim()
  if (!token) {
    throw new RebuildError(
      'REBUILD_HOOK_URL is a GitHub repository_dispatch address, which needs REBUILD_HOOK_TOKEN: ' +
        'a fine-grained token with "Contents: read and write" on the repository (see README, "Rebuild hooks").',
    )
  }
  headers.authorization = `Bearer ${token}`
  headers.accept = 'application/vnd.github+json'
  headers['x-github-api-version'] = '2022-11-28'
  return {
    method: 'POST',
    headers,
    body: JSON.stringify({ event_type: 'rebuild', client_payload: { trigger: 'roland', at } }),
  }
}

/**
 * A page Astro's build names as kept (" (cached)", " (restored)"), or, past a thousand pages kept in
 * place of each 100,000, its patched build's line that counts the others.
 */
const keptPages = /(?:(\d+) more page\(s\) kept as they were )?\((?:cached|restored)\)/g

/** How many pages this text of Astro's build log, its colours stripped, says were kept as they were. */
export function pagesKeptIn(text: string): number {
  let pages = 0
  for (const match of text.matchAll(keptPages)) pages += Number(match[1] ?? 1)
  return pages
}

/**
 * Passes on the lines of a build's output worth keeping in a job's log. Astro prints a line for
 * every page it writes or reuses: with 10,000 businesses those 13,000 lines were nearly the whole
 * log, stored in the job's row and sent to the console line by line. Each run of them is told as
 * one line instead: how many pages, how many rendered and how many unchanged. (Past a thousand
 * pages kept in place of each 100,000, Astro's patched build counts the rest on one line.)
 */
export function buildLog(onLog: (line: string) => void): { line(line: string): void; end(): void } {
  let rendered = 0
  let unchanged = 0
  const end = () => {
    if (rendered + unchanged === 0) return
    onLog(`  ${rendered + unchanged} page(s): ${rendered} rendered, ${unchanged} unchanged`)
    rendered = unchanged = 0
  }
  return {
    line(line) {
      // Most lines of a rebuild are a page kept as it was, one a line (2,000 at 100,000 businesses:
      // a thousand of each 100,000 pages), then the count of the others kept.
      if (line.endsWith(' (cached)') && line.indexOf('─ ') === line.lastIndexOf('─ ') && /^\s*[├└]─ /.test(line)) {
        unchanged += pagesKeptIn(line)
        return
      }
      // Pages render several at a time: a line may hold a page's name and another page's whole
      // line, or only the end of a page named on an earlier line (its render time).
      const pageLine = /^\s*[├└]─ /.test(line)
      if (pageLine || /^\s*\((?:\+[\d.]+m?s|cached|restored)\)\s*$/.test(line)) {
        const pages = pageLine ? (line.match(/[├└]─ /g)?.length ?? 0) : 0
        const keptMarks = line.match(/\((?:cached|restored)\)/g)?.length ?? 0
        unchanged += pagesKeptIn(line)
        rendered += pages - keptMarks
        return
      }
      end()
      onLog(line)
    },
    end,
  }
}

// The build reads the catalog from the same database, in its own process; ANSI colours are
// stripped so the log reads the same in a terminal and in the console.
async function buildLocally(env: NodeJS.ProcessEnv, options: RebuildOptions): Promise<string> {
  const outDir = path.resolve(repoRoot, env.ROLAND_OUT_DIR || 'dist')
  const tail: string[] = []
  let outOfMemory = false
  const log = buildLog((line) => {
    if (/heap out of memory|Reached heap limit/.test(line)) outOfMemory = true
    tail.push(line)
    if (tail.length > 20) tail.shift()
    options.onLog?.(line)
  })
  const code = await runAstroBuild(
    localBuild(env, options, (line) => {
      const clean = (line.includes('\u001b') ? stripVTControlCharacters(line) : line).trimEnd()
      if (clean.trim()) log.line(clean)
    }),
  )
    .finally(() => log.end())
    .catch((error: Error) => {
      if (error instanceof RebuildError) throw error
      if (options.signal?.aborted)
        throw new RebuildError('The site build was stopped before it finished: rebuild again.')
      throw new RebuildError(`The site build could not start (${error.message}): run \`pnpm build\` to see why.`)
    })
  if (code !== 0 && outOfMemory) {
    throw new RebuildError(
      `The site build ran out of memory: its heap may take ${buildHeapMb({ ...process.env, ...env })} MB. Set ROLAND_BUILD_HEAP_MB higher (e.g. 4096) and rebuild. The published site was left as it was.`,
    )
  }
  if (code !== 0) {
    const last = tail.filter((line) => /error|fail|cannot|could not/i.test(line)).at(-1) ?? tail.at(-1) ?? 'no output'
    throw new RebuildError(
      `The site build failed (exit ${code ?? 'killed'}): ${last.trim()}. The published site was left as it was; run \`pnpm build\` to see the whole output.`,
    )
  }
  return outDir
}

/** How a rebuild with these options runs `astro build` (runAstroBuild). */
function localBuild(
  env: NodeJS.ProcessEnv,
  options: RebuildOptions,
  onLine: (line: string) => void,
): AstroBuildOptions {
  const { store } = options
  return {
    env,
    signal: options.signal,
    catalog:
      store &&
      (() => loadPublicCatalog({ store, onRead: (read) => onLine(`[roland:rebuild] ${catalogReadLine(read)}`) })),
    standby: options.standby,
    onLine,
  }
}

function catalogReadLine(read: number | 'all'): string {
  if (read === 'all') return 'Read the whole catalog'
  if (read === 0) return 'Read the catalog again: no business changed since its last read'
  const businesses = read === 1 ? '1 business' : `${read} businesses`
  return `Read the catalog again for the ${businesses} changed since its last read`
}

/**
 * Readies the next rebuild while whoever runs it waits (the console, after a change, for its quiet
 * window to pass): the catalog is read from the store, so that the rebuild's own read takes only
 * what changed since; and when the rebuild keeps a local build's process on standby (its
 * `standby`), that process is started and handed the catalog, to read it and make its search index
 * meanwhile (build-process.ts). Resolves once ready; never rejects: whatever fails here fails
 * again, and is told, in the rebuild.
 */
export async function prepareRebuild(options: RebuildOptions): Promise<void> {
  const env = options.env ?? process.env
  try {
    if (hookUrl(env)) return
  } catch {
    return
  }
  if (options.standby) await readyAstroBuild(localBuild(env, options, () => {}))
  if (options.store) await readCatalogAhead(options.store)
}

/** The longest quiet window before a rebuild for which the database is kept open for it (holdStoreForRebuild). */
const storeHoldLimitMs = 10_000

/**
 * Keeps a leased store's database open for the rebuild due in `quietMs` (LeasedStore.holdOpen),
 * and a second more, once it has been readied (prepareRebuild): the rebuild's own read of the
 * catalog then finds it open. Not for a long wait, which would keep other processes from it.
 */
export function holdStoreForRebuild(store: LeasedStore, quietMs: number): void {
  if (quietMs <= storeHoldLimitMs) store.holdOpen(quietMs + 1000)
}

/** Options of a rebuild recorded as a job. */
export interface RebuildJobOptions extends Omit<RebuildOptions, 'onLog' | 'onPhase'> {
  /** Use a leased store (openLeasedStore) with the embedded database: the build opens it too. */
  store: Store
  /** Why it runs: 'manual', 'cli', or after which jobs. */
  trigger: string
  jobs?: string[]
  startedBy?: string
  onEvent?: JobListener
}

/**
 * Rebuilds the site as a job of kind 'rebuild', its log keeping the build's output. The store is
 * written only when the job starts and ends, so a local build can open the database meanwhile.
 */
export async function runRebuild(options: RebuildJobOptions): Promise<RebuildResult> {
  const env = options.env ?? process.env
  const mode = rebuildMode(env)
  return runJob(
    {
      store: options.store,
      kind: 'rebuild',
      params: { mode, trigger: options.trigger, ...(options.jobs?.length ? { jobs: options.jobs } : {}) },
      startedBy: options.startedBy ?? 'cli',
      onEvent: options.onEvent,
    },
    async (reporter) => {
      const result = await rebuildSite({
        ...options,
        env,
        onPhase: (phase) => reporter.progress({ phase, done: 0, total: 1 }),
        onLog: (line) => reporter.log(line),
      })
      reporter.progress({ phase: 'done', done: 1, total: 1 })
      return result
    },
  )
}
