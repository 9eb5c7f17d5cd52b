import type { Command } from 'commander'
import { loadSampleData } from '../migrate/sample.ts'
import { openLeasedStore } from '../store/leased.ts'
import { runRebuild, type RebuildResult } from '../rebuild/rebuild.ts'
import { openStore } from '../store/index.ts'
import { terminalProgress } from './progress.ts'
import { profileLinePrefix, profileVariable } from '../rebuild/build-process.ts'

/** Adds `roland rebuild`: what the console runs after a job changes data. */
export function register(program: Command): void {
  program
    .command('rebuild')
    .description('rebuild the site: POST to REBUILD_HOOK_URL when it is set, else build it locally (astro build)')
    .option('--json', 'print the result as one JSON object')
    .option('--verbose', "print the build's output as it goes")
    .option('--profile', 'print where the build spent its time and memory, phase by phase (ROLAND_BUILD_PROFILE=1)')
    .action(async (flags: { json?: boolean; verbose?: boolean; profile?: boolean }) => {
      // The build's process takes this process's environment: it prints its table once published.
      if (flags.profile) process.env[profileVariable] = '1'
      // Leased: the local build opens the embedded database in its own process.
      const store = await openLeasedStore(() => openStore({ onCreate: loadSampleData }))
      const progress = terminalProgress()
      try {
        const result = await runRebuild({
          store,
          trigger: 'cli',
          startedBy: 'cli',
          onEvent: (event) => {
            if ('log' in event && (flags.verbose || (flags.profile && event.log.startsWith(profileLinePrefix)))) {
              progress.done()
              process.stderr.write(`${event.log}\n`)
            }
            if (!flags.json) progress(event)
          },
        })
        progress.done()
        process.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : describe(result))
      } finally {
        progress.done()
        await store.close()
      }
    })
}

function describe(result: RebuildResult): string {
  const seconds = (result.durationMs / 1000).toFixed(1)
  return result.mode === 'hook'
    ? `Rebuild hook called (HTTP ${result.status}) in ${seconds} s: the host builds and publishes the site.\n`
    : `Site built in ${seconds} s into ${result.outDir}.\n`
}
