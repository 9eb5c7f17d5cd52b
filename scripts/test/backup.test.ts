import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createWriteStream, existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { writeBackup, type BackupTable } from '../src/backup/backup.ts'
import { restoreBackup, restoreBackupFiles, writeBackupSql } from '../src/backup/restore.ts'
import { addPhoto } from '../src/images/add-photo.ts'
import { addOperator, asServiceRole, checkPassword } from '../src/operators/accounts.ts'
import { repoRoot } from '../src/paths.ts'
import { openEmbeddedStore, type EmbeddedStore } from '../src/store/embedded.ts'
import { openSupabaseStore } from '../src/store/supabase.ts'
import { freshStore, freshStoreIn } from './support/fresh-store.ts'
import { photoJpeg } from './support/image-fixtures.ts'
import { sqlFunctions, startSupabaseStandIn } from './support/supabase-stand-in.ts'

// `roland db backup` and `roland db restore` (issue 30): a store with businesses, photos and their
// derivatives, an operator, a job, the audit trail and a failed sign-in is backed up, changed or
// wiped, and restored; every table and every file must come back exactly. A bad file changes nothing.

/** Every row of every table (in key order) and every stored file (by SHA-256) of an embedded store. */
interface Snapshot {
  tables: Record<string, unknown>
  files: Record<string, string>
}

let root: string
let dir: string
let backupFile: string
let before: Snapshot

async function snapshot(store: EmbeddedStore): Promise<Snapshot> {
  const tables: Record<string, unknown> = {}
  for (const table of await store.call<BackupTable[]>('backup_tables', {})) {
    const order = table.key.map((column) => `t."${column}"`).join(', ')
    const { rows } = await store.db.query<{ rows: unknown }>(
      `select coalesce(jsonb_agg(to_jsonb(t) order by ${order}), '[]') as rows from public."${table.name}" t`,
    )
    tables[table.name] = rows[0]!.rows
  }
  const files: Record<string, string> = {}
  for (const file of await store.files.list()) {
    files[file] = createHash('sha256')
      .update((await store.files.get(file))!)
      .digest('hex')
  }
  return { tables, files }
}

/** Opens the data folder's store for fn, and closes it (a restore needs it closed). */
async function withStore<T>(folder: string, fn: (store: EmbeddedStore) => Promise<T>): Promise<T> {
  const store = await openEmbeddedStore({ dir: folder })
  try {
    return await fn(store)
  } finally {
    await store.close()
  }
}

const stateOf = (folder: string) => withStore(folder, snapshot)

async function backUp(store: EmbeddedStore | ReturnType<typeof openSupabaseStore>, file: string) {
  return writeBackup(store, createWriteStream(file))
}

const run = promisify(execFile)

/** Runs `roland …` on a data folder, as an operator would; a non-zero exit is returned, not thrown. */
async function cli(
  args: string[],
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const options = {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ROLAND_DATA_DIR: dataDir, ...env },
  }
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join(repoRoot, 'scripts/src/cli.ts'), ...args],
      options,
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number | null; stdout: string; stderr: string }
    return { code, stdout, stderr }
  }
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-backup-'))
  dir = path.join(root, 'data')
  backupFile = path.join(root, 'store.tar.gz')
  const store = await freshStoreIn(dir)
  try {
    const { rows } = await store.db.query<{ id: string }>(
      `insert into businesses (slug, name, category, is_active, is_featured)
       values ('big-rock-coffee', 'Big Rock Coffee', 'Dining & Refreshments', true, true),
              ('lakeview-marina', 'Lakeview Marina', 'Dining & Refreshments', false, false) returning id`,
    )
    await store.db.query(`insert into business_services (business_id, service_name) values ($1, 'Espresso')`, [
      rows[0]!.id,
    ])
    const photo = {
      businessId: rows[0]!.id,
      name: 'storefront.jpg',
      altText: 'The storefront',
      imageType: 'hero' as const,
      isPrimary: true,
    }
    await addPhoto(store, { ...photo, bytes: await photoJpeg(700, 500) })
    await addPhoto(store, { ...photo, bytes: await photoJpeg(400, 300), isPrimary: false, imageType: 'thumbnail' })
    await store.files.put('Roland.txt', new TextEncoder().encode('Big Rock Coffee\n'), { contentType: 'text/plain' })
    await store.db.query(`update community_events set title = title || ' (moved indoors)' where is_active`)
    await addOperator(asServiceRole(store.db), {
      email: 'keeper@example.org',
      role: 'admin',
      password: 'a long backup test password',
    })
    await checkPassword(
      store.db,
      { email: 'someone@example.org', password: 'wrong' },
      {
        freeAttempts: 0,
        baseLockoutMs: 60_000,
        maxLockoutMs: 60_000,
      },
    )
    const job = await store.jobs.create('rebuild', { trigger: 'manual' }, 'keeper@example.org')
    await store.jobs.update(job.id, { status: 'succeeded', appendLog: ['Site built'] })
    before = await snapshot(store)
    await backUp(store, backupFile)
  } finally {
    await store.close()
  }
}, 120_000)

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

