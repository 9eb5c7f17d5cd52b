import { backupState, listBackups, writeCheckedBackup, type BackupCheck } from '@roland/scripts/backup/checked'
import { findTown } from '@roland/scripts/content/town'
import type { LeasedStore } from '@roland/scripts/store/leased'
import type { BackupView } from '../shared/api.ts'
import { CheckSchedule } from './check-schedule.ts'

// Scheduled, checked backups in the console (issue 43): with ROLAND_BACKUP_DIR set, a backup is
// written into that folder every ROLAND_BACKUP_EVERY (a day by default; 12h, off), checked by a
// restore into a scratch store, and the folder keeps 7 daily and 4 weekly (scripts/src/backup/checked.ts).
// The schedule is the freshness check's: the next backup is due one interval after the newest in
// the folder, so a restart neither skips nor doubles one, and `roland db backup --dir` counts.

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 }

/**
 * Reads ROLAND_BACKUP_EVERY: "1d" (the default when ROLAND_BACKUP_DIR is set), "12h", "30m",
 * "1w", or "off"; null when off or when there is no folder.
 */
export function parseBackupEvery(value: string | undefined, dir: string | undefined): number | null {
  const text = (value ?? '').trim().toLowerCase()
  if (text === 'off' || text === '0') return null
  if (!dir) {
    if (text === '') return null
    throw new Error(
      `ROLAND_BACKUP_EVERY is "${value}" but ROLAND_BACKUP_DIR is not set: set the folder the backups go in`,
    )
  }
  if (text === '') return UNITS.d!
  const match = /^(\d+)\s*([mhdw])$/.exec(text)
  if (!match || Number(match[1]) === 0) {
    throw new Error(`ROLAND_BACKUP_EVERY must be a number and a unit (12h, 1d, 1w) or off, not "${value}"`)
  }
  return Number(match[1]) * UNITS[match[2]!]!
}

/** The console's backups: the schedule, "Back up now", and what Today and Needs attention show. */
export class ConsoleBackups {
  readonly dir: string | null
  readonly #schedule: CheckSchedule
  readonly #store: LeasedStore
  readonly #now: () => number
  #running: Promise<BackupCheck | null> | null = null
  #lastError: string | null = null

  constructor(options: {
    store: LeasedStore
    dir: string | null
    everyMs: number | null
    startDelayMs?: number
    now?: () => number
  }) {
    this.dir = options.dir
    this.#store = options.store
    this.#now = options.now ?? Date.now
    this.#schedule = new CheckSchedule({
      everyMs: options.dir ? options.everyMs : null,
      lastCheck: async () => {
        const newest = options.dir ? (await listBackups(options.dir))[0] : undefined
        return newest ? { finished_at: newest.at.toISOString(), created_at: newest.at.toISOString() } : null
      },
      run: () => this.run(),
      ...(options.startDelayMs === undefined ? {} : { startDelayMs: options.startDelayMs }),
      now: this.#now,
    })
  }

  /** Starts the schedule. */
  start(): Promise<void> {
    return this.#schedule.start()
  }

  /** When the next scheduled backup is due (ms since the epoch), or null when off. */
  get nextAt(): number | null {
    return this.#schedule.nextAt
  }

  /** Whether a backup is being written or checked now. */
  get running(): boolean {
    return this.#running !== null
  }

  /** Writes, checks and prunes a backup now (or joins the one under way); resolves with its check. */
  run(): Promise<BackupCheck | null> {
    const dir = this.dir
    if (!dir) return Promise.resolve(null)
    this.#running ??= this.#store
      .use((store) => writeCheckedBackup({ store, dir, now: () => new Date(this.#now()) }))
      .then(
        (result) => {
          this.#lastError = null
          return result.check
        },
        (error: unknown) => {
          // A backup that could not be written at all (a full disk, a folder it may not write).
          this.#lastError = (error as Error).message
          return null
        },
      )
      .finally(() => {
        this.#running = null
      })
    return this.#running
  }

  /** What Today's card and Needs attention show. */
  async view(): Promise<BackupView> {
    const nextAt = this.nextAt
    if (!this.dir) {
      return { dir: null, nextAt: null, running: false, last: null, lastGood: null, problem: null }
    }
    const town = await this.#store.use((store) => findTown(store)).catch(() => null)
    const state = await backupState(this.dir, new Date(this.#now()), town?.time_zone)
    const problem = this.#lastError ? `The last backup could not be written: ${this.#lastError}` : state.problem
    return {
      dir: this.dir,
      nextAt: nextAt === null ? null : new Date(nextAt).toISOString(),
      running: this.running,
      last: state.last,
      lastGood: state.lastGood,
      problem,
    }
  }

  /** Resolves when no backup is under way (before the store closes). */
  async idle(): Promise<void> {
    await this.#running
  }

  /** Stops the schedule. */
  close(): void {
    this.#schedule.close()
  }
}
