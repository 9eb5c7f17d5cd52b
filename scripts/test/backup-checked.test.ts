import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { backupFileName } from '../src/backup/backup.ts'
import {
  backupState,
  backupsToKeep,
  listBackups,
  verifyAndRecord,
  writeCheckedBackup,
  type BackupCheck,
  type FolderBackup,
} from '../src/backup/checked.ts'
import { addPhoto } from '../src/images/add-photo.ts'
import { repoRoot } from '../src/paths.ts'
import { openEmbeddedStore } from '../src/store/embedded.ts'
import { freshStoreIn } from './support/fresh-store.ts'
import { photoJpeg } from './support/image-fixtures.ts'

// Scheduled, checked backups (issue 43): a backup written into a folder is restored into a scratch
// store and its row counts and file hashes compared with its manifest; the outcome sits beside it;
// the folder keeps 7 daily and 4 weekly; a damaged backup fails its check, which is a finding.

const day = 86_400_000
let root: string
let dataDir: string
let backups: string

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-checked-backup-'))
  dataDir = path.join(root, 'data')
  backups = path.join(root, 'backups')
  const store = await freshStoreIn(dataDir)
  try {
    const { rows } = await store.db.query<{ id: string }>(
      `insert into businesses (slug, name, category, is_active) values ('big-rock-coffee', 'Big Rock Coffee',
       'Dining & Refreshments', true) returning id`,
    )
    await addPhoto(store, {
      businessId: rows[0]!.id,
      name: 'storefront.jpg',
      altText: 'The storefront',
      imageType: 'hero',
      isPrimary: true,
      bytes: await photoJpeg(320, 240),
    })
  } finally {
    await store.close()
  }
}, 120_000)

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

const slow = { timeout: 240_000 }

/** A backup at a time, with a check that passed or failed (for the retention's pure rule). */
const folderBackup = (at: number, ok = true): FolderBackup => ({
  file: `/b/${backupFileName(new Date(at))}`,
  at: new Date(at),
  check: { ok } as BackupCheck,
})

describe('backupsToKeep', () => {
  // Noon in Roland (UTC-6 in winter), so days and weeks are the town's.
  const now = Date.parse('2026-11-27T18:00:00Z') // a Friday

  test('keeps the newest of each of the last 7 days and of each of the last 4 weeks, and nothing else', () => {
    // Two backups a day (morning and noon) for 40 days, newest first.
    const list = Array.from({ length: 80 }, (_, i) =>
      folderBackup(now - Math.floor(i / 2) * day - (i % 2) * 6 * 3_600_000),
    )
    const keep = backupsToKeep(list, { daily: 7, weekly: 4 })
    const daily = Array.from({ length: 7 }, (_, i) => list[2 * i]!.file)
    expect([...keep].filter((file) => daily.includes(file))).toEqual(daily)
    // The four weeks: this one (Monday 23rd on) and three before, each by its newest backup.
    const weekly = ['2026-11-27', '2026-11-22', '2026-11-15', '2026-11-08'].map(
      (date) => list.find((backup) => backup.at.toISOString().startsWith(date))!.file,
    )
    expect([...keep].sort()).toEqual([...new Set([...daily, ...weekly])].sort())
    expect(keep.size).toBe(9)
  })

  test('keeps a day’s good backup rather than a newer one whose check failed, and always the newest', () => {
    const good = folderBackup(now - 2 * 3_600_000)
    const failed = folderBackup(now, false)
    expect([...backupsToKeep([failed, good], { daily: 1, weekly: 1 })].sort()).toEqual([good.file, failed.file].sort())
    const older = folderBackup(now - 3 * day)
    expect(backupsToKeep([good, older], { daily: 1, weekly: 0 })).toEqual(new Set([good.file]))
  })
})

