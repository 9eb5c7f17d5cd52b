// A site build's process started on standby (@roland/scripts/rebuild/build-process): it loads Node,
// Astro, Vite and the site's config modules (0.5–0.7 s of a rebuild on a 2-core machine), then
// waits in astro.config.mjs, before it reads .env, the catalog or any file of the site, until the
// rebuild that holds it starts it. Meanwhile it also loads the packages the pages and the
// integrations load only after Astro has bundled the site (loadedAfterBundling).
//
// Preloaded first into every build's process (node --import), so that it sees every module loaded
// after it. When started, it checks that none has changed on disk since the process started (code
// edited, packages installed): if one has, it says so and ends, and the rebuild starts a fresh
// process instead.
import { rmSync, statSync } from 'node:fs'
import { registerHooks } from 'node:module'
import { fileURLToPath } from 'node:url'
import { isMainThread } from 'node:worker_threads'
import { standbyVariable, type FromBuild, type ToBuild } from '@roland/scripts/rebuild/build-process'

/**
 * A module whose file changed after this process started counts as changed since it was loaded. A
 * file's time comes from the file system's coarse clock, which may lag the process's by some
 * milliseconds: one written in the second before the process started counts too.
 */
const clockSlackMs = 1000

/**
 * What a build loads only once Astro has bundled the site, and a process on standby loads while it
 * waits: the packages the pages' bundle imports (zod, markdown-it, libphonenumber-js, xmlbuilder2,
 * …) and the modules the integrations load after the pages (the app icons, with sharp; workbox):
 * about 50 MB and half a second of loading on a 2-core machine. In a rebuild at 10,000 businesses,
 * the main thread's CPU profile after the start then shows 0.1 s of module loading (the bundle's own
 * chunks), where it showed 0.4–0.5 s. Resolved from here, as the bundle's imports resolve from its
 * folder in the repository (.astro/builds/…): the same files, loaded once.
 *
 * A package left out of this list is loaded by the build, as before; one that fails to load here
 * fails the build when the build loads it, and says why then.
 */
export const loadedAfterBundling = [
  'zod',
  'ical.js',
  '@date-fns/tz',
  '@touch4it/ical-timezones',
  'xmlbuilder2',
  'markdown-it',
  'libphonenumber-js',
  'wink-porter2-stemmer',
  'thumbhash',
  '../lib/app-icon.ts',
  'workbox-build/build/inject-manifest.js',
]

/**
 * React's modules, which choose their development or production build by NODE_ENV as they load.
 * Astro's build sets it once started, when unset (to 'production', or to what .env says): they are
 * loaded ahead only when the environment has set it already, else a rebuild on standby would render
 * with React's development build.
 */
export const reactModules = ['react', 'react/jsx-runtime', 'react-dom/server']

const onStandby = isMainThread && process.env[standbyVariable] === '1' && process.send !== undefined
/** The modules this process loaded on standby (as file URLs): none may have changed when it starts. */
const loaded = new Set<string>()
/** Since when a module loaded on standby counts as changed: the process's start (see clockSlackMs). */
const since = performance.timeOrigin - clockSlackMs
/** Told of each catalog the rebuild reads ahead while this process waits (catalogAhead). */
let aheadListener: ((file: string) => void) | null = null
/** The last catalog read ahead before anyone listened. */
let aheadFile: string | null = null
const started = onStandby ? standBy() : Promise.resolve()

/** Resolves when the build may go on: at once, unless its process is on standby. */
export function buildStarted(): Promise<void> {
  return started
}

/** Whether this process started on standby (then, once it has built, it may be put back on standby: standByAgain). */
export function startedOnStandby(): boolean {
  return onStandby
}

/**
 * Calls `listener` with the file of each catalog the rebuild reads ahead while this process waits
 * on standby (build-process.ts, `catalog-ahead`), the last one before this call first; never called
 * in a process that did not start on standby, nor while it builds.
 */
