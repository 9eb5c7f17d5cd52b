import { randomBytes } from 'node:crypto'
import { createReadStream, existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import { extract as tarExtract } from 'tar-stream'
import { lookup as contentTypeOf } from 'mime-types'
import { z } from 'zod'
import { openEmbeddedStore, type EmbeddedStore } from '../store/embedded.ts'
import { callParsed } from '../store/parsed-call.ts'
import { readMigrations, type Migration } from '../store/sql-files.ts'
import { StoreError, type Store } from '../store/types.ts'
import {
  backupFormat,
  backupHeaderSchema,
  backupManifestSchema,
  backupTablesSchema,
  backupVersion,
  digest,
  type BackupHeader,
  type BackupManifest,
  type BackupSummary,
} from './backup.ts'

// Restoring a backup (backup.ts) into the embedded store: the archive is read and checked whole
// (every entry against the manifest's SHA-256) before anything is touched, so a truncated or
// foreign file changes nothing. Then one transaction replaces the rows of every table the backup
// holds, and the files folder is swapped for the backup's in two renames. A table the backup does
// not hold (one a later release added) keeps what the database has: in a database the restore
// creates, what the migrations put there (the town's settings and page texts), so a backup made by
// an older release comes back with the defaults of what it predates, never with empty tables.

/** A backup read and checked: its header, its rows per table, and its files unpacked in a folder. */
export interface CheckedBackup {
  header: BackupHeader
  manifest: BackupManifest
  tables: Map<string, Record<string, unknown>[]>
  /** Where the files were unpacked (path in the store under it); absent when the backup holds none. */
  filesDir: string
}

const rowsSchema = z.array(z.record(z.string(), z.unknown()))

/** Reads a backup file and checks it whole, unpacking its files into filesDir. */
export async function readBackup(file: string, filesDir: string): Promise<CheckedBackup> {
  const bad = (reason: string) =>
    new StoreError(
      `${file} is not a backup that can be restored: ${reason}. Nothing was changed. ` +
        'Use a file made by `pnpm roland db backup` (or the console’s "Download a backup"), copied whole.',
    )
  if (!existsSync(file)) throw new StoreError(`There is no file ${file}: give the path of a backup.`)

  let header: BackupHeader | undefined
  let manifest: BackupManifest | undefined
  const tables = new Map<string, { bytes: Buffer }>()
  const files = new Map<string, { size: number; sha256: string }>()
  const extract = tarExtract()
  const fed = pipeline(createReadStream(file), createGunzip(), extract)
  fed.catch(() => {}) // The iteration below meets the same error.
  try {
    for await (const entry of extract) {
      const name = entry.header.name
      const chunks: Buffer[] = []
      for await (const chunk of entry) chunks.push(chunk as Buffer)
      const bytes = Buffer.concat(chunks)
      if (!header) {
        if (name !== 'backup.json') throw bad(`it does not start with backup.json (found ${name})`)
        const parsed = backupHeaderSchema.safeParse(parseJson(bytes))
        if (!parsed.success) throw bad(`its backup.json is not a ${backupFormat} header`)
        if (parsed.data.version > backupVersion) {
          throw new StoreError(
            `${file} is a backup of format version ${parsed.data.version}, newer than this code reads (${backupVersion}): ` +
              'update the Roland tools (git pull, pnpm install), then restore it.',
          )
        }
        header = parsed.data
      } else if (manifest) {
        throw bad(`it goes on after manifest.json (${name})`)
      } else if (name === 'manifest.json') {
        const parsed = backupManifestSchema.safeParse(parseJson(bytes))
        if (!parsed.success) throw bad('its manifest.json cannot be read')
        manifest = parsed.data
      } else if (/^database\/[a-z_][a-z0-9_]*\.json$/.test(name)) {
        tables.set(name.slice('database/'.length, -'.json'.length), { bytes })
      } else if (name.startsWith('files/')) {
        const storagePath = path.posix.normalize(name.slice('files/'.length))
        if (storagePath.startsWith('..') || path.posix.isAbsolute(storagePath) || storagePath === '.') {
          throw bad(`it holds a file outside the storage folder (${name})`)
        }
        const target = path.join(filesDir, storagePath)
        await mkdir(path.dirname(target), { recursive: true })
        await writeFile(target, bytes)
        files.set(storagePath, digest(bytes))
      } else {
        throw bad(`it holds an entry a backup does not (${name})`)
      }
    }
    await fed
  } catch (error) {
    if (error instanceof StoreError) throw error
    throw bad(`it cannot be unpacked (${(error as Error).message}): it may be cut short, or not a .tar.gz`)
  }
  if (!header) throw bad('it is empty')
  if (!manifest) throw bad('it has no manifest.json at its end, so it was cut short')

  const rows = new Map<string, Record<string, unknown>[]>()
  for (const table of manifest.tables) {
    const entry = tables.get(table.name)
    if (!entry) throw bad(`the table ${table.name} is missing`)
    const { size, sha256 } = digest(entry.bytes)
    if (size !== table.size || sha256 !== table.sha256) throw bad(`the rows of ${table.name} are damaged`)
    const parsed = rowsSchema.safeParse(parseJson(entry.bytes))
    if (!parsed.success || parsed.data.length !== table.rows) throw bad(`the rows of ${table.name} cannot be read`)
    rows.set(table.name, parsed.data)
    tables.delete(table.name)
  }
  if (tables.size) throw bad(`it holds tables its manifest does not list (${[...tables.keys()].join(', ')})`)
  for (const file of manifest.files) {
    const found = files.get(file.path)
    if (!found) throw bad(`the file ${file.path} is missing`)
    if (found.size !== file.size || found.sha256 !== file.sha256) throw bad(`the file ${file.path} is damaged`)
    files.delete(file.path)
  }
  if (files.size) throw bad(`it holds files its manifest does not list (${[...files.keys()].join(', ')})`)
  return { header, manifest, tables: rows, filesDir }
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'))
  } catch {
    return undefined
  }
}

