import { createWriteStream } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { backupFileName, writeBackup } from '@roland/scripts/backup/backup'
import { listBackups } from '@roland/scripts/backup/checked'
import { openEmbeddedStore } from '@roland/scripts/store/embedded'
import { openLeasedStore, type LeasedStore } from '@roland/scripts/store/leased'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { freshStoreIn } from '../../../scripts/test/support/fresh-store.ts'
import { ConsoleBackups, parseBackupEvery } from './backup-schedule.ts'

const hour = 3_600_000
const day = 24 * hour

describe('parseBackupEvery', () => {
  test('is daily by default when a folder is set, and reads hours, days and weeks', () => {
    expect(parseBackupEvery(undefined, '/backups')).toBe(day)
    expect(parseBackupEvery('', '/backups')).toBe(day)
    expect(parseBackupEvery('12h', '/backups')).toBe(12 * hour)
    expect(parseBackupEvery('1d', '/backups')).toBe(day)
    expect(parseBackupEvery('1w', '/backups')).toBe(7 * day)
  })

  test('is off with "off", or with no folder', () => {
    expect(parseBackupEvery('off', '/backups')).toBeNull()
    expect(parseBackupEvery(undefined, undefined)).toBeNull()
    expect(parseBackupEvery('off', undefined)).toBeNull()
  })

  test('refuses anything else, and an interval with no folder, saying what it takes', () => {
    expect(() => parseBackupEvery('daily', '/backups')).toThrow(
      /ROLAND_BACKUP_EVERY must be a number and a unit \(12h, 1d, 1w\) or off, not "daily"/,
    )
    expect(() => parseBackupEvery('12h', undefined)).toThrow(/ROLAND_BACKUP_DIR is not set/)
  })
})

// The schedule with a fake clock (the time it reads and its timer), and a real store and folder.
describe('ConsoleBackups', () => {
  const start = Date.parse('2026-11-26T12:00:00Z')
  let root: string
  let store: LeasedStore
  let backups: ConsoleBackups | undefined

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'roland-backup-schedule-'))
    await (await freshStoreIn(path.join(root, 'data'))).close()
    store = await openLeasedStore(() => openEmbeddedStore({ dir: path.join(root, 'data') }))
  }, 120_000)

  afterEach(() => {
    backups?.close()
    vi.useRealTimers()
  })

  afterAll(async () => {
    await store?.close()
    await rm(root, { recursive: true, force: true })
  })

  test(
    'writes a checked backup one interval after the newest in the folder, then is due an interval later',
    { timeout: 240_000 },
    async () => {
      const dir = path.join(root, 'daily')
      // The newest backup in the folder is 23 hours old: the next is due in an hour.
      await mkdir(dir)
      await store.use(async (open) => {
        await writeBackup(open, createWriteStream(path.join(dir, backupFileName(new Date(start - 23 * hour)))))
      })
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      let clock = start
      backups = new ConsoleBackups({ store, dir, everyMs: day, now: () => clock })
      await backups.start()
      expect(backups.nextAt).toBe(start + hour)

      clock = start + hour - 1000
      await vi.advanceTimersByTimeAsync(hour - 1000)
      expect(backups.running).toBe(false)
      expect(await listBackups(dir)).toHaveLength(1)

      clock = start + hour
      await vi.advanceTimersByTimeAsync(1000)
      expect(backups.running).toBe(true)
      // The backup itself runs on real timers (the database, the scratch store's check).
      vi.useRealTimers()
      await backups.idle()
      await vi.waitFor(() => expect(backups!.nextAt).toBe(start + hour + day), { timeout: 10_000 })
      const [newest] = await listBackups(dir)
      expect(newest!.at.getTime()).toBe(start + hour)
      expect(newest!.check).toMatchObject({ ok: true, error: null })
      const view = await backups.view()
      expect(view).toMatchObject({ dir, running: false, lastGood: newest!.check, problem: null })
      expect(view.nextAt).toBe(new Date(start + hour + day).toISOString())
    },
  )

  test('a console that starts with an empty folder backs up a minute later, not at once', async () => {
    const dir = path.join(root, 'empty')
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    backups = new ConsoleBackups({ store, dir, everyMs: 12 * hour, now: () => start })
    await backups.start()
    expect(backups.nextAt).toBe(start + 60_000)
    expect((await backups.view()).problem).toBe(`No backup has been written to ${dir} yet.`)
  })

  test('never backs up when off, or with no folder', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    backups = new ConsoleBackups({ store, dir: path.join(root, 'off'), everyMs: null, now: () => start })
    await backups.start()
    expect(backups.nextAt).toBeNull()
    await vi.advanceTimersByTimeAsync(30 * day)
    expect(backups.running).toBe(false)
    backups.close()
    backups = new ConsoleBackups({ store, dir: null, everyMs: day, now: () => start })
    await backups.start()
    expect(backups.nextAt).toBeNull()
    expect(await backups.view()).toMatchObject({ dir: null, problem: null })
  })
})
