// Runs the site's `astro build` in a process of its own (runAstroBuild), for the rebuild
// (rebuild.ts), the tests and the bench: the process's settings, its working folder, the one kept
// ready on standby or kept for reuse, and the catalog handed over to it (build-process.ts says what
// they tell each other; build-child.ts starts and drives the process itself).
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import type { Catalog } from '../catalog/types.ts'
import { repoRoot } from '../paths.ts'
import { baselineOnlyFlags } from '../store/baseline-wasm.ts'
import { claimBuildFolder, startBuildProcess, type BuildLaunch, type BuildProcess } from './build-child.ts'
import {
  buildServedLine,
  catalogHandoverVariable,
  standbyVariable,
  writeCatalogFile,
  type ToBuild,
} from './build-process.ts'

/** The error of a rebuild that did not happen or did not finish: what and how to fix it. */
export class RebuildError extends Error {
  override name = 'RebuildError'
}

/**
 * The most memory, in MB, each of a site build's JavaScript heaps may take (ROLAND_BUILD_HEAP_MB,
 * default 1024): the main thread's, the catalog reader's and the build thread's
 * (site/integrations/build-thread.ts). Left to itself, Node lets a heap grow toward a quarter of
 * the machine's memory before it collects hard: at 100,000 businesses the garbage piled up to
 * 2.5 GB. Capped, it collects sooner: at 100,000 businesses the build's peak was 1.92 GB with 1024
 * and 2.0 GB with 1536, in the same time. A bigger catalog than that may need more.
 */
export function buildHeapMb(env: NodeJS.ProcessEnv): number {
  const setting = env.ROLAND_BUILD_HEAP_MB?.trim()
  if (!setting) return 1024
  const mb = Number(setting)
  if (!Number.isInteger(mb) || mb < 32) {
    throw new RebuildError(
      `ROLAND_BUILD_HEAP_MB is "${setting}": set it to a whole number of megabytes (e.g. 4096), or unset it for 1024.`,
    )
  }
  return mb
}

/** Options of one `astro build` (runAstroBuild). */
export interface AstroBuildOptions {
  env: NodeJS.ProcessEnv
  onLine: (line: string) => void
  signal?: AbortSignal
  /** Node options for the build's process (the bench preloads a module that reports its memory). */
  execArgv?: string[]
  /**
   * Reads the catalog for the build, which then does not read it itself: called as the build
   * starts, its result handed over (build-process.ts). A failure is the build's.
   */
  catalog?: () => Promise<Catalog>
  /**
   * Keeps the next build's process ready (build-process.ts): once this build is done, its process
   * waits on standby for the next (up to buildsPerProcess builds; else another starts on standby),
   * and the next runAstroBuild with the same settings starts it instead of a fresh process. For a
   * process that rebuilds again and again (the console); closeBuildStandby() ends it.
   */
  standby?: boolean
  /**
   * Runs in the build's process an earlier build of this process kept, when one with the same
   * settings waits, and keeps this build's process once it succeeds (site/integrations/build-server.ts):
   * for a process that builds many sites in turn (the tests), where loading Node, Astro, Vite and
   * the site's modules anew took half of each build. Not with `catalog` nor `standby`, which start
   * a process of their own; closeBuildStandby() ends the process kept.
   */
  reuse?: boolean
}

/**
 * Runs `astro build` of the repository's site in a child process with the environment given (over
 * this process's), passing each line it prints to onLine; resolves to its exit code.
 *
 * Each build runs in a working directory of its own under the repository's .astro/builds (the site
 * still comes from the repository, --root). Astro bundles the pages it pre-renders into
 * `.astro/.prerender` of the working directory and deletes that folder when done: two builds at
 * once in one directory (the console's and a CLI's, or two in the tests) pulled it from under each
 * other's feet, and one failed. It must stay inside the repository, where the bundle's imports of
 * React and the rest resolve.
 */
export async function runAstroBuild(options: AstroBuildOptions): Promise<number | null> {
  options.signal?.throwIfAborted()
  const reuse = options.reuse && !options.catalog && !options.standby
  const launch = buildLaunch(options, reuse)
  building++
  try {
    return await (reuse ? buildReusing(launch, options) : buildWith(launch, options))
  } finally {
    building--
  }
}