export function onCatalogAhead(listener: (file: string) => void): void {
  aheadListener = listener
  if (aheadFile !== null) listener(aheadFile)
  aheadFile = null
}

/**
 * Puts a process that started on standby back on standby once it has built (build-server.ts,
 * `stand-by`): it waits for its next build as it waited for its first, handed the catalogs read
 * ahead meanwhile, and resolves with that build's environment and working folder once started;
 * unless a module it loaded on standby has changed since it started, when it says which and ends.
 */
export async function standByAgain(builds: number): Promise<{ env: Record<string, string | undefined>; cwd: string }> {
  const { next } = await waitToStart()
  if (!next) throw new Error('A build process put back on standby was started without the next build’s settings.')
  console.log(
    `[roland:standby] started again, with Astro and the site's modules loaded: build ${builds + 1} of this process`,
  )
  return next
}

/**
 * Counts these modules (file URLs), loaded on standby by a thread of this process, among those that
 * must not have changed when it starts: a thread's modules are not seen by this thread's hook.
 */
export function loadedOnStandby(urls: Iterable<string>): void {
  for (const url of urls) if (url.startsWith('file:')) loaded.add(url)
}

async function standBy(): Promise<void> {
  // This module and its one import of ours were loaded before the hook.
  loadedOnStandby([import.meta.url, import.meta.resolve('@roland/scripts/rebuild/build-process')])
  const hooks = registerHooks({
    resolve(specifier, context, next) {
      const resolved = next(specifier, context)
      if (resolved.url.startsWith('file:')) loaded.add(resolved.url)
      return resolved
    },
  })
  // The rebuild that started this process is gone: nothing will start it, nor remove the working
  // folder it made for it (.astro/builds/build-…).
  const orphaned = () => {
    const folder = process.cwd()
    if (/[\\/]\.astro[\\/]builds[\\/]build-[^\\/]+$/.test(folder)) rmSync(folder, { recursive: true, force: true })
    process.exit(0)
  }
  process.once('disconnect', orphaned)
  const ahead = process.env.NODE_ENV ? [...loadedAfterBundling, ...reactModules] : loadedAfterBundling
  const starting = waitToStart()
  void Promise.allSettled(ahead.map((specifier) => import(specifier)))
  await starting
  process.off('disconnect', orphaned)
  hooks.deregister()
  const waited = (performance.now() / 1000).toFixed(1)
  console.log(`[roland:standby] started, with Astro loaded: this build's process waited ${waited} s for it`)
  // The channel must not keep the build's process alive once it is done.
  process.channel?.unref()
}

/**
 * Waits on standby for `start`: says it listens, hands each catalog read ahead meanwhile to its
 * listener (onCatalogAhead), and once started, answers `started`, unless a module loaded on
 * standby has changed since the process started: it then says which, and ends.
 */
function waitToStart(): Promise<Extract<ToBuild, { type: 'start' }>> {
  const { promise, resolve } = Promise.withResolvers<Extract<ToBuild, { type: 'start' }>>()
  const send = (message: FromBuild, then: () => void = () => {}) => process.send!(message, then)
  const onMessage = (message: ToBuild) => {
    if (message.type === 'catalog-ahead') {
      if (aheadListener) aheadListener(message.file)
      else aheadFile = message.file
    }
    if (message.type !== 'start') return
    process.off('message', onMessage)
    const changed = [...loaded].find((url) => changedSince(url, since))
    if (changed) {
      send({ type: 'stale', file: fileURLToPath(changed) }, () => process.exit(0))
      return
    }
    send({ type: 'started' })
    resolve(message)
  }
  process.on('message', onMessage)
  send({ type: 'standing-by' })
  return promise
}

function changedSince(url: string, since: number): boolean {
  try {
    return statSync(fileURLToPath(url.replace(/[?#].*$/, ''))).mtimeMs >= since
  } catch {
    // Gone (or unreadable): not what was loaded.
    return true
  }
}
