import { mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import { isProcessAlive } from './scripts/src/lock-file.ts'
import { cpuLogVariable } from './test/support/cpu-reporter.ts'

// The run's temporary files (stores, data folders, built sites, browser profiles) go to a RAM disk
// when the machine has a roomy one (Linux's /dev/shm), unless TMPDIR says where. A run creates
// hundreds of thousands of files, and creating one on this machine's disk took ten times as long:
// copying a store's folder (1,189 files) took 0.7 s of the kernel's time there, 0.06 s in memory.
// The folder goes when the run ends; a run that was killed leaves it (memory, until the machine
// restarts), so each run first removes those of runs whose process is gone.
const tmpfsMagic = 0x01021994
function ramTempDir(): string | undefined {
  try {
    const disk = statfsSync('/dev/shm')
    if (disk.type !== tmpfsMagic) return undefined
    for (const name of readdirSync('/dev/shm')) {
      const run = /^roland-test-(\d+)-/.exec(name)
      if (run && !isProcessAlive(Number(run[1]))) rmSync(`/dev/shm/${name}`, { recursive: true, force: true })
    }
    const room = statfsSync('/dev/shm')
    if (room.bavail * room.bsize < 8 * 2 ** 30) return undefined
    const dir = mkdtempSync(`/dev/shm/roland-test-${process.pid}-`)
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    return dir
  } catch {
    return undefined
  }
}
if (!process.env.TMPDIR) {
  const dir = ramTempDir()
  if (dir) process.env.TMPDIR = dir
}

// Node keeps the compiled code of the modules it loads here, and the workers, CLI processes and site
// builds a run starts after the first reuse it: a CLI-heavy test file runs about a sixth faster.
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('node_modules/.cache/node-compile-cache', import.meta.url))

// `ROLAND_TEST_CPU=1 pnpm test`: after the run, the test files that took the most CPU time, their
// processes' included (test/support/cpu-reporter.ts): the workers write each file's to this log.
const cpuReport = process.env.ROLAND_TEST_CPU === '1'
if (cpuReport) process.env[cpuLogVariable] = path.join(tmpdir(), `roland-test-cpu-${process.pid}.jsonl`)

const siteEndToEnd = 'test/site/**/*.test.ts'
// Finds (or installs, once) the Chromium the browser tests drive, before any worker starts.
const browserSetup = 'test/support/browser-global-setup.ts'
// Makes one migrated and seeded database the unit tests copy for a fresh store (freshStore()).
const storeTemplateSetup = 'scripts/test/support/fresh-store.ts'

export default defineConfig({
  test: {
    // Two test files more than there are cores: most files spend much of their time waiting on a
    // process of their own (Chromium, a site build, the CLI), which the extra files fill. On this
    // 2-core machine, on 2026-12-04, 3 files at a time ran the suite in 674 s and 1,054 CPU-s (a
    // fifth of the two cores' time idle), 4 in 565 s and 985 CPU-s (`vmstat`: 0–1% idle).
    maxWorkers: availableParallelism() + 2,
    ...(cpuReport ? { reporters: ['default', './test/support/cpu-reporter.ts'] } : {}),
    // A worker runs file after file with the modules it loaded kept: PGlite's WebAssembly, sharp,
    // Playwright and the rest load once a worker instead of once a file (a quarter of the unit
    // tests' CPU time, an eighth of the site tests'). The files share no state: each opens its own
    // stores, servers and browser, and restores what it changes (stubbed variables, TZ, spies).
    isolate: false,
    testTimeout: 60_000,
    // Keeps PGlite's WebAssembly in V8's baseline code in the workers, as the CLI and the console do.
    setupFiles: ['test/support/worker-setup.ts'],
    hookTimeout: 240_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['scripts/**/*.test.ts', 'console/**/*.test.ts', 'site/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, siteEndToEnd],
          globalSetup: [browserSetup, storeTemplateSetup],
        },
      },
      {
        // The built site in a real Chromium: the site is built once, from a fixture catalog, for this project only.
        extends: true,
        test: {
          name: 'site',
          include: [siteEndToEnd],
          globalSetup: [browserSetup, 'test/support/site-global-setup.ts'],
        },
      },
    ],
  },
})
