import { listFeeds, syncFeeds, type FeedSyncResult } from '@roland/scripts/feeds/sync'
import type { Actor } from '@roland/scripts/operators/schema'
import type { LeasedStore } from '@roland/scripts/store/leased'
import { CheckSchedule } from './check-schedule.ts'
import type { RebuildScheduler } from './rebuild-scheduler.ts'

// Calendar feeds in the console (issue 40): every ROLAND_FEEDS_EVERY (6 hours by default; off to
// stop) the console syncs every feed, on the freshness check's schedule: the next sync is due one
// interval after the last one tried (`roland feeds sync` counts), so a restart neither skips nor
// doubles one. A sync that changed events queues a site rebuild, as a data-changing job does.

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 }

/** Reads ROLAND_FEEDS_EVERY: "6h" (the default), "30m", "1d", or "off"; null when off. */
export function parseFeedsEvery(value: string | undefined): number | null {
  const text = (value ?? '').trim().toLowerCase()
  if (text === '') return 6 * UNITS.h!
  if (text === 'off' || text === '0') return null
  const match = /^(\d+)\s*([mhdw])$/.exec(text)
  if (!match || Number(match[1]) === 0) {
    throw new Error(`ROLAND_FEEDS_EVERY must be a number and a unit (30m, 6h, 1d) or off, not "${value}"`)
  }
  return Number(match[1]) * UNITS[match[2]!]!
}

/** The console's feed syncs: the schedule, "Sync now", one at a time. */
export class ConsoleFeeds {
  readonly #schedule: CheckSchedule
  readonly #store: LeasedStore
  readonly #scheduler: RebuildScheduler
  readonly #allowPrivateNetwork: boolean
  #running: Promise<FeedSyncResult> | null = null

  constructor(options: {
    store: LeasedStore
    scheduler: RebuildScheduler
    everyMs: number | null
    allowPrivateNetwork: boolean
    startDelayMs?: number
  }) {
    this.#store = options.store
    this.#scheduler = options.scheduler
    this.#allowPrivateNetwork = options.allowPrivateNetwork
    this.#schedule = new CheckSchedule({
      everyMs: options.everyMs,
      lastCheck: async () => {
        const tried = (await listFeeds(this.#store))
          .map((feed) => feed.last_attempt_at)
          .filter((at): at is string => at !== null)
          .sort()
        const last = tried.at(-1)
        return last ? { finished_at: last, created_at: last } : null
      },
      run: () => this.sync(),
      ...(options.startDelayMs === undefined ? {} : { startDelayMs: options.startDelayMs }),
    })
  }

  /** Starts the schedule. */
  start(): Promise<void> {
    return this.#schedule.start()
  }

  /** When the next scheduled sync is due (ms since the epoch), or null when off. */
  get nextAt(): number | null {
    return this.#schedule.nextAt
  }

  /** Whether a sync is under way. */
  get running(): boolean {
    return this.#running !== null
  }

  /**
   * Syncs every feed, or the `only` ones, after any sync under way; a sync that changed events
   * queues a rebuild.
   */
  sync(only?: readonly string[], actor?: Actor): Promise<FeedSyncResult> {
    const previous = this.#running ?? Promise.resolve(null)
    const run: Promise<FeedSyncResult> = previous
      .catch(() => null)
      .then(async () => {
        this.#scheduler.hold()
        let changed = false
        try {
          const result = await syncFeeds({
            store: this.#store,
            allowPrivateNetwork: this.#allowPrivateNetwork,
            ...(only ? { only } : {}),
            ...(actor ? { actor } : {}),
          })
          changed = result.changed
          return result
        } finally {
          this.#scheduler.release({ changedData: changed })
        }
      })
      .finally(() => {
        if (this.#running === run) this.#running = null
      })
    this.#running = run
    return run
  }

  /** Resolves when no sync is under way (before the store closes). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running.catch(() => null)
  }

  /** Stops the schedule. */
  close(): void {
    this.#schedule.close()
  }
}
