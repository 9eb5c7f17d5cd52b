import { createHash } from 'node:crypto'
import type { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import { pack as tarPack, type Pack } from 'tar-stream'
import { z } from 'zod'
import type { EmbeddedStore } from '../store/embedded.ts'
import type { TableName } from '../store/database.ts'
import { callParsed } from '../store/parsed-call.ts'
import { readMigrations } from '../store/sql-files.ts'
import type { SupabaseStore } from '../store/supabase.ts'
import { StoreError, type Store } from '../store/types.ts'

// One file holding a whole store (DESIGN.md, "Backups and crashes"): every row of every public
// table and every stored file (photos and their derivatives, Roland.txt). It is a gzipped tar, so
// `tar -tzf` lists it, in an order a reader checks as it goes:
//   backup.json           what it is: format, version, when, from where, the schema it fits
//   database/<table>.json the table's rows as JSON (as PostgREST answers them), parents first
//   files/<path>          each stored file, byte for byte
//   manifest.json         last: every table and file with its size and SHA-256; an archive
//                         without it was cut short
// Rows are read through the store's interface (SQL on the embedded store, PostgREST with the
// secret key on Supabase), so either store can be backed up; pg_dump could not reach Supabase's
// REST API, and pglite-tools' pg_dump pins another PGlite than ours.

/** The header's format name: what says a file is one of our backups. */
export const backupFormat = 'roland-backup'
/** The layout's version; a reader refuses a newer one. */
export const backupVersion = 1

/** backup.json: the archive's first entry. */
export const backupHeaderSchema = z.object({
  format: z.literal(backupFormat),
  version: z.number().int(),
  createdAt: z.string(),
  source: z.object({ kind: z.enum(['embedded', 'supabase']), location: z.string() }),
  /** The newest migration the writing code knew: a restore needs code at least this new. */
  schema: z.string(),
})
export type BackupHeader = z.infer<typeof backupHeaderSchema>

const entrySchema = z.object({ size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })

/** manifest.json: the archive's last entry. */
export const backupManifestSchema = z.object({
  tables: z.array(entrySchema.extend({ name: z.string().regex(/^[a-z_][a-z0-9_]*$/), rows: z.number().int() })),
  files: z.array(entrySchema.extend({ path: z.string().min(1) })),
})
export type BackupManifest = z.infer<typeof backupManifestSchema>

/** A public table as public.backup_tables() lists it: its name and primary key. */
export type BackupTable = z.output<typeof backupTablesSchema>[number]

/** What public.backup_tables answers: each table a backup holds, with the columns that order its rows. */
export const backupTablesSchema = z.array(z.object({ name: z.string(), key: z.array(z.string()) }))

/** What a backup held, for the CLI and the console to say. */
export interface BackupSummary {
  tables: number
  rows: number
  files: number
  bytes: number
}

/** Rows read per request from Supabase (PostgREST's max-rows is 1,000 by default). */
const pageSize = 1000

/** Writes a backup of the store to a stream (a file, an HTTP answer); resolves when it is written whole. */
export async function writeBackup(store: Store, output: Writable, now = new Date()): Promise<BackupSummary> {
  const tables = await callParsed(store, 'backup_tables', {}, backupTablesSchema)
  const migrations = await readMigrations()
  const archive = tarPack()
  const written = pipeline(archive, createGzip(), output)
  // An early failure of the output (a closed connection) must not leave the pack waiting.
  written.catch(() => archive.destroy())
  const manifest: BackupManifest = { tables: [], files: [] }
  const summary: BackupSummary = { tables: 0, rows: 0, files: 0, bytes: 0 }
  try {
    const header: BackupHeader = {
      format: backupFormat,
      version: backupVersion,
      createdAt: now.toISOString(),
      source: { kind: store.kind, location: store.location },
      schema: migrations.at(-1)?.version ?? '',
    }
    await addEntry(archive, 'backup.json', Buffer.from(JSON.stringify(header, null, 2)))
    for (const table of tables) {
      const rows = await readRows(store, table)
      const bytes = Buffer.from(JSON.stringify(rows))
      await addEntry(archive, `database/${table.name}.json`, bytes)
      manifest.tables.push({ name: table.name, rows: rows.length, ...digest(bytes) })
      summary.tables++
      summary.rows += rows.length
    }
    for (const filePath of await store.files.list()) {
      const bytes = await store.files.get(filePath)
      // Removed since it was listed (a job cleaning up): it is not part of the store any more.
      if (!bytes) continue
      await addEntry(archive, `files/${filePath}`, Buffer.from(bytes))
      manifest.files.push({ path: filePath, ...digest(bytes) })
      summary.files++
      summary.bytes += bytes.length
    }
    await addEntry(archive, 'manifest.json', Buffer.from(JSON.stringify(manifest)))
    archive.finalize()
  } catch (error) {
    archive.destroy(error as Error)
    await written.catch(() => {})
    throw error
  }
  await written
  return summary
}

/** A backup's default file name: roland-backup-20261126T031500Z.tar.gz. */
export function backupFileName(now = new Date()): string {
  return `roland-backup-${now.toISOString().replace(/[:-]|\.\d+/g, '')}.tar.gz`
}

/** The size and SHA-256 of some bytes, as the manifest records them. */
export function digest(bytes: Uint8Array): { size: number; sha256: string } {
  return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }
}

/** Adds one entry; it is done once the compressor has taken it, so a large store never sits whole in memory. */
function addEntry(archive: Pack, name: string, bytes: Buffer): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    archive.entry({ name, size: bytes.length, mtime: new Date(0) }, bytes, (error) =>
      error ? reject(error) : resolve(),
    ),
  )
}

/** Every row of a table, in primary-key order, as JSON objects. */
async function readRows(store: Store, table: BackupTable): Promise<unknown[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(table.name) || !table.key.every((column) => /^[a-z_][a-z0-9_]*$/.test(column))) {
    throw new StoreError(`Not a table to back up: ${JSON.stringify(table)}`)
  }
  if (store.kind === 'embedded') {
    const order = table.key.map((column) => `t."${column}"`).join(', ') || 't'
    const { rows } = await (store as EmbeddedStore).db.query<{ rows: string }>(
      `select coalesce(json_agg(t order by ${order}), '[]')::text as rows from public."${table.name}" t`,
    )
    return JSON.parse(rows[0]!.rows) as unknown[]
  }
  const client = (store as SupabaseStore).admin()
  const all: unknown[] = []
  for (let from = 0; ; from += pageSize) {
    // backup_tables names the tables at run time; each is one of public's (TableName).
    let query = client.from(table.name as TableName).select('*')
    for (const column of table.key) query = query.order(column)
    const { data, error } = await query.range(from, from + pageSize - 1)
    if (error) throw new StoreError(`Could not read the table ${table.name} (${store.location}): ${error.message}`)
    all.push(...(data as unknown[]))
    if (data.length < pageSize) return all
  }
}
