import { PGlite, type Transaction } from '@electric-sql/pglite'
import { createHash } from 'node:crypto'
import { hostname } from 'node:os'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm } from 'node:fs/promises'
import path from 'node:path'
import { parseCatalog, type Catalog } from '../catalog/types.ts'
import { acquireLockFile } from '../lock-file.ts'
import { folderStorage, sweepAfterCrash } from './folder-storage.ts'
import type { FunctionName } from './database.ts'
import { readMigrations, readSeed, type Migration } from './sql-files.ts'
import {
  SqlError,
  StoreError,
  type BusinessRecord,
  type CatalogMark,
  type CatalogRead,
  type CallOptions,
  type Job,
  type JobStore,
  type JobUpdate,
  type NewBusinessImage,
  type Store,
  type StoredBusinessImage,
} from './types.ts'

const shimUrl = new URL('./embedded-shim.sql', import.meta.url)

// How the embedded Postgres starts: PGlite's settings, with 16 MB of shared buffers instead of the
// 128 MB initdb writes into postgresql.conf. Every open clears its shared buffers in WebAssembly
// memory: at 128 MB an open cost a CLI command a third of its CPU time and a process 270 MB, and
// a single-user database reads the pages that do not fit from the system's file cache anyway.
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB']

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
    db = await PGlite.create(dbDir ? { dataDir: dbDir, startParams } : { loadDataDir: options.copyOf, startParams })
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

/** Which migrations a database has had and which it has not had yet. */
export interface MigrationStatus {
  /** Applied, in the order they were, with when. */
  applied: Array<{ version: string; name: string; appliedAt: string }>
  /** The code's migrations this database lacks, in the order they would run. */
  pending: Migration[]
}

