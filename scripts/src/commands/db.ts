import type { Command } from 'commander'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { businessStats } from '../catalog/queries.ts'
import { loadSampleData } from '../migrate/sample.ts'
import { dataDir } from '../paths.ts'
import { openStore, supabaseSettings } from '../store/index.ts'
import { StoreError } from '../store/types.ts'

/** Adds `roland db init|reset|status`. */
export function register(program: Command): void {
  const db = program.command('db').description('the database: embedded Postgres under .data/, or Supabase')

  db.command('init')
    .description('create the embedded database with the sample data if it does not exist yet')
    .action(async () => {
      const store = await openStore({ onCreate: loadSampleData })
      try {
        const stats = businessStats(await store.loadCatalog())
        const created = 'created' in store && store.created
        process.stdout.write(`${created ? 'Created' : 'Using'} ${store.location}: ${stats.total} active businesses.\n`)
      } finally {
        await store.close()
      }
    })

  db.command('reset')
    .description('delete the embedded database and files, then recreate them with the seed and sample data')
    .action(async () => {
      if (supabaseSettings()) {
        throw new StoreError(
          'db reset only recreates the embedded database; SUPABASE_URL is set. ' +
            'To reload Supabase, run `pnpm roland migrate --reset`.',
        )
      }
      const dir = dataDir()
      await rm(path.join(dir, 'db'), { recursive: true, force: true })
      await rm(path.join(dir, 'storage'), { recursive: true, force: true })
      const store = await openStore({ onCreate: loadSampleData })
      try {
        const stats = businessStats(await store.loadCatalog())
        process.stdout.write(`Recreated ${store.location} with ${stats.total} sample businesses.\n`)
      } finally {
        await store.close()
      }
    })

  db.command('status')
    .description('say which database is in use and what it holds')
    .option('--json', 'print one JSON object')
    .action(async (options: { json?: boolean }) => {
      const store = await openStore({ onCreate: loadSampleData })
      try {
        const catalog = await store.loadCatalog()
        const status = {
          store: store.kind,
          location: store.location,
          ...businessStats(catalog),
          categories: catalog.categories.length,
          attractions: catalog.attractions.length,
          events: catalog.events.length,
        }
        process.stdout.write(
          options.json
            ? `${JSON.stringify(status)}\n`
            : `${status.location}: ${status.total} active businesses (${status.featured} featured), ` +
                `${status.categories} categories, ${status.attractions} attractions, ${status.events} events.\n`,
        )
      } finally {
        await store.close()
      }
    })
}