describe('a checked backup', () => {
  test(
    'is restored into a scratch store, its row counts and file hashes match, and the check sits beside it',
    slow,
    async () => {
      const store = await openEmbeddedStore({ dir: dataDir })
      let result
      try {
        result = await writeCheckedBackup({ store, dir: backups })
      } finally {
        await store.close()
      }
      expect(result.check).toMatchObject({ ok: true, error: null, file: path.basename(result.file) })
      expect(result.check.rows).toBe(result.summary.rows)
      expect(result.check.tables).toBe(result.summary.tables)
      expect(result.check.files).toBe(result.summary.files)
      expect(result.summary.files).toBeGreaterThan(3)
      const recorded = JSON.parse(await readFile(`${result.file}.check.json`, 'utf8')) as BackupCheck
      expect(recorded).toEqual(result.check)

      const state = await backupState(backups)
      expect(state).toMatchObject({ lastGood: result.check, last: result.check, problem: null })
      // Two days on with no new backup, it needs attention.
      const later = await backupState(backups, new Date(Date.parse(result.check.createdAt) + 2 * day + 60_000))
      expect(later.problem).toMatch(
        /^No checked backup for two days: the last good one, roland-backup-.*\.tar\.gz, is from/,
      )
    },
  )

  test('removes the backups the folder no longer keeps, with their checks', slow, async () => {
    const [newest] = await listBackups(backups)
    // Forty older backups, one a day (copies of the real one, under older names).
    for (let i = 1; i <= 40; i++) {
      const older = path.join(backups, backupFileName(new Date(newest!.at.getTime() - i * day)))
      await copyFile(newest!.file, older)
      await copyFile(`${newest!.file}.check.json`, `${older}.check.json`)
    }
    const store = await openEmbeddedStore({ dir: dataDir })
    let result
    try {
      result = await writeCheckedBackup({ store, dir: backups, retention: { daily: 7, weekly: 4 } })
    } finally {
      await store.close()
    }
    const left = await listBackups(backups)
    expect(result.removed.length).toBe(42 - left.length)
    expect(left.length).toBeGreaterThanOrEqual(7)
    expect(left.length).toBeLessThanOrEqual(7 + 4)
    expect(left[0]!.file).toBe(result.file)
    expect(left.every((backup) => backup.check?.ok)).toBe(true)
    // Every file left is a backup or its check: nothing else remains of the removed ones.
    expect((await readdir(backups)).length).toBe(2 * left.length)
  })
})

describe('a damaged backup', () => {
  test('fails its check with the reason, and the folder says so', slow, async () => {
    const [newest] = await listBackups(backups)
    const bytes = await readFile(newest!.file)
    // A few bytes in the middle of the file rot on the disk.
    for (let i = 0; i < 16; i++) bytes[Math.floor(bytes.length / 2) + i]! ^= 0xff
    await writeFile(newest!.file, bytes)

    const check = await verifyAndRecord(newest!.file)
    expect(check.ok).toBe(false)
    expect(check.error).toMatch(/is not a backup that can be restored: .*(damaged|cannot be unpacked)/)
    const state = await backupState(backups)
    expect(state.last).toEqual(check)
    expect(state.problem).toMatch(new RegExp(`^The check of the backup ${path.basename(newest!.file)} failed: `))
  })

  test('`roland db verify` says it is damaged, and a good one is good', slow, async () => {
    const [damaged, good] = await listBackups(backups)
    const run = (file: string) =>
      promisify(execFile)(process.execPath, [path.join(repoRoot, 'scripts/src/cli.ts'), 'db', 'verify', file], {
        cwd: root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ROLAND_DATA_DIR: path.join(root, 'unused') },
      }).then(
        ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      )
    const bad = await run(damaged!.file)
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(
      /^roland: .*roland-backup-.*\.tar\.gz failed its check: .* is not a backup that can be restored/,
    )
    const ok = await run(good!.file)
    expect(ok.stdout).toMatch(
      /roland-backup-.*\.tar\.gz is good: restored into a scratch store, \d+ rows in \d+ tables/,
    )
    // Nothing touched the data folder it did not need.
    expect(existsSync(path.join(root, 'unused'))).toBe(false)
  })

  test('`roland db backup --dir --keep` writes a checked backup and keeps that many days', slow, async () => {
    const folder = path.join(root, 'by-hand')
    await mkdir(folder)
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(repoRoot, 'scripts/src/cli.ts'), 'db', 'backup', '--dir', folder, '--keep', '3'],
      { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, ROLAND_DATA_DIR: dataDir } },
    )
    expect(stdout).toMatch(/^Backed up the embedded database in .* to .*roland-backup-\d{8}T\d{6}Z\.tar\.gz\.\n/)
    expect(stdout).toMatch(/Checked it: restored into a scratch store, \d+ rows in \d+ tables and \d+ files came back/)
    const [written] = await listBackups(folder)
    expect(written!.check).toMatchObject({ ok: true })
  })
})
