import { withApiBase, type MailConfig } from '@roland/scripts/notify/config'
import { nextDigestAt, queueWeeklyDigest, type DigestOutcome } from '@roland/scripts/notify/digest'
import type { SendSummary } from '@roland/scripts/notify/send'
import { readTown } from '@roland/scripts/content/town'
import type { LeasedStore } from '@roland/scripts/store/leased'

// "Notify me" in the console (issue 48): the scheduler that sends the outbox and queues the weekly
// digest. It looks every `pollMs` (ROLAND_NOTIFY_POLL_MS, a minute by default: retries and the CLI's
// queueing) and at once when told (a subscription, a published or ended alert); one send at a
// time. Each look is a few short calls, so a site build waiting for the embedded database gets it
// between them; the digest's catalog read happens only when the week's digest is due.
// `roland notify send` from a cron job does the same work: the SQL claims keep two senders from
// sending one message twice.

/** What the console shows of the sender. */
export interface NotifyState {
  /** Email is on (SMTP_URL and MAIL_FROM set). */
  enabled: boolean
  /** The last send's summary and when it ended, or null. */
  lastSend: (SendSummary & { at: string }) | null
  /** The last send's error (the SMTP server unreachable, …), or null. */
  lastError: string | null
  /** When the next weekly digest is due, or null when email is off. */
  nextDigestAt: string | null
}

/** The console's sender: the outbox and the weekly digest. */
export class ConsoleNotify {
  readonly #store: LeasedStore
  readonly #mail: MailConfig | null
  readonly #pollMs: number
  readonly #apiBase: () => string
  #timer: NodeJS.Timeout | undefined
  #running: Promise<void> | null = null
  #again = false
  #closed = false
  readonly #abort = new AbortController()
  /** When the weekly digest is next due (epoch ms); null until the town's zone is known. */
  #digestDue: number | null = null
  state: NotifyState

  constructor(options: { store: LeasedStore; mail: MailConfig | null; pollMs?: number; apiBase: () => string }) {
    this.#store = options.store
    this.#mail = options.mail
    this.#pollMs = options.pollMs ?? 60_000
    this.#apiBase = options.apiBase
    this.state = { enabled: options.mail !== null, lastSend: null, lastError: null, nextDigestAt: null }
  }

  /** Starts looking at the outbox (nothing when email is off). */
  start(): void {
    if (!this.#mail) return
    this.#schedule(Math.min(this.#pollMs, 60_000))
  }

  #schedule(ms: number): void {
    if (this.#closed) return
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => this.kick(), ms)
    this.#timer.unref()
  }

  /** Sends what is due now (after a send under way), then looks again in pollMs. */
  kick(): void {
    if (!this.#mail || this.#closed) return
    if (this.#running) {
      this.#again = true
      return
    }
    this.#running = this.#run().finally(() => {
      this.#running = null
      if (this.#again) {
        this.#again = false
        this.kick()
      } else this.#schedule(this.#pollMs)
    })
  }

  async #run(): Promise<void> {
    const mail = withApiBase(this.#mail!, this.#apiBase())
    try {
      // The week's digest once it is due (at the first look after a start, this week's if it is
      // not queued yet: queue_digest queues a week once).
      if (this.#digestDue === null || Date.now() >= this.#digestDue) {
        const digest: DigestOutcome = await queueWeeklyDigest(this.#store, mail)
        const town = await readTown(this.#store)
        this.#digestDue = nextDigestAt(new Date(), town.time_zone).getTime()
        this.state.nextDigestAt = new Date(this.#digestDue).toISOString()
        if (digest.queued > 0) this.#again = true
      }
      // Loaded with the first send: nodemailer (crawl-jobs.ts says why).
      const { sendOutbox } = await import('@roland/scripts/notify/send')
      const summary = await sendOutbox({ store: this.#store, config: mail, signal: this.#abort.signal })
      this.state.lastSend = { ...summary, at: new Date().toISOString() }
      this.state.lastError = null
    } catch (error) {
      this.state.lastError = (error as Error).message
      process.emitWarning(`Sending email failed: ${(error as Error).message}`)
    }
  }

  /** Resolves when no send is under way. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running
  }

  /** Stops the schedule; a send under way stops after its current batch. */
  close(): void {
    this.#closed = true
    this.#abort.abort()
    clearTimeout(this.#timer)
  }
}
