import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { BackupTable } from '../src/backup/backup.ts'
import { readBackup, restoreBackup, type CheckedBackup } from '../src/backup/restore.ts'
import { repoRoot } from '../src/paths.ts'
import { embeddedMigrationStatus, openEmbeddedStore, type EmbeddedStore } from '../src/store/embedded.ts'
import { readMigrations, type Migration } from '../src/store/sql-files.ts'

// Upgrade safety (issue 43): a backup made by the previous release (fixtures/upgrade, made with that
// release's code by make-fixture.ts) is restored into that release's schema, then opened with this
// code, which applies the migrations since. Every row of every table the release had must still be
// there with every column it had, unchanged, and every stored file byte for byte.

const fixtureDir = path.join(repoRoot, 'scripts/test/fixtures/upgrade')
const fixture = path.join(fixtureDir, 'store.tar.gz')

interface ReleaseInfo {
  commit: string
  migrations: Array<{ name: string; sha256: string }>
}

let root: string
let release: ReleaseInfo
let backup: CheckedBackup
/** This code's copies of the release's migrations: the release's schema. */
let releaseMigrations: Migration[]

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-upgrade-'))
  release = JSON.parse(await readFile(path.join(fixtureDir, 'release.json'), 'utf8')) as ReleaseInfo
  backup = await readBackup(fixture, path.join(root, 'fixture-files'))
  const names = new Set(release.migrations.map((migration) => migration.name))
  releaseMigrations = (await readMigrations()).filter((migration) => names.has(migration.name))
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Every row of a table, as JSON objects (the form a backup holds them in). */
async function rowsOf(store: EmbeddedStore, table: string): Promise<Array<Record<string, unknown>>> {
  const { rows } = await store.db.query<{ rows: string }>(
    `select coalesce(json_agg(t), '[]')::text as rows from public."${table}" t`,
  )
  return JSON.parse(rows[0]!.rows) as Array<Record<string, unknown>>
}

/** A table's rows without their ids and times (which differ between two stores), in a stable order. */
async function contentOf(store: EmbeddedStore, table: string): Promise<string[]> {
  const rows = await rowsOf(store, table)
  return rows
    .map((row) =>
      JSON.stringify(Object.entries(row).filter(([column]) => !['id', 'created_at', 'updated_at'].includes(column))),
    )
    .sort()
}

/**
 * What of the backup the store lost or changed, one line each: a table gone, a row gone (by its
 * primary key), a column gone or a value changed, a file gone or changed. Rows a migration added
 * are not a loss.
 */
async function lostFrom(store: EmbeddedStore, held: CheckedBackup): Promise<string[]> {
  const lost: string[] = []
  const tables = new Map(
    (await store.call<BackupTable[]>('backup_tables', {})).map((table) => [table.name, table] as const),
  )
  for (const [name, rows] of held.tables) {
    const table = tables.get(name)
    if (!table) {
      if (rows.length) lost.push(`${name}: the table is gone, with its ${rows.length} rows`)
      continue
    }
    const keyOf = (row: Record<string, unknown>) => JSON.stringify(table.key.map((column) => row[column]))
    const now = new Map((await rowsOf(store, name)).map((row) => [keyOf(row), row] as const))
    for (const row of rows) {
      const current = now.get(keyOf(row))
      if (!current) {
        lost.push(`${name} ${keyOf(row)}: the row is gone`)
        continue
      }
      for (const [column, value] of Object.entries(row)) {
        if (!(column in current)) lost.push(`${name} ${keyOf(row)}: the column ${column} is gone`)
        else if (JSON.stringify(current[column]) !== JSON.stringify(value)) {
          lost.push(
            `${name} ${keyOf(row)}: ${column} was ${JSON.stringify(value)}, is ${JSON.stringify(current[column])}`,
          )
        }
      }
    }
  }
  for (const file of held.manifest.files) {
    const bytes = await store.files.get(file.path)
    if (!bytes) lost.push(`the file ${file.path} is gone`)
    else if (sha256(bytes) !== file.sha256) lost.push(`the file ${file.path} changed`)
  }
  return lost
}

// Restoring and migrating a database: many seconds on a loaded machine, never asserted.
const slow = { timeout: 240_000 }

describe('the upgrade fixture', () => {
  test('is a populated store made by the previous release', () => {
    const rows = (table: string) => backup.tables.get(table)?.length ?? 0
    for (const table of [
      'businesses',
      'business_images',
      'audit_log',
      'submissions',
      'listing_findings',
      'operators',
    ]) {
      expect(rows(table), table).toBeGreaterThan(0)
    }
    expect(backup.manifest.files.filter((file) => file.path.startsWith('variants/')).length).toBeGreaterThan(2)
    expect(backup.header.schema).toBe(release.migrations.at(-1)!.name.slice(0, 14))
  })

  test('was made with migrations this code still has, unchanged (a released migration is never edited)', async () => {
    const code = new Map(
      (await readMigrations()).map((migration) => [migration.name, sha256(Buffer.from(migration.sql))]),
    )
    expect(release.migrations.map((migration) => [migration.name, code.get(migration.name)])).toEqual(
      release.migrations.map((migration) => [migration.name, migration.sha256]),
    )
  })
})

