// A site build's process that runs one build after another (runAstroBuild's `reuse`, in
// @roland/scripts/rebuild/astro-build): for a process that builds many sites in turn, the tests
// above all. A fresh process loads Node, Astro, Vite, the site's integrations and the packages its
// pages use for every build: about half of a fixture site's build, 3 of its 6 CPU-seconds, on a
// 2-core machine.
//
// Started as `node build-server.ts <astro's bin> build --root <site>`, it runs Astro's own command
// line (its `astro build`, errors and exit code included) with the environment and working folder
// it started with, then prints buildServedLine and waits. Each `build` message (build-process.ts)
// then gives it another build's environment, in place of its own, and a working folder of its own,
// where Astro writes that build's bundle: a module keeps its first instance for its path, so a
// bundle at a path this process has loaded before would not be loaded again. A build that fails
// ends the process, as `astro build` does (exit 1): only a process whose builds all succeeded is
// handed another.
//
// Started on standby (the console's rebuilds, build-standby.ts), it waits for its first build as any
// process on standby does; once that build is done, each `stand-by` message puts it back on standby
// for the next, which its `start` message hands the environment and working folder as `build` does.
// When started again it checks the modules it loaded on its first standby, as then: those it loaded
// later (Astro's own, as it builds) are taken to be as when loaded, for its few builds
// (buildsPerProcess in astro-build.ts).
//
// What an integration keeps between builds it sets afresh as each build starts (bundle-cache.ts,
// generated-files.ts, publish-site.ts); what a build keeps for the whole process is forgotten here,
// before the next starts (the catalog's read, the profile).
import { loadDotEnv } from '@roland/scripts/env'
import { buildServedLine, peakMemoryPrefix, type ToBuild } from '@roland/scripts/rebuild/build-process'
import { rmSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { markBuildStart } from '../lib/build-profile.ts'
import { setCatalogSource } from '../lib/catalog-slot.ts'
import { catalogRead, forgetCatalogRead, holdLastSearchIndex } from './catalog-read.ts'
import { standByAgain, startedOnStandby } from './build-standby.ts'
import { deferUntilServed, writeServed } from './after-served.ts'
import { buildRunning, collectWhileIdle } from './idle-gc.ts'

const [astroBin, ...astroArgs] = process.argv.slice(2)
if (!astroBin || process.send === undefined) {
  console.error("build-server.ts runs a rebuild's builds: start it with runAstroBuild({ reuse: true }).")
  process.exit(2)
}
const { cli } = (await import(new URL('../dist/cli/index.js', pathToFileURL(astroBin)).href)) as {
  cli: (argv: string[]) => Promise<void>
}

async function build(): Promise<void> {
  buildRunning(true)
  // On an error, Astro's command line prints it and ends the process (exit 1).
  await cli([process.execPath, astroBin!, ...astroArgs])
  // The folder it built in is its rebuild's to remove from now on, and then another build's to
  // claim: this process, ended later, must not remove it from under that build. It waits in its
  // own: a thread started in a folder removed fails (uv_cwd), as a catalog's reader did, handed
  // the next build's catalog ahead.
  folder = startFolder
  process.chdir(startFolder)
  console.log(`${peakMemoryPrefix} ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`)
  // The rebuild waits for these lines, and for all the build printed before them: out before the
  // writes below. (A pipe takes what it has room for, and Node keeps the rest until its thread is
  // free: with the pages' lines of a rebuild at 100,000 businesses still in it, the rebuild waited
  // for those writes, 0.4 s.)
  await Promise.all([
    new Promise((sent) => process.stdout.write(`${buildServedLine}\n`, sent)),
    new Promise((sent) => process.stderr.write(`${buildServedLine}\n`, sent)),
  ])
  // The site published, Astro's manifest of the pages it wrote and the site's record are written
  // for a build in another process (a build in this one takes them as they are).
  writePending()
  buildRunning(false)
  // A build started on standby lets the channel go (build-standby.ts): this process waits on it now.
  process.channel?.ref()
}

// Astro's incremental manifest (the key of every page it wrote) is written once the build is done
// rather than before the site is published (Astro's patched incremental.js): at 100,000 businesses
// its 30 MB of JSON took 0.3 s of each rebuild. The last one is removed as the build ends, so a
// process that ends before writing it leaves none (the next build renders every page), never one
// older than the site.
const astroGlobals = globalThis as Record<symbol, unknown>
astroGlobals[Symbol.for('astro.build.defer-manifest')] = true
deferUntilServed()
function writePending(): void {
  const write = astroGlobals[Symbol.for('astro.build.write-pending-manifest')]
  if (typeof write === 'function') (write as () => void)()
  writeServed()
}
// A rebuild ends a process it does not keep as soon as its build is done: the manifest and the
// record are written first, and the process then ends as the signal would have ended it.
process.once('SIGTERM', () => {
  writePending()
  process.kill(process.pid, 'SIGTERM')
})

/**
 * The folder this process started in, which stays while it runs (the processes it starts, esbuild's,
 * work there), and the one it builds in now, which its rebuild removes once the build is done. Once
 * it was removed, another build may claim the same name (build-child.ts, claimBuildFolder): a
 * process that removed its last folder as it ended took that build's bundle from under it (a test
 * worker ended while another one's build rendered: "Cannot find module …/.prerender/chunks/…").
 */
const startFolder = process.cwd()
let folder = startFolder
/** How many builds this process has run. */
let builds = 1

process.on('message', (message: ToBuild) => {
  if (message.type === 'build') buildNext(message)
  else if (message.type === 'stand-by' && startedOnStandby()) {
    // The last build's catalog and search index go before the next build's catalog is read ahead:
    // at 100,000 businesses each catalog is about a quarter of the heap a build is given. Its
    // businesses stay, as the parts of the file they were read from (readCatalogFile's reuse): the
    // next catalog takes those of them that did not change, and is not a second copy.
    // The index its reader kept, to update on this thread (search-index-held.ts): read while waiting.
    void holdLastSearchIndex().then(collectWhileIdle)
    forgetCatalogRead()
    setCatalogSource(undefined)
    void standByAgain(builds).then(buildNext)
  }
})

/** Runs the next build, with this environment in place of the process's and in this working folder. */
function buildNext(next: { env: Record<string, string | undefined>; cwd: string }): void {
  for (const name of Object.keys(process.env)) if (!(name in next.env)) delete process.env[name]
  Object.assign(process.env, next.env)
  process.chdir(next.cwd)
  folder = next.cwd
  forgetCatalogRead()
  markBuildStart()
  // As read-catalog-early.ts does for the first build: .env first, as astro.config.mjs reads it.
  loadDotEnv()
  void catalogRead()
  console.log(`[roland:build-server] build ${++builds} of this process, which has Astro and the site's modules loaded`)
  void build()
}

// Its rebuild's process is gone: nothing will hand it another build, nor remove its folder.
process.once('disconnect', () => {
  for (const made of new Set([startFolder, folder])) rmSync(made, { recursive: true, force: true })
  process.exit(0)
})

await build()
