import type { Command } from 'commander'
import { readFile } from 'node:fs/promises'
import { readTown } from '../content/town.ts'
import { initTown, parseTownFile, TownInitError } from '../content/town-init.ts'
import { openStore } from '../store/index.ts'

/** Adds `roland town init|show`: the town the site is about (the town settings). */
export function register(program: Command): void {
  const town = program
    .command('town')
    .description('the town the site is about: its settings, and a store for a new town')

  town
    .command('init')
    .description(
      'start the store for a town: its settings from a JSON file, neutral starting texts, no businesses, attractions or events',
    )
    .requiredOption(
      '--file <path>',
      'the town settings as JSON: name, state, state_code, zip, county, tagline, time_zone, …',
    )
    .option('--force', 'replace a store that holds businesses, attractions or events (they are deleted)')
    .action(async (flags: { file: string; force?: boolean }) => {
      let text: string
      try {
        text = await readFile(flags.file, 'utf8')
      } catch (error) {
        throw new TownInitError(
          `Cannot read ${flags.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
        )
      }
      const settings = parseTownFile(text, flags.file)
      // A store made by this command holds only the seed's sample content, which a new town replaces.
      const store = await openStore()
      try {
        const { removed, pages } = await initTown(store, settings, {
          force: flags.force === true || (store as { created?: boolean }).created === true,
        })
        const gone = removed.businesses + removed.attractions + removed.events
        process.stdout.write(
          `Started ${settings.name}, ${settings.state} in ${store.location} with ${pages} starter pages` +
            (gone
              ? ` (removed ${removed.businesses} businesses, ${removed.attractions} attractions, ${removed.events} events)`
              : '') +
            '. Next: import its business list with `pnpm roland migrate --file list.txt`.\n',
        )
      } finally {
        await store.close()
      }
    })

  town
    .command('show')
    .description('print the town settings')
    .option('--json', 'print them as one JSON object')
    .action(async (flags: { json?: boolean }) => {
      const store = await openStore()
      try {
        const settings = await readTown(store)
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(settings)}\n`)
          return
        }
        for (const [key, value] of Object.entries(settings)) process.stdout.write(`${key}: ${value ?? ''}\n`)
      } finally {
        await store.close()
      }
    })
}
