import { PGlite, type Transaction } from '@electric-sql/pglite'
import { existsSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { parseCatalog, type Catalog } from '../catalog/types.ts'
import { acquireLockFile } from '../lock-file.ts'
import { folderStorage, sweepAfterCrash } from './folder-storage.ts'
import type { FunctionName } from './database.ts'
import {
  catalogRest,
  catalogStateSql,
  changedSince,
  listAll,
  listedAgain,
  listedAll,
  parseFollowed,
  type CatalogState,
} from './embedded/catalog-read.ts'
import { sqlJobs } from './embedded/jobs.ts'
import { openFromEmptyCluster } from './embedded/empty-cluster.ts'
import { applyMigrations, migrationStatusOf, type MigrationStatus } from './embedded/migrations.ts'
import { readMigrations, readSeed, type Migration } from './sql-files.ts'
import {
  SqlError,
  StoreError,
  type BusinessRecord,
  type CatalogMark,
  type CatalogRead,
  type CallOptions,
  type NewBusinessImage,
  type Store,
  type StoredBusinessImage,
} from './types.ts'

// The embedded store: PGlite in a data folder (or in memory), the same schema as Supabase. What
// lives where: this module opens it (the lock, the migrations, the seed) and answers the Store
// interface; embedded/migrations.ts says which migrations it has had and applies the rest;
// embedded/catalog-read.ts reads the catalog as the site does (a cursor, and only the businesses
// changed since an earlier read); embedded/jobs.ts keeps the job history.

export type { MigrationStatus } from './embedded/migrations.ts'

// How the embedded Postgres starts: PGlite's settings, with 4 MB of shared buffers instead of the
// 128 MB initdb writes into postgresql.conf, and room for 5 connections instead of 100 (it serves
// one, in single-user mode). Every open clears its shared memory in WebAssembly memory (mmap's
// memset), page by page: 128 MB cost a CLI command a third of its CPU time and a process 270 MB;
// 16 MB (24 MB of shared memory in all) still cost each open 85 ms of CPU, where 4 MB and 5
// connections (8 MB in all) cost 27-32 ms (ten opens of the sample store in one process, 5.4-6.1
// CPU-s then, 4.6-5.4 now). A single-user database reads the pages that do not fit from the
// system's file cache: reading the catalog of 10,000 or 100,000 businesses took as long with either.
// The lock table is sized by the connections too: one transaction can still lock some 3,400
// relations (it failed at the 1,718th new table with its key; at 100 connections, the 5,416th), where
// the schema has about 100 and a restore or a migration locks each once.
export const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=4MB', '-c', 'max_connections=5']

/** Options for the embedded store. */
export interface EmbeddedOptions {
  /** The data folder (database in db/, files in storage/); omitted, the database lives in memory. */
  dir?: string
  /** How long to wait for another process to close the database (default 30 s). */
  lockTimeoutMs?: number
  /**
   * In memory only: start from a copy of another embedded database, the dump its
   * `db.dumpDataDir()` made, instead of creating one; migrations the copy lacks are applied. A
   * copy opens in a fraction of the time creating, migrating and seeding a database takes, which
   * is what tests that want a fresh database for each case need.
   */
  copyOf?: Blob
  /**
   * The migrations the database should have (default: every file of supabase/migrations). Tests
   * give an older list to make a store as an earlier release did (the upgrade test), or a list
   * with a broken one.
   */
  migrations?: Migration[]
  /** Whether a database this open creates gets seed.sql (default true; a restore replaces every row anyway). */
  seed?: boolean
}

/** The embedded store, with what only it can do. */
export interface EmbeddedStore extends Store {
  readonly kind: 'embedded'
  /** True when this open created the database (migrations and seed were just applied). */
  readonly created: boolean
  /** The Postgres itself, for tests and the SQL a job runs directly. */
  readonly db: PGlite
  /** Reads the catalog again, reading only the businesses changed since `since`, by the audit log. */
  followCatalog(since?: CatalogMark): Promise<CatalogRead>
  /** Runs fn in a transaction as one of the Supabase API roles, the way PostgREST would. */
  asRole<T>(role: 'anon' | 'authenticated' | 'service_role', fn: (tx: Transaction) => Promise<T>): Promise<T>
}

/** Opens (and on first use creates) the embedded Postgres, applying pending migrations. */
export async function openEmbeddedStore(options: EmbeddedOptions = {}): Promise<EmbeddedStore> {
  const dbDir = options.dir ? path.join(options.dir, 'db') : undefined
  if (dbDir && options.copyOf) throw new StoreError('A copy of an embedded database can only be opened in memory.')
  const created = dbDir === undefined ? !options.copyOf : !existsSync(path.join(dbDir, 'PG_VERSION'))
  let release = async () => {}
  if (options.dir) {
    await mkdir(options.dir, { recursive: true })
    release = await takeLock(path.join(options.dir, 'db.lock'), options.lockTimeoutMs ?? 30_000)
  }
  let db: PGlite
  try {
    const open = (loadDataDir?: Blob) =>
      PGlite.create(dbDir ? { dataDir: dbDir, loadDataDir, startParams } : { loadDataDir, startParams })
    // A new database starts as a copy of the empty cluster initdb makes (empty-cluster.ts).
    db =
      options.copyOf || !created
        ? await open(options.copyOf)
        : await openFromEmptyCluster({
            open,
            clear: async () => {
              if (dbDir) await rm(dbDir, { recursive: true, force: true })
            },
            startParams,
          })
  } catch (error) {
    await release()
    throw new StoreError(
      `Could not open the embedded database in ${dbDir}: ${(error as Error).message}\n` +
        'If it is damaged, recreate it with `pnpm roland db reset` (this deletes local data).',
    )
  }
  try {
    await applyMigrations(db, options.migrations ?? (await readMigrations()))
    if (created && options.seed !== false) await db.exec(await readSeed())
    if (options.dir) await sweepAfterCrash(filesDir(options.dir), journalDir(options.dir), () => storedImagePaths(db))
  } catch (error) {
    await db.close()
    await release()
    if (created && dbDir) await rm(dbDir, { recursive: true, force: true })
    throw error
  }
  return makeStore(db, options.dir, created, release)
}

/**
 * Says which migrations the embedded database in a data folder has had and which are pending,
 * without applying any (`roland db status`); null when the folder holds no database yet.
 */
export async function embeddedMigrationStatus(options: {
  dir: string
  migrations?: Migration[]
  lockTimeoutMs?: number
}): Promise<MigrationStatus | null> {
  const dbDir = path.join(options.dir, 'db')
  if (!existsSync(path.join(dbDir, 'PG_VERSION'))) return null
  const release = await takeLock(path.join(options.dir, 'db.lock'), options.lockTimeoutMs ?? 30_000)
  try {
    const db = await PGlite.create({ dataDir: dbDir, startParams })
    try {
      return await migrationStatusOf(db, options.migrations ?? (await readMigrations()))
    } finally {
      await db.close()
    }
  } finally {
    await release()
  }
}

const filesDir = (dir: string) => path.join(dir, 'storage', 'files')
const journalDir = (dir: string) => path.join(dir, 'storage', 'journal')

/** The bucket paths the business_images rows name: each original and its derivatives. */
async function storedImagePaths(db: PGlite): Promise<Set<string>> {
  const { rows } = await db.query<{ url: string }>(`
    select image_url as url from public.business_images
    union all
    select v ->> 'url' from public.business_images, jsonb_array_elements(variants) v`)
  return new Set(rows.flatMap(({ url }) => (url?.startsWith('/files/') ? [url.slice('/files/'.length)] : [])))
}

// PGlite is one process's Postgres: a second process opening the same folder would corrupt it.
// Processes take turns instead (the console and a CLI job, say): wait a while for the lock.
function takeLock(file: string, timeoutMs: number): Promise<() => Promise<void>> {
  return acquireLockFile(file, {
    timeoutMs,
    busyError: (pid) =>
      new StoreError(
        `The embedded database is in use by process ${pid} (${file}).\n` +
          'Wait for that job to finish, or stop that process (a running `pnpm dev` or CLI job), and try again.',
      ),
    sameProcessError: () =>
      new StoreError(`The embedded database in ${path.dirname(file)} is already open in this process.`),
  })
}

function makeStore(db: PGlite, dir: string | undefined, created: boolean, release: () => Promise<void>): EmbeddedStore {
  const asRole: EmbeddedStore['asRole'] = (role, fn) =>
    db.transaction(async (tx) => {
      await tx.exec(`set local role ${role}`)
      return fn(tx)
    })
  const files = folderStorage(dir ? filesDir(dir) : undefined, dir ? journalDir(dir) : undefined)
  return {
    kind: 'embedded',
    location: dir ? `the embedded database in ${dir}` : 'an in-memory embedded database',
    created,
    db,
    asRole,
    async loadCatalog(): Promise<Catalog> {
      // One transaction: every page sees the same catalog. Each business is parsed as it comes,
      // and its text let go (a build's read, at 100,000 businesses).
      const raw = await asRole('anon', async (tx) => {
        const businesses: unknown[] = []
        await listAll(tx, (_id, json) => businesses.push(JSON.parse(json)))
        return { businesses, ...(await catalogRest(tx)) }
      })
      return parseCatalog(raw, this.location)
    },
    async followCatalog(before?: CatalogMark): Promise<CatalogRead> {
      const location = this.location
      // One transaction: every page sees the same catalog.
      const { businesses, rest, read, state } = await db.transaction(async (tx) => {
        await tx.exec('set local role service_role')
        const state = (await tx.query<CatalogState>(catalogStateSql)).rows[0]!
        const changed = await changedSince(tx, before, state, location)
        await tx.exec('set local role anon')
        // Nothing changed since: the same businesses, in the same order (at 100,000 businesses, listing
        // them again took about a second of a rebuild whose catalog was read ahead).
        const listed =
          changed &&
          before &&
          (changed.length === 0 ? before.businesses : await listedAgain(tx, before.businesses, changed))
        const businesses = listed || (await listedAll(tx))
        return {
          businesses,
          rest: await catalogRest(tx),
          read: listed && changed ? changed.length : ('all' as const),
          state,
        }
      })
      const { catalog, parsed } = parseFollowed(businesses, rest, before, location)
      const mark =
        state.audit_id === null || state.audit_at === null
          ? undefined
          : {
              location,
              auditId: state.audit_id,
              auditAt: state.audit_at,
              findings: state.findings,
              businesses,
              parsed,
            }
      return { catalog, read, mark }
    },
    async listBusinesses(): Promise<BusinessRecord[]> {
      return asRole('service_role', async (tx) => {
        const { rows } = await tx.query<BusinessRecord>(`
          select b.id, b.slug, b.name, b.category, b.website, b.is_active,
            coalesce((select json_agg(json_build_object('id', i.id, 'image_url', i.image_url,
                        'image_type', i.image_type, 'is_primary', i.is_primary, 'metadata', i.metadata)
                        order by i.sort_order, i.created_at)
                      from public.business_images i where i.business_id = b.id), '[]') as images
          from public.businesses b order by b.name, b.slug`)
        return rows
      })
    },
    async call<T>(fn: FunctionName, args: Record<string, unknown>, options: CallOptions = {}): Promise<T> {
      if (!/^[a-z_][a-z0-9_]*$/.test(fn)) throw new StoreError(`Not a SQL function name: ${fn}`)
      const names = Object.keys(args)
      names.forEach((name) => {
        if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new StoreError(`Not a SQL argument name: ${name}`)
      })
      const list = names.map((name, i) => `${name} => $${i + 1}`).join(', ')
      const values = names.map((name) => toParam(args[name]))
      return asRole('service_role', async (tx) => {
        if (options.headers) {
          await tx.query(`select set_config('request.headers', $1, true)`, [JSON.stringify(options.headers)])
        }
        try {
          const { rows } = await tx.query<{ result: T }>(`select public.${fn}(${list}) as result`, values)
          return rows[0]?.result as T
        } catch (error) {
          throw asSqlError(error)
        }
      })
    },
    async addImage(image: NewBusinessImage) {
      return asRole('service_role', (tx) => insertImage(tx, image))
    },
    async addImages(images) {
      return asRole('service_role', async (tx) => {
        const added: Array<{ id: string; created: boolean }> = []
        for (const image of images) added.push(await insertImage(tx, image))
        return added
      })
    },
    async listImages(): Promise<StoredBusinessImage[]> {
      return asRole('service_role', async (tx) => {
        const { rows } = await tx.query<StoredBusinessImage>(`
          select i.id, i.business_id, b.slug as business_slug, b.name as business_name, i.image_url, i.image_type,
            i.metadata, i.width, i.height, i.placeholder, i.variants
          from public.business_images i join public.businesses b on b.id = i.business_id
          order by i.created_at, i.id`)
        return rows
      })
    },
    async recordImageDerivatives(records) {
      return asRole('service_role', async (tx) => {
        const missing: string[] = []
        for (const record of records) {
          const { rows } = await tx.query(
            `update public.business_images set width = $2, height = $3, placeholder = $4, variants = $5
             where id = $1 returning id`,
            [record.imageId, record.width, record.height, record.placeholder, JSON.stringify(record.variants)],
          )
          if (!rows[0]) missing.push(record.imageId)
        }
        return { missing }
      })
    },
    files,
    jobs: sqlJobs(asRole),
    async close() {
      if (!db.closed) await db.close()
      await release()
    },
  }
}

// An error a function raised on purpose (SQLSTATE PTxyz) keeps its code, so callers answer as PostgREST would.
function asSqlError(error: unknown): unknown {
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' && /^PT\d{3}$/.test(code) ? new SqlError((error as Error).message, code) : error
}

/** Inserts a business image in a transaction, or finds the row for the same business and URL. */
async function insertImage(tx: Transaction, image: NewBusinessImage): Promise<{ id: string; created: boolean }> {
  const existing = await tx.query<{ id: string }>(
    'select id from public.business_images where business_id = $1 and image_url = $2',
    [image.business_id, image.image_url],
  )
  if (existing.rows[0]) return { id: existing.rows[0].id, created: false }
  const { rows } = await tx.query<{ id: string }>(
    `insert into public.business_images
         (business_id, image_url, alt_text, image_type, is_primary, sort_order, metadata,
          width, height, placeholder, variants)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id`,
    [
      image.business_id,
      image.image_url,
      image.alt_text,
      image.image_type,
      image.is_primary,
      image.sort_order,
      JSON.stringify(image.metadata),
      image.width ?? null,
      image.height ?? null,
      image.placeholder ?? null,
      JSON.stringify(image.variants ?? []),
    ],
  )
  return { id: rows[0]!.id, created: true }
}

function toParam(value: unknown): unknown {
  if (value === null || value === undefined) return null
  if (typeof value === 'object' && !(value instanceof Date) && !(value instanceof Uint8Array))
    return JSON.stringify(value)
  return value
}