/** What a restore brought back, and the tables it left as they were because the backup predates them. */
export interface RestoreSummary extends BackupSummary {
  /** Tables the backup does not hold, which kept the database's rows (in a new database, the migrations' defaults). */
  kept: string[]
}

/**
 * Brings the embedded store in a data folder back to the state of a backup: every table's rows and
 * every stored file, exactly. Refuses a database that holds data (businesses, operators, jobs or
 * files) unless `force`, and a backup whose file is bad, before changing anything. Tables the
 * backup does not hold keep their rows (RestoreSummary.kept).
 */
export async function restoreBackup(options: {
  dir: string
  file: string
  force?: boolean
  /** The schema to restore into (default: every migration of the code); the upgrade test gives an older release's. */
  migrations?: Migration[]
}): Promise<RestoreSummary> {
  const { dir, file } = options
  await mkdir(dir, { recursive: true })
  const staging = await mkdtemp(path.join(dir, '.restore-'))
  try {
    const backup = await readBackup(file, path.join(staging, 'files'))
    const migrations = options.migrations ?? (await readMigrations())
    const newest = migrations.at(-1)?.version ?? ''
    if (backup.header.schema > newest) {
      throw new StoreError(
        `${file} was made with a newer schema (migration ${backup.header.schema}; this code has up to ${newest}): ` +
          'update the Roland tools (git pull, pnpm install), then restore it. Nothing was changed.',
      )
    }
    // A database this creates gets no seed: every table the backup holds is replaced by its rows.
    const store = await openEmbeddedStore({ dir, migrations, seed: false })
    let kept: string[]
    try {
      if (!store.created && !options.force) await refuseIfHoldsData(store, dir)
      kept = await replaceRows(store, backup)
      // The rows are in; now the files, in two renames (the old folder goes once the new one is in place).
      const storageDir = path.join(dir, 'storage')
      const filesDir = path.join(storageDir, 'files')
      await mkdir(storageDir, { recursive: true })
      if (existsSync(filesDir)) await rename(filesDir, path.join(staging, 'replaced-files'))
      if (existsSync(backup.filesDir)) await rename(backup.filesDir, filesDir)
      else await mkdir(filesDir)
    } finally {
      await store.close()
    }
    return {
      tables: backup.manifest.tables.length,
      rows: backup.manifest.tables.reduce((sum, table) => sum + table.rows, 0),
      files: backup.manifest.files.length,
      bytes: backup.manifest.files.reduce((sum, entry) => sum + entry.size, 0),
      kept,
    }
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

async function refuseIfHoldsData(store: EmbeddedStore, dir: string): Promise<void> {
  const { rows } = await store.db.query<{ businesses: number; operators: number; jobs: number }>(
    `select (select count(*)::int from public.businesses) as businesses,
            (select count(*)::int from public.operators) as operators,
            (select count(*)::int from public.jobs) as jobs`,
  )
  const held = { ...rows[0]!, files: (await store.files.list()).length }
  if (held.businesses + held.operators + held.jobs + held.files === 0) return
  throw new StoreError(
    `The embedded database in ${dir} holds data (${held.businesses} businesses, ${held.operators} operators, ` +
      `${held.jobs} jobs, ${held.files} stored files), which restoring would replace. Nothing was changed. ` +
      'To replace it with the backup, run the restore again with --force (back it up first with `pnpm roland db backup` if unsure).',
  )
}

/**
 * In one transaction, with triggers off (the audit trail and rules are restored as they were):
 * empty every table the backup holds, then load its rows. A table it does not hold keeps its rows,
 * unless they point (a foreign key) at a table being replaced: then they would point at rows that
 * are gone, and it is emptied too. Answers the tables kept.
 */
async function replaceRows(store: EmbeddedStore, backup: CheckedBackup): Promise<string[]> {
  const current = await callParsed(store, 'backup_tables', {}, backupTablesSchema)
  const known = new Set(current.map((table) => table.name))
  for (const name of backup.tables.keys()) {
    if (!known.has(name)) {
      throw new StoreError(
        `The backup holds a table this database lacks (${name}): update the Roland tools, then restore it.`,
      )
    }
  }
  const replaced = new Set(current.filter((table) => backup.tables.has(table.name)).map((table) => table.name))
  const { rows: references } = await store.db.query<{ child: string; parent: string }>(
    `select child.relname as child, parent.relname as parent
     from pg_constraint c
       join pg_class child on child.oid = c.conrelid
       join pg_class parent on parent.oid = c.confrelid
     where c.contype = 'f' and child.relnamespace = 'public'::regnamespace`,
  )
  for (let grew = true; grew;) {
    grew = false
    for (const { child, parent } of references) {
      if (known.has(child) && !replaced.has(child) && replaced.has(parent)) {
        replaced.add(child)
        grew = true
      }
    }
  }
  const emptied = current.filter((table) => replaced.has(table.name))
  await store.db.transaction(async (tx) => {
    await tx.exec('set local session_replication_role = replica')
    if (emptied.length)
      await tx.exec(`truncate ${emptied.map((t) => `public."${t.name}"`).join(', ')} restart identity`)
    for (const { name } of emptied) {
      const rows = backup.tables.get(name) ?? []
      const columns = await tx.query<{ name: string; serial: string | null }>(
        `select a.attname as name, pg_get_serial_sequence(format('public.%I', $1::text), a.attname) as serial
         from pg_attribute a
         where a.attrelid = format('public.%I', $1::text)::regclass and a.attnum > 0
           and not a.attisdropped and a.attgenerated = ''`,
        [name],
      )
      const present = new Set(rows.flatMap((row) => Object.keys(row)))
      const loaded = columns.rows.filter((column) => present.has(column.name)).map((column) => `"${column.name}"`)
      if (rows.length && loaded.length) {
        await tx.query(
          `insert into public."${name}" (${loaded.join(', ')}) overriding system value
           select ${loaded.join(', ')} from jsonb_populate_recordset(null::public."${name}", $1::jsonb)`,
          [JSON.stringify(rows)],
        )
      }
      for (const column of columns.rows.filter((c) => c.serial)) {
        await tx.query(
          `select setval($1, coalesce((select max("${column.name}") from public."${name}"), 0) + 1, false)`,
          [column.serial],
        )
      }
    }
  })
  return current.filter((table) => !replaced.has(table.name)).map((table) => table.name)
}

/** Tables of the embedded store's own sign-in: on Supabase, Supabase Auth keeps the operators. */
const embeddedSignInTables = new Set(['operators', 'operator_sessions', 'sign_in_failures'])

/**
 * Reads a backup and writes the SQL that loads its rows into a database with every migration
 * applied and nothing else (a new Supabase project: `psql "$DATABASE_URL" -f FILE`), in one
 * transaction with triggers off, as a restore does. The operators, their sessions and failed
 * sign-ins stay out: on Supabase an operator is a Supabase Auth user, added with `roland operators add`.
 * With `filesUrl` (the bucket's public URL), the embedded store's site-relative file URLs (/files/…)
 * become URLs of the bucket, where `--files-only` puts the files.
 */
export async function writeBackupSql(
  file: string,
  out: string,
  options: { filesUrl?: string } = {},
): Promise<{ tables: number; rows: number }> {
  return withCheckedBackup(file, async (backup) => {
    const tables = backup.manifest.tables.filter((table) => !embeddedSignInTables.has(table.name))
    const lines = [
      `-- The rows of ${path.basename(file)}, backed up ${backup.header.createdAt} from ${backup.header.source.location}.`,
      '-- Load into a database with every migration applied (supabase db push) and no other data:',
      '--   psql "$DATABASE_URL" -f this-file.sql',
      'begin;',
      'set local session_replication_role = replica;',
      `truncate ${tables.map((table) => `public."${table.name}"`).join(', ')} restart identity;`,
    ]
    for (const table of tables) {
      const rows = backup.tables.get(table.name) ?? []
      const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))]
      if (!rows.length) continue
      if (!columns.every((column) => /^[a-z_][a-z0-9_]*$/.test(column))) {
        throw new StoreError(
          `The backup's table ${table.name} has a column name this cannot load: ${columns.join(', ')}`,
        )
      }
      let json = JSON.stringify(rows)
      if (options.filesUrl)
        json = json.replaceAll('"/files/', JSON.stringify(`${options.filesUrl.replace(/\/+$/, '')}/`).slice(0, -1))
      let tag = ''
      while (!tag || json.includes(tag)) tag = `$rows_${randomBytes(6).toString('hex')}$`
      const list = columns.map((column) => `"${column}"`).join(', ')
      lines.push(
        `insert into public."${table.name}" (${list}) overriding system value`,
        `  select ${list} from jsonb_populate_recordset(null::public."${table.name}", ${tag}${json}${tag}::jsonb);`,
      )
    }
    // Identity and serial columns continue after the loaded rows.
    lines.push(
      'do $$',
      'declare c record;',
      'begin',
      '  for c in',
      '    select t.relname as table_name, a.attname as column_name,',
      "           pg_get_serial_sequence(format('public.%I', t.relname), a.attname) as sequence_name",
      '    from pg_class t join pg_namespace n on n.oid = t.relnamespace',
      '      join pg_attribute a on a.attrelid = t.oid and a.attnum > 0 and not a.attisdropped',
      `    where n.nspname = 'public' and t.relname = any (array[${tables.map((t) => `'${t.name}'`).join(', ')}]::text[])`,
      "      and pg_get_serial_sequence(format('public.%I', t.relname), a.attname) is not null",
      '  loop',
      "    execute format('select setval(%L, coalesce((select max(%I) from public.%I), 0) + 1, false)',",
      '      c.sequence_name, c.column_name, c.table_name);',
      '  end loop;',
      'end',
      '$$;',
      'commit;',
      '',
    )
    await writeFile(out, lines.join('\n'))
    return { tables: tables.length, rows: tables.reduce((sum, table) => sum + table.rows, 0) }
  })
}

/** Uploads a backup's files into a store's storage (a new Supabase project's bucket), replacing files with the same path. */
export async function restoreBackupFiles(file: string, store: Store): Promise<{ files: number; bytes: number }> {
  return withCheckedBackup(file, async (backup) => {
    for (const entry of backup.manifest.files) {
      const bytes = await readFile(path.join(backup.filesDir, entry.path))
      const contentType = contentTypeOf(entry.path) || 'application/octet-stream'
      await store.files.put(entry.path, bytes, { contentType, upsert: true })
    }
    return {
      files: backup.manifest.files.length,
      bytes: backup.manifest.files.reduce((sum, entry) => sum + entry.size, 0),
    }
  })
}

async function withCheckedBackup<T>(file: string, fn: (backup: CheckedBackup) => Promise<T>): Promise<T> {
  const staging = await mkdtemp(path.join(tmpdir(), 'roland-backup-'))
  try {
    return await fn(await readBackup(file, path.join(staging, 'files')))
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}
