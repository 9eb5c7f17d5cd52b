import type { Command } from 'commander'
import { createWriteStream, existsSync } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { backupFileName, writeBackup } from '../backup/backup.ts'
import { defaultRetention, verifyAndRecord, verifyBackup, writeCheckedBackup } from '../backup/checked.ts'
import { restoreBackup, restoreBackupFiles, writeBackupSql } from '../backup/restore.ts'
import { businessStats } from '../catalog/queries.ts'
import { loadSampleData } from '../migrate/sample.ts'
import { dataDir } from '../paths.ts'
import { embeddedMigrationStatus } from '../store/embedded.ts'
import { openStore, supabaseSettings } from '../store/index.ts'
import { readMigrations } from '../store/sql-files.ts'
import { StoreError } from '../store/types.ts'

/** Adds `roland db init|reset|status|migrate|backup|verify|restore`. */
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
    .description('say which database is in use, which migrations it has had and which are pending, and what it holds')
    .option('--json', 'print one JSON object')
    .action(async (options: { json?: boolean }) => {
      // Read before anything opens the store, which would apply the pending migrations.
      const onSupabase = supabaseSettings() !== null
      const migrations = onSupabase ? null : await embeddedMigrationStatus({ dir: dataDir() })
      const applied = migrations?.applied.map((migration) => migration.name)
      const pending = migrations?.pending.map((migration) => migration.name)
      if (pending?.length) {
        const status = { store: 'embedded', location: `the embedded database in ${dataDir()}`, applied, pending }
        process.stdout.write(
          options.json
            ? `${JSON.stringify(status)}\n`
            : `${status.location}: ${applied!.length} migrations applied, ${pending.length} pending:\n` +
                pending.map((name) => `  pending  ${name}\n`).join('') +
                'Run `pnpm roland db migrate` to apply them (the console and every job also do when they open it).\n',
        )
        return
      }
      const store = await openStore({ onCreate: loadSampleData })
      try {
        const catalog = await store.loadCatalog()
        const code = await readMigrations()
        const newest = code.at(-1)?.name ?? 'none'
        const status = {
          store: store.kind,
          location: store.location,
          // A database this open created has had every migration.
          ...(onSupabase ? {} : { applied: applied ?? code.map((migration) => migration.name), pending: [] }),
          ...businessStats(catalog),
          categories: catalog.categories.length,
          attractions: catalog.attractions.length,
          events: catalog.events.length,
        }
        process.stdout.write(
          options.json
            ? `${JSON.stringify(status)}\n`
            : `${status.location}: ${status.total} active businesses (${status.featured} featured), ` +
                `${status.categories} categories, ${status.attractions} attractions, ${status.events} events.\n` +
                (!onSupabase
                  ? `Migrations: all ${code.length} applied, none pending (newest ${newest}).\n`
                  : `Migrations: Supabase applies them with \`supabase db push\`; \`supabase migration list\` ` +
                    `says which are applied (this code's newest is ${newest}).\n`),
        )
      } finally {
        await store.close()
      }
    })

  db.command('migrate')
    .description('apply the migrations the embedded database has not had yet (all or none)')
    .action(async () => {
      if (supabaseSettings()) {
        throw new StoreError(
          'db migrate applies migrations to the embedded database, and SUPABASE_URL is set: ' +
            'apply them to Supabase with `supabase db push`.',
        )
      }
      const before = await embeddedMigrationStatus({ dir: dataDir() })
      const store = await openStore({ onCreate: loadSampleData })
      await store.close()
      const names = before ? before.pending.map((migration) => migration.name) : []
      process.stdout.write(
        before === null
          ? `Created ${store.location} with every migration and the sample data.\n`
          : names.length
            ? `Applied ${names.length} migrations to ${store.location}: ${names.join(', ')}.\n`
            : `${store.location} has every migration already: nothing to apply.\n`,
      )
    })

  db.command('backup')
    .description('write one file holding the database and the stored files (photos and their derivatives)')
    .option('--out <file>', 'where to write it (default: roland-backup-<date>.tar.gz here)')
    .option(
      '--dir <folder>',
      'write it into a folder of backups, check it by restoring it into a scratch store, and remove old ones',
    )
    .option('--keep <days>', 'with --dir: how many daily backups to keep (besides 4 weekly)', '7')
    .action(async (options: { out?: string; dir?: string; keep: string }) => {
      if (options.dir) {
        if (options.out) throw new StoreError('Give --out (one file) or --dir (a folder of backups), not both.')
        const daily = Number(options.keep)
        if (!Number.isInteger(daily) || daily < 1) {
          throw new StoreError(`--keep takes a number of days, 1 or more (e.g. --keep 7), not "${options.keep}".`)
        }
        const store = await openStore({ onCreate: loadSampleData })
        try {
          const dir = path.resolve(options.dir)
          const result = await writeCheckedBackup({ store, dir, retention: { ...defaultRetention, daily } })
          process.stdout.write(
            `Backed up ${store.location}: ${result.summary.rows} rows in ${result.summary.tables} tables and ` +
              `${result.summary.files} files (${megabytes(result.summary.bytes)}) to ${result.file}.\n`,
          )
          if (!result.check.ok) {
            throw new StoreError(
              `The backup's check failed: ${result.check.error}. Kept it for a look; removed nothing.`,
            )
          }
          process.stdout.write(
            `Checked it: restored into a scratch store, ${result.check.rows} rows in ${result.check.tables} tables ` +
              `and ${result.check.files} files came back as the backup lists them.\n` +
              (result.removed.length
                ? `Removed ${result.removed.length} older backups: ${result.removed.join(', ')}.\n`
                : ''),
          )
        } finally {
          await store.close()
        }
        return
      }
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

  db.command('verify')
    .description('check a backup: restore it into a scratch store and compare row counts and file hashes')
    .argument('<file>', 'a file made by `roland db backup`')
    .action(async (file: string) => {
      const backup = path.resolve(file)
      if (!existsSync(backup)) throw new StoreError(`There is no file ${backup}: give the path of a backup.`)
      // In a folder of backups the outcome is recorded beside it, for the console's Today and Needs attention.
      const check = existsSync(`${backup}.check.json`) ? await verifyAndRecord(backup) : await verifyBackup(backup)
      if (!check.ok) throw new StoreError(`${file} failed its check: ${check.error}`)
      process.stdout.write(
        `${file} is good: restored into a scratch store, ${check.rows} rows in ${check.tables} tables and ` +
          `${check.files} files (${megabytes(check.bytes)}) came back as it lists them (made ${check.createdAt}).\n`,
      )
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
          `and ${summary.files} files (${megabytes(summary.bytes)}).\n` +
          (summary.kept.length
            ? `The backup holds no ${summary.kept.join(', ')} (made before a release added them, or left out): ` +
              "those tables kept this database's rows (in a new database, the town's starting settings and pages).\n"
            : ''),
      )
    })
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
