import { listAlerts, nextAlertEnd } from '@roland/scripts/content/alerts'
import type { LeasedStore } from '@roland/scripts/store/leased'
import type { RebuildScheduler } from './rebuild-scheduler.ts'

// An alert that reaches its end time leaves the banner at the next build (issue 48): the console
// keeps a timer for the soonest end among the showing alerts and queues an urgent rebuild when it
// passes. The timer is planned again after every alert change the console makes, and at least
// every `recheckMs` (an hour by default), so an alert changed from the CLI or SQL is noticed too.

/** The console's timer for alerts' end times. */
export class AlertTimer {
  readonly #store: LeasedStore
  readonly #scheduler: RebuildScheduler
  readonly #recheckMs: number
  #timer: NodeJS.Timeout | undefined
  #closed = false
  #planning: Promise<void> | null = null
  /** The end time the timer waits for (epoch ms), or null. */
  nextEnd: number | null = null

  constructor(options: { store: LeasedStore; scheduler: RebuildScheduler; recheckMs?: number }) {
    this.#store = options.store
    this.#scheduler = options.scheduler
    this.#recheckMs = options.recheckMs ?? 3_600_000
  }

  /** Reads the alerts and sets the timer for the soonest end time still ahead. */
  plan(): Promise<void> {
    const planning = (async () => {
      const alerts = await listAlerts(this.#store)
      if (this.#closed) return
      const now = Date.now()
      this.nextEnd = nextAlertEnd(alerts, now)
      clearTimeout(this.#timer)
      // A little after the end, so the build that follows sees the alert as past it.
      const wait = this.nextEnd === null ? this.#recheckMs : Math.min(this.nextEnd - now + 1000, this.#recheckMs)
      const due = this.nextEnd !== null && this.nextEnd - now + 1000 <= this.#recheckMs
      this.#timer = setTimeout(() => {
        if (due) this.#scheduler.requestUrgent()
        void this.plan().catch(() => {})
      }, wait)
      this.#timer.unref()
    })()
    this.#planning = planning
    return planning.finally(() => {
      if (this.#planning === planning) this.#planning = null
    })
  }

  /** Waits for a planning under way (tests, shutdown). */
  async idle(): Promise<void> {
    await this.#planning?.catch(() => {})
  }

  /** Stops the timer. */
  close(): void {
    this.#closed = true
    clearTimeout(this.#timer)
  }
}