async function buildWith(launch: BuildLaunch, options: AstroBuildOptions): Promise<number | null> {
  // The catalog is read as soon as a process on standby is told to start (its read took the
  // console's thread 0.1 s at 100,000 businesses, which the message then waited for), or now.
  let catalog: ReturnType<typeof readForHandover> | undefined
  const readCatalog = () => {
    if (options.catalog) catalog ??= readForHandover(options.catalog)
  }
  let build = await startStandby(launch, options.onLine, readCatalog)
  readCatalog()
  if (!build) {
    build = await startBuildProcess(launch, false)
    await nextFolder(build)
  }
  const handing = catalog && handOver(build, catalog)
  let served = false
  try {
    const ended = await followBuild(build, options)
    served = ended.served
    return ended.code
  } finally {
    // The catalog's read and handover end before its folder goes (and before the caller closes the store).
    await handing
    build.listen(null)
    const standby = options.standby && !options.signal?.aborted
    await removeBuildFolder(build)
    // Only one started on standby checks, each time it starts, that its code is still the code on disk.
    if (standby && served && build.startedOnStandby && build.folders.size < buildsPerProcess) keepOnStandby(build)
    else {
      // One that was served waits for another build: it ends, and its folder goes with it.
      if (served) await build.end()
      else await rm(build.cwd, { recursive: true, force: true })
      if (standby) standBy(launch)
    }
  }
}

/**
 * Puts a build's process whose build is done back on standby for the next build with its settings
 * (build-server.ts, `stand-by`): it says again what it says on standby, so its messages are heard
 * afresh, and it keeps no one's process alive while it waits.
 */
function keepOnStandby(build: BuildProcess): void {
  build.anew()
  build.taken = false
  build.ahead = null
  build.release()
  build.child.send({ type: 'stand-by' } satisfies ToBuild, () => {})
  replaceStandby(Promise.resolve(build))
}

/**
 * Readies the next runAstroBuild with these settings, unless a build runs (one with `standby`
 * readies the next when it ends): starts a build's process on standby, unless one already waits,
 * and, given `catalog`, reads the catalog and hands it to that process ahead (handCatalogAhead).
 * Never rejects: a build that cannot start, or a catalog that cannot be read, says why when it runs.
 */
export async function readyAstroBuild(options: AstroBuildOptions): Promise<void> {
  if (building > 0) return
  let launch: BuildLaunch
  try {
    launch = buildLaunch(options)
  } catch {
    // Astro is missing: the build itself will say so.
    return
  }
  if (!standingBy) standBy(launch)
  if (!options.catalog) return
  const standby = await standingBy
  if (standby?.key === launch.key) await standby.aliveFor(handCatalogAhead(standby, options.catalog)).catch(() => {})
}

/**
 * Reads the catalog and hands it to the build's process on standby, which
 * reads it and makes its search index while it waits (build-process.ts, `catalog-ahead`): when the
 * build starts and the catalog has not changed since, that work is done. Nothing is handed over
 * once the process has started, or when the catalog is the one it was handed last.
 */
async function handCatalogAhead(standby: BuildProcess, read: () => Promise<Catalog>): Promise<void> {
  if (standby.taken) return
  const catalog = await read()
  if (standby.taken || (standby.ahead && sameCatalog(standby.ahead.catalog, catalog))) return
  const file = path.join(standby.cwd, `catalog-ahead-${++aheadFiles}.v8`)
  await writeCatalogFile(file, catalog)
  if ((await standby.said('standing-by')) === null || standby.taken || !standby.child.connected) {
    await rm(file, { force: true })
    return
  }
  const before = standby.ahead
  standby.ahead = { catalog, file }
  const ready = standby.heard((message) => message.type === 'catalog-ahead-ready' && message.file === file)
  standby.child.send({ type: 'catalog-ahead', file } satisfies ToBuild, () => {})
  // The one it replaces may still be being read: a file removed while open is read to its end.
  if (before) await rm(before.file, { force: true })
  await ready
}

/** How many catalog files this process has handed ahead: each has a name of its own. */
let aheadFiles = 0

/**
 * Whether two reads of the catalog give the same catalog. A store that reads only what changed
 * since (Store.followCatalog) keeps each unchanged business as the same object, so a business that
 * is the same object is the same business; the rest of the catalog is compared whole.
 */
export function sameCatalog(a: Catalog, b: Catalog): boolean {
  if (a === b) return true
  const { businesses: aBusinesses, ...aRest } = a
  const { businesses: bBusinesses, ...bRest } = b
  return (
    aBusinesses.length === bBusinesses.length &&
    aBusinesses.every((business, i) => business === bBusinesses[i]) &&
    isDeepStrictEqual(aRest, bRest)
  )
}

function standBy(launch: BuildLaunch): void {
  replaceStandby(startBuildProcess(launch, true).catch(() => null))
}

/** Makes `next` the build's process on standby; the one it replaces, if any, ends. */
function replaceStandby(next: Promise<BuildProcess | null>): void {
  const previous = standingBy
  standingBy = next
  void previous?.then((standby) => standby?.end())
}

