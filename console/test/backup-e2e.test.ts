import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { listBackups, verifyAndRecord } from '@roland/scripts/backup/checked'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConsoleServer } from '../src/server/server.ts'
import { call, startBrowserConsole, type BrowserConsole } from './support/console.ts'

// Scheduled, checked backups in the console (issue 43): with ROLAND_BACKUP_DIR set and no backup
// yet, Today and Needs attention say so; "Back up now" writes one, checks it by a restore into a
// scratch store, and Today's card shows it; a backup that rots on the disk fails its next check
// (`roland db verify`), and both screens say which and why. The built app in a real Chromium, the
// real server and embedded Postgres.

let started: BrowserConsole | undefined
let backupDir: string
let server: ConsoleServer
let page: Page

beforeAll(async () => {
  backupDir = await mkdtemp(path.join(os.tmpdir(), 'roland-console-backup-dir-'))
  // The schedule is off (a scheduled backup would come a minute after the start, in the middle of
  // these tests; backup-schedule.test.ts covers it): only this test's clicks write backups.
  started = await startBrowserConsole({
    name: 'backups',
    operator: { email: 'volunteer@example.org', role: 'editor' },
    env: { ROLAND_BACKUP_DIR: backupDir, ROLAND_BACKUP_EVERY: 'off' },
    timeoutMs: 120_000,
  })
  ;({ server, page } = started)
  await page.getByRole('heading', { name: 'Today', level: 1 }).waitFor()
})

afterAll(async () => {
  await started?.close()
  if (backupDir) await rm(backupDir, { recursive: true, force: true })
})

const slow = { timeout: 300_000 }
const card = () => page.getByTestId('backup-status')

describe('Backups on Today, in Chromium', () => {
  test('with no backup yet, the card says so and Needs attention lists it', slow, async () => {
    await card().getByText('No checked backup yet.').waitFor()
    await card().getByText('Scheduled backups are off (ROLAND_BACKUP_EVERY=off).', { exact: false }).waitFor()
    await page
      .getByRole('list', { name: 'Findings by kind' })
      .getByText(`Backups: No backup has been written to ${backupDir} yet.`)
      .waitFor()
  })

  test('"Back up now" writes a backup, checks it, and the card shows the last checked backup', slow, async () => {
    await card().getByRole('button', { name: 'Back up now' }).click()
    await card()
      .getByText(/^Last checked backup: /)
      .waitFor()
    const [backup] = await listBackups(backupDir)
    expect(backup!.check).toMatchObject({ ok: true })
    const text = await card().textContent()
    expect(text).toContain(`${backup!.check!.rows} rows in ${backup!.check!.tables} tables`)
    expect(text).toContain(`In ${backupDir}.`)
    await page.reload()
    await page.getByRole('list', { name: 'Findings by kind' }).getByText('Nothing needs attention').waitFor()
    const { json } = await call(server, '/api/findings')
    expect(json.backup).toMatchObject({ problem: null, lastGood: backup!.check })
  })

  test('a backup damaged on the disk fails its check, and both screens say which and why', slow, async () => {
    const [backup] = await listBackups(backupDir)
    const bytes = await readFile(backup!.file)
    for (let i = 0; i < 16; i++) bytes[Math.floor(bytes.length / 2) + i]! ^= 0xff
    await writeFile(backup!.file, bytes)
    // What `roland db verify` does with a backup in the folder: check it again and record the outcome.
    const check = await verifyAndRecord(backup!.file)
    expect(check.ok).toBe(false)

    await page.reload()
    const name = path.basename(backup!.file)
    await card().getByRole('alert').getByText(`The check of ${name} failed:`, { exact: false }).waitFor()
    await page
      .getByRole('list', { name: 'Findings by kind' })
      .getByText(`Backups: The check of the backup ${name} failed:`, { exact: false })
      .click()
    await page.getByRole('heading', { name: 'Needs attention', level: 1 }).waitFor()
    const section = page.locator('section[data-kind="backups"]')
    await section.getByText(`The check of the backup ${name} failed: `, { exact: false }).waitFor()
    expect(await section.textContent()).toMatch(/is not a backup that can be restored/)
  })
})
