import type { Job } from '@roland/scripts/store/types'

// The scheduled freshness check (issue 28): weekly by default, ROLAND_CHECK_EVERY to change it,
// off to stop it. The next run is due one interval after the last check finished (a check run
// from the CLI counts), so a console that restarts neither skips nor doubles a week.

/** When checks run on their own: every `everyMs`, or never (null). */
export interface CheckScheduleOptions {
  everyMs: number | null
  /** The latest check job, from the history (console or CLI); or the latest run of another schedule (backups). */
  lastCheck: () => Promise<Pick<Job, 'finished_at' | 'created_at'> | null>
  /** Starts a check (unless one is running) and resolves when it is over. */
  run: () => Promise<unknown>
  /** The earliest a check starts after the console does, so a restart is quick (default 1 minute). */
  startDelayMs?: number
  now?: () => number
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 }

/** Reads ROLAND_CHECK_EVERY: "7d" (the default), "12h", "30m", "2w", or "off"; null when off. */
export function parseCheckEvery(value: string | undefined): number | null {
  const text = (value ?? '').trim().toLowerCase()
  if (text === '') return UNITS.w!
  if (text === 'off' || text === '0') return null
  const match = /^(\d+)\s*([mhdw])$/.exec(text)
  if (!match || Number(match[1]) === 0) {
    throw new Error(`ROLAND_CHECK_EVERY must be a number and a unit (30m, 12h, 7d, 2w) or off, not "${value}"`)
  }
  return Number(match[1]) * UNITS[match[2]!]!
}

/** Runs the check on its schedule until closed. */
export class CheckSchedule {
  readonly #options: CheckScheduleOptions
  #timer: NodeJS.Timeout | undefined
  #closed = false
  #nextAt: number | null = null

  constructor(options: CheckScheduleOptions) {
    this.#options = options
  }

  /** When the next scheduled check is due (ms since the epoch), or null when checks are off. */
  get nextAt(): number | null {
    return this.#nextAt
  }

  /** Works out the next run from the history and waits for it. */
  async start(): Promise<void> {
    const { everyMs } = this.#options
    if (everyMs === null || this.#closed) return
    const now = (this.#options.now ?? Date.now)()
    const last = await this.#options.lastCheck().catch(() => null)
    const lastAt = last ? Date.parse(last.finished_at ?? last.created_at) : Number.NEGATIVE_INFINITY
    this.#nextAt = Math.max(lastAt + everyMs, now + (this.#options.startDelayMs ?? 60_000))
    clearTimeout(this.#timer)
    // setTimeout holds at most about 24.8 days; a longer wait takes several steps.
    const wait = Math.min(this.#nextAt - now, 2 ** 31 - 1)
    this.#timer = setTimeout(() => void this.#due(), wait)
    this.#timer.unref()
  }

  async #due(): Promise<void> {
    if (this.#closed) return
    if ((this.#options.now ?? Date.now)() >= (this.#nextAt ?? 0)) await this.#options.run().catch(() => {})
    await this.start()
  }

  /** Stops the schedule. */
  close(): void {
    this.#closed = true
    clearTimeout(this.#timer)
  }
}