/** Ends the build's process kept on standby, if any (runAstroBuild's `standby`), and the one kept for reuse. */
export async function closeBuildStandby(): Promise<void> {
  const standby = await standingBy
  standingBy = null
  const reused = keptForReuse
  keptForReuse = null
  await Promise.all([standby?.end(), reused?.end()])
}

/** The build's process kept for the next build, waiting (runAstroBuild's `reuse`). */
let keptForReuse: BuildProcess | null = null

/**
 * How many builds a process kept for reuse or put back on standby runs at most, each leaving its
 * bundle's modules loaded: once its garbage is collected, about 6 MB more a build at 10,000
 * businesses as at 100,000 (136, 142, 148, …, 177 MB after builds 1 to 8 there, of a heap of 1,216 MB
 * with ROLAND_BUILD_HEAP_MB unset). What a build leaves must not follow the catalog: when each kept
 * its pages' URLs and names (60 MB a build at 100,000), the eighth ran out of heap (publish-site.ts
 * and the Astro patch let them go).
 */
const buildsPerProcess = 10

/** Runs a build in the process kept from an earlier one when it has the same settings, else in a fresh one. */
async function buildReusing(launch: BuildLaunch, options: AstroBuildOptions): Promise<number | null> {
  let build = takeKept(launch.key)
  if (build) {
    await nextFolder(build)
    build.hold()
    build.child.send({ type: 'build', env: launch.env, cwd: build.folder } satisfies ToBuild, () => {})
  } else {
    build = await startBuildProcess(launch, false)
    await nextFolder(build)
  }
  let keep = false
  try {
    const ended = await followBuild(build, options)
    if (!ended.served) return ended.code
    keep = build.folders.size < buildsPerProcess
    return 0
  } finally {
    build.listen(null)
    await removeBuildFolder(build)
    if (keep) {
      build.release()
      const before = keptForReuse
      keptForReuse = build
      void before?.end()
    } else await build.end()
  }
}

/**
 * Gives a build's process the working folder of its next build (`folder`): the one it started in
 * for its first, else one it has not built in (build-server.ts).
 */
async function nextFolder(build: BuildProcess): Promise<void> {
  build.folder = build.folders.size === 0 ? build.cwd : await claimUnusedFolder(build.folders)
  build.folders.add(build.folder)
}

/**
 * Removes the working folder of a build done, unless it is the one the process started in, which
 * stays while the process runs: a process it started (esbuild's) works there.
 */
async function removeBuildFolder(build: BuildProcess): Promise<void> {
  if (build.folder !== build.cwd) await rm(build.folder, { recursive: true, force: true })
}

/**
 * Follows a build in its process to its end: passes its lines on and stops it when the caller
 * aborts. It ends when the process exits (its code), or, in a process kept for reuse
 * (build-server.ts), when the process says it has served the build and waits for the next
 * (`served`, code 0: the process may be kept). A build that ends well before Astro said it was
 * complete has published nothing: its code is then 1, with a line saying so, and it is not `served`.
 */
async function followBuild(
  build: BuildProcess,
  options: AstroBuildOptions,
): Promise<{ code: number | null; served: boolean }> {
  let completed = false
  let servedLines = 0
  const served = Promise.withResolvers<'served'>()
  build.listen((line) => {
    // Once on its standard output, once on its standard error: what it printed on each has come.
    if (line === buildServedLine) {
      if (++servedLines === 2) served.resolve('served')
      return
    }
    if (line.includes(completeText)) completed = true
    options.onLine(line)
  })
  const stop = () => build.child.kill()
  options.signal?.addEventListener('abort', stop, { once: true })
  try {
    const ended = await Promise.race([build.exited, served.promise])
    options.signal?.throwIfAborted()
    const code = ended === 'served' ? 0 : ended
    if (code !== 0 || completed) return { code, served: ended === 'served' }
    const how = ended === 'served' ? 'said it was done' : 'ended (exit 0)'
    options.onLine(
      `[roland:rebuild] The site build's process ${how} before Astro said the build was complete: nothing was published.`,
    )
    return { code: 1, served: false }
  } finally {
    options.signal?.removeEventListener('abort', stop)
  }
}

/** The process kept for reuse when it has these settings and still runs; it is no longer kept either way. */
function takeKept(key: string): BuildProcess | null {
  const reused = keptForReuse
  keptForReuse = null
  if (!reused) return null
  const { child } = reused
  if (reused.key === key && child.exitCode === null && child.signalCode === null && child.connected) return reused
  void reused.end()
  return null
}