describe('a store made by the previous release', () => {
  test(
    'opens under this code, which applies the migrations since, with every row, column and file kept',
    slow,
    async () => {
      const dir = path.join(root, 'upgraded')
      await restoreBackup({ dir, file: fixture, migrations: releaseMigrations })
      const before = await embeddedMigrationStatus({ dir })
      expect(before!.applied.map((migration) => migration.name)).toEqual(releaseMigrations.map((m) => m.name))

      const store = await openEmbeddedStore({ dir })
      try {
        expect((await embeddedMigrationStatusOfOpen(store)).pending).toEqual([])
        expect(await lostFrom(store, backup)).toEqual([])
      } finally {
        await store.close()
      }
      const after = await embeddedMigrationStatus({ dir })
      expect(after!.pending).toEqual([])
      expect(after!.applied.map((migration) => migration.name)).toEqual(
        (await readMigrations()).map((migration) => migration.name),
      )
    },
  )

  test(
    "restored straight into this code's schema: every row and file kept, and the tables it predates hold their defaults",
    slow,
    async () => {
      const dir = path.join(root, 'restored-now')
      const summary = await restoreBackup({ dir, file: fixture })
      // The tables a later release added (the town's settings, its pages) are not in the backup:
      // they keep what the migrations gave the new database, the same as any new store has.
      expect(summary.kept).toEqual(expect.arrayContaining(['pages', 'town_settings']))
      expect(summary.kept.filter((name) => backup.tables.has(name))).toEqual([])
      const fresh = await openEmbeddedStore({ seed: false })
      const store = await openEmbeddedStore({ dir })
      try {
        expect(await lostFrom(store, backup)).toEqual([])
        for (const table of ['town_settings', 'pages']) {
          const defaults = await contentOf(fresh, table)
          expect(defaults.length, table).toBeGreaterThan(0)
          expect(await contentOf(store, table), table).toEqual(defaults)
        }
      } finally {
        await store.close()
        await fresh.close()
      }
    },
  )

  test(
    'meets a migration that fails: the store is left as it was, and the error names the migration and why',
    slow,
    async () => {
      const dir = path.join(root, 'broken')
      await restoreBackup({ dir, file: fixture, migrations: releaseMigrations })
      const statusBefore = await embeddedMigrationStatus({ dir })
      const code = await readMigrations()
      const scratch: Migration[] = [
        {
          version: '29991231000100',
          name: '29991231000100_adds_a_table.sql',
          sql: 'create table public.upgrade_scratch (id int primary key); update public.businesses set phone = null;',
        },
        {
          version: '29991231000200',
          name: '29991231000200_broken.sql',
          sql: 'alter table public.businesses drop column no_such_column;',
        },
      ]
      await expect(openEmbeddedStore({ dir, migrations: [...code, ...scratch] })).rejects.toThrow(
        new RegExp(
          'Migration 29991231000200_broken\\.sql failed: column "no_such_column" of relation "businesses" does not exist\\. ' +
            `The database was left as it was: none of the ${statusBefore!.pending.length + 2} pending migrations`,
        ),
      )
      expect(await embeddedMigrationStatus({ dir })).toEqual(statusBefore)
      const store = await openEmbeddedStore({ dir, migrations: releaseMigrations })
      try {
        const { rows } = await store.db.query(`select to_regclass('public.upgrade_scratch') as scratch`)
        expect(rows).toEqual([{ scratch: null }])
        expect(await lostFrom(store, backup)).toEqual([])
      } finally {
        await store.close()
      }
    },
  )
})

describe('roland db status', () => {
  const run = promisify(execFile)
  const status = (dir: string, ...args: string[]) =>
    run(process.execPath, [path.join(repoRoot, 'scripts/src/cli.ts'), 'db', 'status', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ROLAND_DATA_DIR: dir },
    })

  test('says which migrations are applied and which are pending, and applies none', slow, async () => {
    const dir = path.join(root, 'behind')
    const code = await readMigrations()
    const store = await openEmbeddedStore({ dir, migrations: code.slice(0, -1), seed: false })
    await store.close()

    const { stdout } = await status(dir)
    expect(stdout).toContain(`${code.length - 1} migrations applied, 1 pending:\n  pending  ${code.at(-1)!.name}\n`)
    expect(stdout).toContain('Run `pnpm roland db migrate` to apply them')
    const json = JSON.parse((await status(dir, '--json')).stdout) as { applied: string[]; pending: string[] }
    expect(json).toMatchObject({ applied: code.slice(0, -1).map((m) => m.name), pending: [code.at(-1)!.name] })
    expect((await embeddedMigrationStatus({ dir }))!.pending.map((m) => m.name)).toEqual([code.at(-1)!.name])
  })
})

/** The migration status of a store this process holds open (its lock is this process's). */
async function embeddedMigrationStatusOfOpen(store: EmbeddedStore): Promise<{ pending: string[] }> {
  const code = await readMigrations()
  const { rows } = await store.db.query<{ version: string }>('select version from roland.schema_migrations')
  const applied = new Set(rows.map((row) => row.version))
  return { pending: code.filter((migration) => !applied.has(migration.version)).map((m) => m.name) }
}
