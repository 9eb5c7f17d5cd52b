import { createHash } from 'node:crypto'
import { createWriteStream, existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { formatTownTime } from '../content/town-time.ts'
import { findTown } from '../content/town.ts'
import { openEmbeddedStore } from '../store/embedded.ts'
import { StoreError, type Store } from '../store/types.ts'
import { backupFileName, writeBackup, type BackupSummary } from './backup.ts'
import { readBackup, restoreBackup } from './restore.ts'

// Scheduled, checked backups (issue 43). A backup is only as good as its restore, so each one is
// restored into a scratch embedded store, and what came back is compared with what the backup's
// manifest says it holds: every table's row count and every file's SHA-256. The outcome is kept
// beside the backup, in <backup>.check.json, so the folder itself says which backups are good
// (a restore of the store cannot erase that record, and a copy of the folder carries it along).
// The folder keeps the newest backup of each of the last 7 days and of each of the last 4 weeks.

/** What checking one backup found: kept beside it as <backup>.check.json. */
export const backupCheckSchema = z.object({
  /** The backup's file name (in the same folder). */
  file: z.string(),
  /** When it was written, as its header says (or the file's time, if it cannot be read). */
  createdAt: z.string(),
  checkedAt: z.string(),
  ok: z.boolean(),
  /** Why the check failed. */
  error: z.string().nullable(),
  /** What the backup holds (what came back when it was restored). */
  tables: z.number().int(),
  rows: z.number().int(),
  files: z.number().int(),
  /** The stored files' bytes. */
  bytes: z.number().int(),
  /** The backup file's own size. */
  size: z.number().int(),
})
export type BackupCheck = z.infer<typeof backupCheckSchema>

/** How many backups a folder keeps: the newest of each of the last `daily` days and `weekly` weeks. */
export interface Retention {
  daily: number
  weekly: number
}

/** The console's schedule keeps 7 daily and 4 weekly backups. */
export const defaultRetention: Retention = { daily: 7, weekly: 4 }

/** A backup with no checked good backup for this long is a finding. */
export const backupOverdueMs = 2 * 86_400_000

const backupName = /^roland-backup-\d{8}T\d{6}Z\.tar\.gz$/
const checkFile = (file: string) => `${file}.check.json`
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/**
 * Checks one backup file by restoring it into a scratch embedded store (a temporary folder,
 * removed after) and comparing each table's row count and each file's SHA-256 with what its
 * manifest says. A damaged, cut-short or foreign file fails with the restore's reason.
 */
export async function verifyBackup(file: string, now: () => Date = () => new Date()): Promise<BackupCheck> {
  const size = existsSync(file) ? (await stat(file)).size : 0
  const scratch = await mkdtemp(path.join(tmpdir(), 'roland-backup-check-'))
  const check: BackupCheck = {
    file: path.basename(file),
    createdAt: existsSync(file) ? (await stat(file)).mtime.toISOString() : now().toISOString(),
    checkedAt: now().toISOString(),
    ok: false,
    error: null,
    tables: 0,
    rows: 0,
    files: 0,
    bytes: 0,
    size,
  }
  try {
    const { header, manifest } = await readBackup(file, path.join(scratch, 'read'))
    check.createdAt = header.createdAt
    const dir = path.join(scratch, 'store')
    await restoreBackup({ dir, file })
    const store = await openEmbeddedStore({ dir })
    const problems: string[] = []
    try {
      for (const table of manifest.tables) {
        const { rows } = await store.db.query<{ n: number }>(`select count(*)::int as n from public."${table.name}"`)
        if (rows[0]!.n !== table.rows) {
          problems.push(`the table ${table.name} came back with ${rows[0]!.n} rows, not ${table.rows}`)
        }
        check.tables++
        check.rows += rows[0]!.n
      }
      const listed = new Set(await store.files.list())
      for (const entry of manifest.files) {
        const bytes = await store.files.get(entry.path)
        if (!bytes) problems.push(`the file ${entry.path} did not come back`)
        else if (sha256(bytes) !== entry.sha256) problems.push(`the file ${entry.path} came back changed`)
        else {
          check.files++
          check.bytes += bytes.length
        }
        listed.delete(entry.path)
      }
      for (const extra of listed) problems.push(`the restore holds a file the backup does not list (${extra})`)
    } finally {
      await store.close()
    }
    check.ok = problems.length === 0
    check.error = problems.length ? `${problems.slice(0, 5).join('; ')}.` : null
  } catch (error) {
    check.error = (error as Error).message
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
  check.checkedAt = now().toISOString()
  return check
}

/** Checks a backup and records the outcome beside it (<file>.check.json). */
export async function verifyAndRecord(file: string, now: () => Date = () => new Date()): Promise<BackupCheck> {
  const check = await verifyBackup(file, now)
  await writeFile(checkFile(file), `${JSON.stringify(check, null, 2)}\n`)
  return check
}

/** A backup in a folder, newest first, with its check if it had one. */
export interface FolderBackup {
  file: string
  /** When it was written (from its name). */
  at: Date
  check: BackupCheck | null
}

/** The backups of a folder (files named as `roland db backup` names them), newest first. */
export async function listBackups(dir: string): Promise<FolderBackup[]> {
  if (!existsSync(dir)) return []
  const backups: FolderBackup[] = []
  for (const name of await readdir(dir)) {
    if (!backupName.test(name)) continue
    const stamp = name.slice('roland-backup-'.length, -'.tar.gz'.length)
    const at = new Date(
      `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`,
    )
    // A backup with no readable check beside it was never checked (or its check was cut short).
    const recorded = await readFile(path.join(dir, checkFile(name)), 'utf8').catch(() => '')
    const parsed = backupCheckSchema.safeParse(parseJson(recorded))
    const check = parsed.success ? parsed.data : null
    backups.push({ file: path.join(dir, name), at, check })
  }
  return backups.sort((a, b) => b.at.getTime() - a.at.getTime() || b.file.localeCompare(a.file))
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The calendar day (YYYY-MM-DD) of a time in the town's zone. */
function dayOf(at: Date, timeZone: string): string {
  return at.toLocaleDateString('en-CA', { timeZone })
}

/** The Monday (YYYY-MM-DD) of the week a time falls in, in the town's zone. */
function weekOf(at: Date, timeZone: string): string {
  const day = new Date(`${dayOf(at, timeZone)}T00:00:00Z`)
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7))
  return day.toISOString().slice(0, 10)
}

/**
 * Which backups a folder keeps: the newest good one (its check passed; else the newest) of each of
 * the last `daily` days that have a backup, and of each of the last `weekly` weeks; the rest go.
 * The newest backup always stays. Days and weeks are the town's (`timeZone`, the town settings' zone).
 */
export function backupsToKeep(backups: FolderBackup[], retention: Retention, timeZone = 'UTC'): Set<string> {
  const keep = new Set<string>()
  if (backups[0]) keep.add(backups[0].file)
  for (const [periodOf, count] of [
    [dayOf, retention.daily],
    [weekOf, retention.weekly],
  ] as const) {
    const periods = new Map<string, FolderBackup[]>()
    for (const backup of backups) {
      const period = periodOf(backup.at, timeZone)
      periods.set(period, [...(periods.get(period) ?? []), backup])
    }
    // Newest period first (backups are newest first, so the map is in that order).
    for (const inPeriod of [...periods.values()].slice(0, count)) {
      keep.add((inPeriod.find((backup) => backup.check?.ok) ?? inPeriod[0]!).file)
    }
  }
  return keep
}

/** What a checked backup into a folder did. */
export interface CheckedBackupResult {
  file: string
  summary: BackupSummary
  check: BackupCheck
  /** The older backups removed by the retention. */
  removed: string[]
}

/**
 * Writes a backup of the store into a folder, checks it (verifyBackup) and records the check
 * beside it, then removes the backups the retention does not keep. A check that fails keeps the
 * backup (the finding names it) and removes nothing.
 */
export async function writeCheckedBackup(options: {
  store: Store
  dir: string
  retention?: Retention
  now?: () => Date
}): Promise<CheckedBackupResult> {
  const now = options.now ?? (() => new Date())
  await mkdir(options.dir, { recursive: true }).catch((error: Error) => {
    throw new StoreError(`Cannot make the backup folder ${options.dir}: ${error.message}. Set a folder you may write.`)
  })
  const at = now()
  const file = path.join(options.dir, backupFileName(at))
  // Written beside its name and renamed when whole: a file with the name is always a complete backup.
  const partial = `${file}.partial`
  let summary: BackupSummary
  try {
    summary = await writeBackup(options.store, createWriteStream(partial), at)
    await rename(partial, file)
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  }
  const check = await verifyAndRecord(file, now)
  const removed: string[] = []
  if (check.ok) {
    const backups = await listBackups(options.dir)
    const timeZone = (await findTown(options.store))?.time_zone ?? 'UTC'
    const keep = backupsToKeep(backups, options.retention ?? defaultRetention, timeZone)
    for (const backup of backups) {
      if (keep.has(backup.file)) continue
      await rm(backup.file, { force: true })
      await rm(checkFile(backup.file), { force: true })
      removed.push(path.basename(backup.file))
    }
  }
  return { file, summary, check, removed }
}

/** The state of a backup folder, for Today and Needs attention. */
export interface BackupState {
  /** The newest backup's check (passed or failed), or null when none was checked. */
  last: BackupCheck | null
  /** The newest backup whose check passed. */
  lastGood: BackupCheck | null
  /** What needs attention, in a sentence: no good backup for two days, or a check that failed; else null. */
  problem: string | null
}

/** Reads a backup folder's state at `now`, times said in the town's `timeZone`. */
export async function backupState(dir: string, now: Date = new Date(), timeZone = 'UTC'): Promise<BackupState> {
  const backups = await listBackups(dir)
  const last = backups.find((backup) => backup.check)?.check ?? null
  const lastGood = backups.find((backup) => backup.check?.ok)?.check ?? null
  let problem: string | null = null
  if (last && !last.ok) {
    problem = `The check of the backup ${last.file} failed: ${last.error ?? 'no reason given'}`
  } else if (!lastGood) {
    problem = backups.length
      ? `No backup in ${dir} has been checked: run \`pnpm roland db verify\` on the newest.`
      : `No backup has been written to ${dir} yet.`
  } else if (now.getTime() - Date.parse(lastGood.createdAt) > backupOverdueMs) {
    problem = `No checked backup for two days: the last good one, ${lastGood.file}, is from ${formatTownTime(lastGood.createdAt, timeZone)}.`
  }
  return { last, lastGood, problem }
}