/** A build folder (claimBuildFolder) none of `used` names; the others claimed meanwhile are let go. */
async function claimUnusedFolder(used: ReadonlySet<string>): Promise<string> {
  const passed: string[] = []
  try {
    for (;;) {
      const folder = await claimBuildFolder(path.join(repoRoot, '.astro', 'builds'))
      if (!used.has(folder)) return folder
      passed.push(folder)
    }
  } finally {
    await Promise.all(passed.map((folder) => rm(folder, { recursive: true, force: true })))
  }
}

/**
 * The names Vite gives import.meta.env itself. Astro's build writes every variable of its environment
 * into the bundle's import.meta.env, these included: Vitest sets DEV=1, PROD, SSR, MODE and BASE_URL
 * in its workers, and a site built from a test (a fixture site, the build-threads test's) came out
 * with import.meta.env.DEV true. The site's code took its development branches (the search index made
 * again on the pages' thread, the routes' paths no longer worked out while it waits), and the bundle
 * cache kept that bundle under the key of a build for production: the bench's builds and rebuilds
 * then ran it, the search index made twice in each. A build's environment never has them.
 */
export const importMetaEnvNames = ['DEV', 'PROD', 'SSR', 'MODE', 'BASE_URL', 'SITE', 'ASSETS_PREFIX'] as const

/**
 * The variables a process reads only as it starts (Node's, its allocators', libuv's): a process
 * kept for reuse is handed the rest of each build's environment.
 */
const processStartVariable = /^(NODE_|MALLOC_|MIMALLOC_|UV_)/

/** How much a process that builds again lets its heap grow after a full collection, in percent. */
const heapGrowingPercent = 60

/** How a build's process is started: its arguments, its environment, and the key a kept process is reused under. */
export function buildLaunch(options: AstroBuildOptions, reuse = false): BuildLaunch {
  const astro = path.join(repoRoot, 'node_modules', 'astro', 'bin', 'astro.mjs')
  if (!existsSync(astro)) {
    throw new RebuildError(
      `The site cannot be built: ${astro} is missing. Run \`pnpm install\` at the repository root first.`,
    )
  }
  const { env } = options
  const heapMb = buildHeapMb({ ...process.env, ...env })
  const args = [
    `--max-old-space-size=${heapMb}`,
    // PGlite in V8's baseline code from the start, before a module loads (baseline-wasm.ts).
    ...baselineOnlyFlags,
    // First, to see every module loaded after it (a process on standby checks them when started).
    '--import',
    pathToFileURL(path.join(repoRoot, 'site', 'integrations', 'build-standby.ts')).href,
    // The catalog is read from the moment the build starts (site/integrations/read-catalog-early.ts).
    '--import',
    pathToFileURL(path.join(repoRoot, 'site', 'integrations', 'read-catalog-early.ts')).href,
    ...(options.execArgv ?? []),
    // A process that builds again runs Astro's command line itself (build-server.ts), and collects
    // a build's garbage while it waits for the next (site/integrations/idle-gc.ts). After such a
    // collection V8 let the heap grow by about a third before collecting again, and a rebuild at
    // 100,000 businesses grows it from 540 MB to 720 MB: each one had a full collection in its
    // middle (0.2 s of its thread, `--trace-gc`). By three fifths, it has none.
    ...(reuse || options.standby
      ? [
          '--expose-gc',
          `--heap-growing-percent=${heapGrowingPercent}`,
          path.join(repoRoot, 'site', 'integrations', 'build-server.ts'),
        ]
      : []),
    astro,
    'build',
    '--root',
    repoRoot,
  ]
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...env,
    // A relative data folder means the one this process uses, not one under the build's directory.
    ...(env.ROLAND_DATA_DIR ? { ROLAND_DATA_DIR: path.resolve(env.ROLAND_DATA_DIR) } : {}),
    // Node keeps the bytecode of the modules it compiles (Astro's, Vite's, the site's: about
    // 1,500) and reuses it in the next build, which then starts sooner.
    NODE_COMPILE_CACHE:
      env.NODE_COMPILE_CACHE ?? process.env.NODE_COMPILE_CACHE ?? path.join(os.tmpdir(), 'node-compile-cache'),
    // Memory the build's native code frees goes back to the system at once: rolldown's allocator
    // (mimalloc) otherwise keeps what it bundled with (about 80 MB of 250), and C's allocator a pool
    // for each of the build's twenty threads. At 100,000 businesses, unset, the build's peak memory
    // was 1.7 to 2.0 GB from one run to the next; set, 1.6 to 1.7 GB.
    MIMALLOC_PURGE_DELAY: env.MIMALLOC_PURGE_DELAY ?? process.env.MIMALLOC_PURGE_DELAY ?? '0',
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? process.env.MALLOC_ARENA_MAX ?? '2',
    // The build stops if this process dies (site/integrations/publish-site.ts).
    ROLAND_BUILD_PARENT_PID: String(process.pid),
    // A site to publish, whatever this process's NODE_ENV says (Vitest sets 'test', a shell may set
    // 'development'): Astro's build keeps a NODE_ENV that is set, and under any other than
    // 'production' Vite bundled React's development build into the islands (its client: 401 KB
    // instead of 213 KB), the pages rendered with it, and the site's code took its development
    // branches (import.meta.env.DEV). (The console's own bundle: build-app.ts.)
    NODE_ENV: 'production',
    FORCE_COLOR: '0',
    NO_COLOR: '1',
    // Astro reports each build to its makers (the project's anonymized details, over HTTPS) unless
    // told not to. An operator's rebuild tells no one; it also spared each build a TLS connection
    // attempt and the project's details (0.1 s of CPU).
    ASTRO_TELEMETRY_DISABLED: env.ASTRO_TELEMETRY_DISABLED ?? process.env.ASTRO_TELEMETRY_DISABLED ?? '1',
    ...(options.catalog ? { [catalogHandoverVariable]: '1' } : {}),
  }
  delete childEnv[standbyVariable]
  for (const name of importMetaEnvNames) delete childEnv[name]
  const startEnv = Object.entries(childEnv).filter(([name]) => processStartVariable.test(name))
  return { args, env: childEnv, key: JSON.stringify(reuse ? [args, startEnv] : [args, childEnv]) }
}