// Each restore into a new folder creates a database first: minutes on a loaded machine, never asserted.
const slow = { timeout: 240_000 }

describe('a backup', () => {
  test('holds a store worth restoring: every kind of row and the photos with their derivatives', () => {
    const count = (table: string) => (before.tables[table] as unknown[]).length
    for (const table of ['businesses', 'business_images', 'operators', 'jobs', 'audit_log', 'sign_in_failures']) {
      expect(count(table), table).toBeGreaterThan(0)
    }
    expect(Object.keys(before.files).filter((file) => file.startsWith('variants/')).length).toBeGreaterThan(3)
    expect(before.files['Roland.txt']).toBeDefined()
  })

  test(
    'brings a changed store back to exactly its state, and refuses to overwrite it without force',
    slow,
    async () => {
      await withStore(dir, async (store) => {
        await store.db.query(`delete from businesses where slug = 'lakeview-marina'`)
        await store.db.query(`update attractions set name = 'Renamed'`)
        await store.files.remove('Roland.txt')
        await store.files.put('stray.txt', new TextEncoder().encode('not in the backup'), { contentType: 'text/plain' })
      })
      const changed = await stateOf(dir)
      await expect(restoreBackup({ dir, file: backupFile })).rejects.toThrow(
        /holds data \(1 businesses, 1 operators, 1 jobs, \d+ stored files\).*run the restore again with --force/,
      )
      expect(await stateOf(dir)).toEqual(changed)

      await restoreBackup({ dir, file: backupFile, force: true })
      expect(await stateOf(dir)).toEqual(before)
    },
  )

  test('brings a wiped store back, into a folder with no database at all', slow, async () => {
    await rm(dir, { recursive: true, force: true })
    const summary = await restoreBackup({ dir, file: backupFile })
    expect(summary.files).toBe(Object.keys(before.files).length)
    expect(await stateOf(dir)).toEqual(before)
    expect((await readdir(dir)).filter((name) => name.startsWith('.restore-'))).toEqual([])
  })

  test('leaves a restored store working: new rows take new ids, the triggers run again', slow, async () => {
    const other = path.join(root, 'working')
    await restoreBackup({ dir: other, file: backupFile })
    await withStore(other, async (store) => {
      await store.db.query(`update businesses set phone = '(501) 555-0100' where slug = 'big-rock-coffee'`)
      const { rows } = await store.db.query<{ newest: string; action: string }>(
        'select id::text as newest, action from audit_log order by id desc limit 1',
      )
      const restoredIds = (before.tables.audit_log as Array<{ id: number }>).map((entry) => entry.id)
      expect(rows[0]!.action).toBe('update')
      expect(Number(rows[0]!.newest)).toBeGreaterThan(Math.max(...restoredIds))
    })
  })

  test(
    'made from a Supabase project (through its REST and Storage APIs) restores to the same state',
    slow,
    async () => {
      const source = await openEmbeddedStore({ dir })
      const standIn = await startSupabaseStandIn({
        publishableKey: 'sb_publishable_backup',
        secretKey: 'sb_secret_backup',
        tables: Object.fromEntries(
          Object.entries(before.tables).map(([name, rows]) => [
            name,
            structuredClone(rows) as Record<string, unknown>[],
          ]),
        ),
        rpc: sqlFunctions(source, ['backup_tables']),
      })
      try {
        for (const file of Object.keys(before.files)) {
          standIn.objects.set(`files/${file}`, {
            bytes: Buffer.from((await source.files.get(file))!),
            contentType: 'application/octet-stream',
          })
        }
        const supabase = openSupabaseStore({
          url: standIn.url,
          publicKey: 'sb_publishable_backup',
          secretKey: 'sb_secret_backup',
        })
        const fromSupabase = path.join(root, 'supabase.tar.gz')
        await backUp(supabase, fromSupabase)
        await supabase.close()
        const restored = path.join(root, 'from-supabase')
        await restoreBackup({ dir: restored, file: fromSupabase })
        expect(await stateOf(restored)).toEqual(before)
      } finally {
        await standIn.close()
        await source.close()
      }
    },
  )
})