/** Reads which migrations a database has had, and which of `migrations` it lacks. */
async function migrationStatusOf(db: PGlite, migrations: Migration[]): Promise<MigrationStatus> {
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

/**
 * Applies the shim (what Supabase has and a bare Postgres lacks), then the migrations the database
 * has not had yet, all in one transaction: a migration that fails leaves the database as it was,
 * none of the pending ones applied, and the error names it. The shim is recorded among the
 * migrations by a hash of its text, so it runs again only when it changes (running it on every
 * open cost a tenth of a second).
 */
async function applyMigrations(db: PGlite, migrations: Migration[]): Promise<void> {
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

// The public catalog as the site reads it (the anon role, so row-level security decides what shows).
// The businesses come through a cursor, a page at a time, in list order, each as JSON text (parsed
// here: PGlite's own parsing of a json column is slower): the database builds what it returns in
// its own memory, which never shrinks, and one JSON of every business took 2 GB of WebAssembly
// memory at 100,000 businesses. Each business's services, images and hours are aggregated once per
// table and joined, rather than looked up business by business: at 10,000 businesses this reads
// the catalog in about half the time. A business has the columns businessSchema names
// (catalog/types.ts), no more.
const catalogPageSize = 2000

/**
 * The active businesses as the site lists them, in list order: all of them, or (`only`) those whose
 * ids are in the array parameter $1.
 */
function listedBusinessesSql(only = false): string {
  const among = (column: string) => (only ? `where ${column} = any($1::uuid[])` : '')
  return `
  with services as (
    select s.business_id, json_agg(json_build_object('service_name', s.service_name, 'description', s.description,
             'is_featured', s.is_featured, 'sort_order', s.sort_order) order by s.sort_order, s.service_name) as list
    from public.business_services s ${among('s.business_id')} group by s.business_id
  ), images as (
    select i.business_id, json_agg(i order by i.sort_order, i.created_at) as list
    from public.business_images i ${among('i.business_id')} group by i.business_id
  ), hours as (
    select h.business_id, json_agg(json_build_object('day_of_week', h.day_of_week, 'opens_at', h.opens_at,
             'closes_at', h.closes_at, 'is_closed', h.is_closed) order by h.day_of_week, h.opens_at) as list
    from public.business_hours h ${among('h.business_id')} group by h.business_id
  )
  select b.id::text as id, row_to_json(b)::text as business from (
    select bz.id, bz.slug, bz.name, bz.category, bz.short_description, bz.full_description, bz.address, bz.phone,
      bz.website, bz.hours, bz.is_featured, bz.is_active, bz.rating, bz.price_range, bz.verified_at, bz.search_words,
      public.website_hidden(bz) as website_hidden,
      coalesce(s.list, '[]') as services, coalesce(i.list, '[]') as images, coalesce(h.list, '[]') as hours_detail
    from public.businesses bz
      left join services s on s.business_id = bz.id
      left join images i on i.business_id = bz.id
      left join hours h on h.business_id = bz.id
    where bz.is_active ${only ? 'and bz.id = any($1::uuid[])' : ''}
  ) b
  order by b.name, b.slug`
}

/** Where the data stands (as the service role): the audit log's last entry, and the findings' digest. */
const catalogStateSql = `
  select last.id::text as audit_id, last.at::text as audit_at,
    (select md5(coalesce(string_agg(f::text, ',' order by f.id), '')) from public.listing_findings f) as findings
  from (select 1) one
    left join lateral (select l.id, l.at from public.audit_log l order by l.id desc limit 1) last on true`

interface CatalogState {
  audit_id: string | null
  audit_at: string | null
  findings: string
}

/**
 * The ids of the businesses changed since an earlier read (as the service role), by the audit log;
 * null when that cannot be told: no earlier read of this database, the freshness findings changed,
 * or the audit log no longer holds the entry that read stopped at as it was (a restore).
 */
async function changedSince(
  tx: Transaction,
  mark: CatalogMark | undefined,
  state: CatalogState,
  location: string,
): Promise<string[] | null> {
  if (!mark || mark.location !== location || mark.findings !== state.findings || state.audit_id === null) return null
  if (mark.auditId === state.audit_id) return mark.auditAt === state.audit_at ? [] : null
  const { rows } = await tx.query<{ at: string }>('select at::text from public.audit_log where id = $1', [mark.auditId])
  if (rows[0]?.at !== mark.auditAt) return null
  const changed = await tx.query<{ id: string | null }>(
    `select distinct coalesce(case when table_name = 'businesses' then row_id end,
                              after ->> 'business_id', before ->> 'business_id') as id
       from public.audit_log
      where id > $1 and table_name in ('businesses', 'business_services', 'business_images', 'business_hours')`,
    [mark.auditId],
  )
  return changed.rows.flatMap((row) => (row.id === null ? [] : [row.id]))
}

/** Passes each listed business's id and JSON to onRow, in list order (as the anon role). */
async function listAll(tx: Transaction, onRow: (id: string, json: string) => void): Promise<void> {
  // All of it is fetched: plan for the whole result, not for its first rows (which joined each
  // business to the lists of services, images and hours one by one).
  await tx.exec('set local cursor_tuple_fraction = 1')
  await tx.exec(`declare listed_businesses no scroll cursor for ${listedBusinessesSql()}`)
  for (;;) {
    const { rows } = await tx.query<{ id: string; business: string }>(
      `fetch forward ${catalogPageSize} from listed_businesses`,
    )
    if (rows.length === 0) break
    for (const row of rows) onRow(row.id, row.business)
  }
  await tx.exec('close listed_businesses')
}

/** Every listed business's JSON, by id, in list order (as the anon role). */
async function listedAll(tx: Transaction): Promise<Map<string, string>> {
  const businesses = new Map<string, string>()
  await listAll(tx, (id, json) => businesses.set(id, json))
  return businesses
}

/** The rest of the catalog (as the anon role): categories, attractions, events, pages and alerts. */
async function catalogRest(tx: Transaction): Promise<object> {
  const { rows } = await tx.query<{ rest: string }>(catalogRestSql)
  return JSON.parse(rows[0]!.rest) as object
}

/**
 * The listed businesses, in list order, as an earlier read had them but for the `changed` ones,
 * read again (as the anon role); null if the list does not add up (all of it is read then).
 */
async function listedAgain(
  tx: Transaction,
  before: Map<string, string>,
  changed: string[],
): Promise<Map<string, string> | null> {
  const fresh = new Map<string, string>()
  if (changed.length > 0) {
    const { rows } = await tx.query<{ id: string; business: string }>(listedBusinessesSql(true), [changed])
    for (const row of rows) fresh.set(row.id, row.business)
  }
  const gone = new Set(changed)
  const { rows: order } = await tx.query<{ id: string }>(
    'select id::text from public.businesses where is_active order by name, slug',
  )
  const businesses = new Map<string, string>()
  for (const { id } of order) {
    const json = fresh.get(id) ?? (gone.has(id) ? undefined : before.get(id))
    if (json === undefined) return null
    businesses.set(id, json)
  }
  return businesses
}

const catalogRestSql = `
  select json_build_object(
    'town', (select to_json(t) from public.town_settings t where t.id = 1),
    'categories', coalesce((select json_agg(c order by c.sort_order, c.name) from public.location_categories c), '[]'),
    'attractions', coalesce((select json_agg(a order by a.sort_order, a.name) from public.attractions a where a.is_active), '[]'),
    'events', coalesce((select json_agg(e order by e.starts_at) from public.community_events e where e.is_active), '[]'),
    'pages', coalesce((select json_agg(json_build_object('path', p.path, 'title', p.title, 'description', p.description,
                 'intro', p.intro, 'body', p.body, 'items', p.items) order by p.path)
               from public.pages p where p.is_published), '[]'),
    'alerts', coalesce((select json_agg(to_json(a)::jsonb - 'created_at' || jsonb_build_object('messages',
                 coalesce((select jsonb_agg(to_jsonb(m) - 'alert_id' order by m.sequence)
                             from public.alert_messages m where m.alert_id = a.id), '[]'::jsonb))
                 order by a.published_at desc, a.id)
               from public.alerts a where a.status in ('published', 'ended')), '[]')
  )::text as rest`

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
      const { raw, read, mark } = await db.transaction(async (tx) => {
        await tx.exec('set local role service_role')
        const state = (await tx.query<CatalogState>(catalogStateSql)).rows[0]!
        const changed = await changedSince(tx, before, state, location)
        await tx.exec('set local role anon')
        const listed = changed && before && (await listedAgain(tx, before.businesses, changed))
        const businesses = listed || (await listedAll(tx))
        const parsed = [...businesses.values()].map((json) => JSON.parse(json) as unknown)
        return {
          raw: { businesses: parsed, ...(await catalogRest(tx)) },
          read: listed && changed ? changed.length : ('all' as const),
          mark:
            state.audit_id === null || state.audit_at === null
              ? undefined
              : { location, auditId: state.audit_id, auditAt: state.audit_at, findings: state.findings, businesses },
        }
      })
      return { catalog: parseCatalog(raw, location), read, mark }
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

const jobColumns = `id, kind, status, params, progress, result, error, log, started_by, pid, host,
  to_json(created_at) #>> '{}' as created_at, to_json(started_at) #>> '{}' as started_at,
  to_json(finished_at) #>> '{}' as finished_at, to_json(updated_at) #>> '{}' as updated_at`

function sqlJobs(asRole: EmbeddedStore['asRole']): JobStore {
  return {
    async create(kind, params, startedBy) {
      return asRole('service_role', async (tx) => {
        const { rows } = await tx.query<Job>(
          `insert into public.jobs (kind, params, started_by, pid, host) values ($1, $2, $3, $4, $5)
           returning ${jobColumns}`,
          [kind, JSON.stringify(params), startedBy, process.pid, hostname()],
        )
        return rows[0]!
      })
    },
    async update(id, update: JobUpdate) {
      return asRole('service_role', async (tx) => {
        const log = (update.appendLog ?? []).map((message) => ({ at: new Date().toISOString(), message }))
        const { rows } = await tx.query<Job>(
          `update public.jobs set
             status = coalesce($2, status),
             progress = coalesce($3::jsonb, progress),
             result = case when $4::boolean then $5::jsonb else result end,
             error = case when $6::boolean then $7 else error end,
             started_at = coalesce($8::timestamptz, started_at),
             finished_at = coalesce($9::timestamptz, finished_at),
             log = log || $10::jsonb
           where id = $1 returning ${jobColumns}`,
          [
            id,
            update.status ?? null,
            update.progress ? JSON.stringify(update.progress) : null,
            'result' in update,
            'result' in update ? JSON.stringify(update.result ?? null) : null,
            'error' in update,
            update.error ?? null,
            update.started_at ?? null,
            update.finished_at ?? null,
            JSON.stringify(log),
          ],
        )
        if (!rows[0]) throw new StoreError(`No job with id ${id}`)
        return rows[0]
      })
    },
    async get(id) {
      return asRole('service_role', async (tx) => {
        const { rows } = await tx.query<Job>(`select ${jobColumns} from public.jobs where id = $1`, [id])
        return rows[0] ?? null
      })
    },
    async list(limit = 100) {
      return asRole('service_role', async (tx) => {
        const { rows } = await tx.query<Job>(
          `select ${jobColumns} from public.jobs order by created_at desc limit $1`,
          [limit],
        )
        return rows
      })
    },
    async unfinished() {
      return asRole('service_role', async (tx) => {
        const { rows } = await tx.query<Job>(
          `select ${jobColumns} from public.jobs where status in ('queued', 'running') order by created_at`,
        )
        return rows
      })
    },
  }
}