/** What Astro prints once a build, its integrations' last steps (the site's publishing) included, is done. */
const completeText = '[build] Complete!'

/** The build's process on standby (runAstroBuild's `standby`). */
let standingBy: Promise<BuildProcess | null> | null = null
/** How many builds run now. */
let building = 0

/**
 * Starts the build's process on standby when it was started with the same settings, and nothing
 * it loaded has changed since; null otherwise (the process on standby then ends). `onStart` is
 * called once it is told to start, before it answers.
 */
async function startStandby(
  launch: BuildLaunch,
  onLine: (line: string) => void,
  onStart: () => void,
): Promise<BuildProcess | null> {
  const waiting = standingBy
  standingBy = null
  const standby = await waiting
  if (!standby) return null
  standby.taken = true
  standby.hold()
  if (standby.key !== launch.key || (await standby.said('standing-by')) === null) {
    await standby.end()
    return null
  }
  await nextFolder(standby)
  // One that has built before is handed the next build's settings and folder (build-server.ts).
  const next = standby.folder === standby.cwd ? {} : { next: { env: launch.env, cwd: standby.folder } }
  standby.child.send({ type: 'start', ...next } satisfies ToBuild, () => {})
  onStart()
  const answer = await Promise.race([standby.said('started'), standby.said('stale')])
  if (answer?.type === 'started') return standby
  if (answer?.type === 'stale')
    onLine(`[roland:rebuild] ${answer.file} changed since the build's process started ahead: starting a fresh one`)
  await removeBuildFolder(standby)
  await standby.end()
  return null
}

/** What a build is told of the catalog: where it is, or why it could not be read. Never rejects. */
async function readForHandover(read: () => Promise<Catalog>): Promise<{ catalog: Catalog } | { error: string }> {
  try {
    return { catalog: await read() }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

/**
 * Hands the catalog over once the build asks (build-process.ts); a failure to read it is sent as
 * the build's failure, which it reports as if it had read the catalog itself.
 */
async function handOver(build: BuildProcess, reading: ReturnType<typeof readForHandover>): Promise<void> {
  const read = await reading
  let message: ToBuild
  if ('error' in read) message = { type: 'catalog-unread', message: read.error }
  else if (build.ahead && sameCatalog(build.ahead.catalog, read.catalog)) {
    // Unchanged since it was handed ahead: the build finds its work on it done.
    message = { type: 'catalog-file', file: build.ahead.file }
  } else {
    const file = path.join(build.cwd, 'catalog.v8')
    try {
      await writeCatalogFile(file, read.catalog)
      message = { type: 'catalog-file', file }
    } catch (error) {
      message = { type: 'catalog-unread', message: `Could not hand the catalog over: ${(error as Error).message}` }
    }
  }
  // A build that already ended (it failed to start, it was stopped) needs no catalog.
  if ((await build.said('catalog-wanted')) && build.child.connected) build.child.send(message, () => {})
}