describe('moving a backup to a new Supabase project', () => {
  test('its SQL loads every row but the embedded sign-in into a migrated database, as psql would', slow, async () => {
    const sqlFile = path.join(root, 'rows.sql')
    await writeBackupSql(backupFile, sqlFile)
    const target = await freshStore()
    try {
      await target.db.exec(await readFile(sqlFile, 'utf8'))
      const loaded = await snapshot(target)
      const signIn = ['operators', 'operator_sessions', 'sign_in_failures']
      for (const [table, rows] of Object.entries(before.tables)) {
        expect(loaded.tables[table], table).toEqual(signIn.includes(table) ? [] : rows)
      }
      // Ids continue after the loaded rows: the audit entry of this change would take a taken id otherwise.
      await target.db.query(`update businesses set phone = '(501) 555-0100' where slug = 'big-rock-coffee'`)
    } finally {
      await target.close()
    }
  })

  test('its SQL points the file URLs at the project’s bucket when told where it is', slow, async () => {
    const sqlFile = path.join(root, 'rows-for-bucket.sql')
    const filesUrl = 'https://abcd.supabase.co/storage/v1/object/public/files'
    await writeBackupSql(backupFile, sqlFile, { filesUrl })
    const target = await freshStore()
    try {
      await target.db.exec(await readFile(sqlFile, 'utf8'))
      const { rows } = await target.db.query<{ image_url: string; variants: Array<{ url: string }> }>(
        'select image_url, variants from business_images',
      )
      const urls = rows.flatMap((row) => [row.image_url, ...row.variants.map((variant) => variant.url)])
      expect(urls.length).toBeGreaterThan(3)
      for (const url of urls) expect(url.startsWith(`${filesUrl}/`), url).toBe(true)
    } finally {
      await target.close()
    }
  })

  test('its files upload to the project’s bucket, byte for byte', async () => {
    const standIn = await startSupabaseStandIn({ publishableKey: 'sb_publishable_move', secretKey: 'sb_secret_move' })
    const supabase = openSupabaseStore({
      url: standIn.url,
      publicKey: 'sb_publishable_move',
      secretKey: 'sb_secret_move',
    })
    try {
      const uploaded = await restoreBackupFiles(backupFile, supabase)
      expect(uploaded.files).toBe(Object.keys(before.files).length)
      const inBucket = Object.fromEntries(
        [...standIn.objects].map(([id, object]) => [
          id.slice('files/'.length),
          createHash('sha256').update(object.bytes).digest('hex'),
        ]),
      )
      expect(inBucket).toEqual(before.files)
      expect(standIn.objects.get('files/Roland.txt')?.contentType).toMatch(/^text\/plain/)
    } finally {
      await supabase.close()
      await standIn.close()
    }
  })
})

