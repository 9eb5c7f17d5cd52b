import type { PGlite } from '@electric-sql/pglite'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { Migration } from '../sql-files.ts'
import { StoreError } from '../types.ts'

// The embedded database's migrations: which it has had (roland.schema_migrations), and applying the
// shim and the pending ones in one transaction.

const shimUrl = new URL('../embedded-shim.sql', import.meta.url)

/** Which migrations a database has had and which it has not had yet. */
export interface MigrationStatus {
  /** Applied, in the order they were, with when. */
  applied: Array<{ version: string; name: string; appliedAt: string }>
  /** The code's migrations this database lacks, in the order they would run. */
  pending: Migration[]
}

/** Reads which migrations a database has had, and which of `migrations` it lacks. */
export async function migrationStatusOf(db: PGlite, migrations: Migration[]): Promise<MigrationStatus> {
  const { rows } = await db.query<{ ready: boolean }>(
    `select to_regclass('roland.schema_migrations') is not null as ready`,
  )
  const applied: MigrationStatus['applied'] = []
  if (rows[0]?.ready) {
    const done = await db.query<{ version: string; name: string; applied_at: string }>(
      `select version, name, to_json(applied_at) #>> '{}' as applied_at from roland.schema_migrations
        where version not like 'shim %' order by applied_at, version`,
    )
    for (const row of done.rows) applied.push({ version: row.version, name: row.name, appliedAt: row.applied_at })
  }
  const versions = new Set(applied.map((migration) => migration.version))
  return { applied, pending: migrations.filter((migration) => !versions.has(migration.version)) }
}

/**
 * Applies the shim (what Supabase has and a bare Postgres lacks), then the migrations the database
 * has not had yet, all in one transaction: a migration that fails leaves the database as it was,
 * none of the pending ones applied, and the error names it. The shim is recorded among the
 * migrations by a hash of its text, so it runs again only when it changes (running it on every
 * open cost a tenth of a second).
 */
export async function applyMigrations(db: PGlite, migrations: Migration[]): Promise<void> {
  const { pending } = await migrationStatusOf(db, migrations)
  const { rows } = await db.query<{ ready: boolean }>(
    `select to_regclass('roland.schema_migrations') is not null as ready`,
  )
  const shim = await readFile(shimUrl, 'utf8')
  const shimVersion = `shim ${createHash('sha256').update(shim).digest('hex').slice(0, 16)}`
  const shimApplied =
    rows[0]?.ready &&
    (await db.query('select 1 from roland.schema_migrations where version = $1', [shimVersion])).rows.length > 0
  if (shimApplied && pending.length === 0) return
  let current = 'embedded-shim.sql'
  try {
    await db.transaction(async (tx) => {
      if (!shimApplied) {
        await tx.exec(shim)
        await tx.query('insert into roland.schema_migrations (version, name) values ($1, $2)', [
          shimVersion,
          'embedded-shim.sql',
        ])
      }
      for (const migration of pending) {
        current = migration.name
        await tx.exec(migration.sql)
        await tx.query('insert into roland.schema_migrations (version, name) values ($1, $2)', [
          migration.version,
          migration.name,
        ])
      }
    })
  } catch (error) {
    const where = (error as { position?: string }).position
    throw new StoreError(
      `Migration ${current} failed: ${(error as Error).message}` +
        (where ? ` (at character ${where} of its SQL)` : '') +
        `. The database was left as it was: none of the ${pending.length} pending migrations` +
        (pending.length <= 5 ? ` (${pending.map((migration) => migration.name).join(', ')})` : '') +
        ' was applied. ' +
        'Fix that migration (or update the code: git pull, pnpm install), then open the store again.',
    )
  }
}
