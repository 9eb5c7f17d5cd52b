import type { Command } from 'commander'
import { createWriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { backupFileName, writeBackup } from '../backup/backup.ts'
import { restoreBackup, restoreBackupFiles, writeBackupSql } from '../backup/restore.ts'
import { businessStats } from '../catalog/queries.ts'
import { loadSampleData } from '../migrate/sample.ts'
import { dataDir } from '../paths.ts'
import { openStore, supabaseSettings } from '../store/index.ts'
import { StoreError } from '../store/types.ts'

/** Adds `roland db init|reset|status|backup|restore`. */
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

  db.command('backup')
    .description('write one file holding the database and the stored files (photos and their derivatives)')
    .option('--out <file>', 'where to write it (default: roland-backup-<date>.tar.gz here)')
    .action(async (options: { out?: string }) => {
      const out = path.resolve(options.out ?? backupFileName())
      // Written beside its name and renamed when whole: a file with the name is always a complete backup.
      const partial = `${out}.partial`
      const store = await openStore({ onCreate: loadSampleData })
      try {
        const summary = await writeBackup(store, createWriteStream(partial))
        await rename(partial, out)
        process.stdout.write(
          `Backed up ${store.location}: ${summary.rows} rows in ${summary.tables} tables and ${summary.files} files ` +
            `(${megabytes(summary.bytes)}) to ${out}.\n`,
        )
      } catch (error) {
        await rm(partial, { force: true })
        throw error
      } finally {
        await store.close()
      }
    })

  db.command('restore')
    .description('bring the embedded database and files back to the state of a backup')
    .argument('<file>', 'a file made by `roland db backup`')
    .option('--force', 'replace a database that holds data')
    .option(
      '--sql <out>',
      'write the SQL that loads the rows into a new Supabase project (psql), changing nothing here',
    )
    .option('--files-only', "upload the backup's files to the store in use (a Supabase project's bucket)")
    .action(async (file: string, options: { force?: boolean; sql?: string; filesOnly?: boolean }) => {
      const backup = path.resolve(file)
      if (options.sql) {
        const out = path.resolve(options.sql)
        // With a Supabase project configured, file URLs name its bucket, where --files-only uploads them.
        const settings = supabaseSettings()
        const filesUrl = settings ? `${settings.url}/storage/v1/object/public/files` : undefined
        const { tables, rows } = await writeBackupSql(backup, out, { filesUrl })
        process.stdout.write(
          `Wrote ${out}: ${rows} rows in ${tables} tables. Load it with psql "$DATABASE_URL" -f ${out}\n`,
        )
        return
      }
      if (options.filesOnly) {
        const store = await openStore()
        try {
          const { files, bytes } = await restoreBackupFiles(backup, store)
          process.stdout.write(`Uploaded ${files} files (${megabytes(bytes)}) from ${file} to ${store.location}.\n`)
        } finally {
          await store.close()
        }
        return
      }
      if (supabaseSettings()) {
        throw new StoreError(
          'db restore brings back the embedded store, and SUPABASE_URL is set. To move a backup to Supabase, ' +
            'load its rows with --sql and its files with --files-only (README.md, "Backups"); to restore the ' +
            'embedded store, unset SUPABASE_URL.',
        )
      }
      const dir = dataDir()
      const summary = await restoreBackup({ dir, file: backup, force: options.force ?? false })
      process.stdout.write(
        `Restored the embedded database in ${dir} from ${file}: ${summary.rows} rows in ${summary.tables} tables ` +
          `and ${summary.files} files (${megabytes(summary.bytes)}).\n`,
      )
    })
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