describe('a bad backup file', () => {
  const cases: Array<[string, () => Promise<Buffer>]> = [
    [
      'cut short',
      async () => (await readFile(backupFile)).subarray(0, Math.floor((await readFile(backupFile)).length / 2)),
    ],
    ['not gzipped at all', async () => Buffer.from('Big Rock Coffee, 501-555-0100\n')],
    ['a gzip of something else', async () => gzipSync(Buffer.from('{"hello": "world"}'))],
    ['empty', async () => Buffer.alloc(0)],
  ]

  test.each(cases)('%s: a clear error, and the store untouched', async (_what, bytes) => {
    const bad = path.join(root, 'bad.tar.gz')
    await writeFile(bad, await bytes())
    const untouched = await stateOf(dir)
    await expect(restoreBackup({ dir, file: bad, force: true })).rejects.toThrow(
      /is not a backup that can be restored: .+\. Nothing was changed\. Use a file made by `pnpm roland db backup`/,
    )
    expect(await stateOf(dir)).toEqual(untouched)
    expect((await readdir(dir)).filter((name) => name.startsWith('.restore-'))).toEqual([])
  })

  test('a file that is not there is named', async () => {
    await expect(restoreBackup({ dir, file: path.join(root, 'missing.tar.gz') })).rejects.toThrow(
      `There is no file ${path.join(root, 'missing.tar.gz')}: give the path of a backup.`,
    )
  })
})

describe('roland db backup and restore', () => {
  test(
    'back up to the file named, refuse to restore over data without --force, then restore with it',
    { timeout: 240_000 },
    async () => {
      const out = path.join(root, 'cli.tar.gz')
      const backedUp = await cli(['db', 'backup', '--out', out], dir)
      expect(backedUp, backedUp.stderr).toMatchObject({ code: 0 })
      expect(backedUp.stdout).toMatch(/^Backed up the embedded database in .+: \d+ rows in \d+ tables and \d+ files/)
      expect(existsSync(`${out}.partial`)).toBe(false)

      const refused = await cli(['db', 'restore', out], dir)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toMatch(/^roland: The embedded database in .+ holds data .+ --force/)

      const restored = await cli(['db', 'restore', out, '--force'], dir)
      expect(restored, restored.stderr).toMatchObject({ code: 0 })
      expect(restored.stdout).toMatch(/^Restored the embedded database in .+ from .+cli\.tar\.gz: \d+ rows/)
      expect(await stateOf(dir)).toEqual(before)
    },
  )

  test(
    'on Supabase, backs the project up from this machine with its secret key into a folder, checks it, and the key stays out of it',
    slow,
    async () => {
      const secretKey = 'sb_secret_kept_on_the_console_machine'
      const source = await openEmbeddedStore({ dir })
      const standIn = await startSupabaseStandIn({
        publishableKey: 'sb_publishable_cli',
        secretKey,
        tables: Object.fromEntries(
          Object.entries(before.tables).map(([name, rows]) => [
            name,
            structuredClone(rows) as Record<string, unknown>[],
          ]),
        ),
        // The town's zone sets the backups' days: content_row reads its settings.
        rpc: sqlFunctions(source, ['backup_tables', 'content_row']),
      })
      try {
        for (const file of Object.keys(before.files)) {
          standIn.objects.set(`files/${file}`, {
            bytes: Buffer.from((await source.files.get(file))!),
            contentType: 'application/octet-stream',
          })
        }
        const backups = path.join(root, 'supabase-backups')
        const backedUp = await cli(['db', 'backup', '--dir', backups], path.join(root, 'no-embedded-store'), {
          SUPABASE_URL: standIn.url,
          SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_cli',
          SUPABASE_SECRET_KEY: secretKey,
        })
        expect(backedUp, backedUp.stderr).toMatchObject({ code: 0 })
        expect(backedUp.stdout).toMatch(/^Backed up Supabase at http:\/\/127\.0\.0\.1:\d+/)
        expect(backedUp.stdout).toMatch(/\nChecked it: restored into a scratch store, \d+ rows in \d+ tables/)
        const written = await readdir(backups)
        const archive = written.filter((name) => name.endsWith('.tar.gz'))
        expect(archive).toHaveLength(1)
        // Nothing of the key leaves the machine with the backup, nor lands in its check.
        for (const name of written) {
          const bytes = await readFile(path.join(backups, name))
          const text = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('latin1')
          expect(text, name).not.toContain(secretKey)
        }
        const restored = path.join(root, 'from-supabase-cli')
        await restoreBackup({ dir: restored, file: path.join(backups, archive[0]!) })
        expect(await stateOf(restored)).toEqual(before)
      } finally {
        await standIn.close()
        await source.close()
      }
    },
  )
})
