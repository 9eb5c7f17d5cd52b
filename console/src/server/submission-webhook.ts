import type { SubmissionKind } from '@roland/scripts/content/schema'
import { proposedFields, type SubmissionEntry } from '@roland/scripts/content/submissions'

// Announces each new submission to a chat webhook (SUBMISSIONS_WEBHOOK_URL), so an operator knows
// there is something in the Inbox. The body suits both Slack (`text`) and Discord (`content`). It
// is sent after the visitor has their answer and retried with backoff, so a slow or failing
// webhook never delays or fails a visitor. No text the visitor typed goes into it: only the kind,
// the listing's name as the site shows it, and which fields change.

/** What the announcement says of a submission. */
export interface SubmissionNotice {
  kind: SubmissionKind
  /** The listed business a change is about. */
  businessName: string | null
  /** The fields a change proposes (column names). */
  fields: string[]
}

/** What the announcement of a stored submission says: its kind, the listing's name, the fields it changes. */
export function noticeOf(entry: SubmissionEntry): SubmissionNotice {
  return {
    kind: entry.kind,
    businessName: typeof entry.target?.name === 'string' ? entry.target.name : null,
    fields: entry.kind === 'business-update' ? Object.keys(proposedFields(entry.kind, entry.payload)) : [],
  }
}

/**
 * The JSON body POSTed to the webhook: Slack reads `text`, Discord `content`; nobody gets pinged.
 * townName: the town's name from its settings (town_settings.name), which names the site.
 */
export function webhookBody(notice: SubmissionNotice, inboxUrl: string, townName: string): Record<string, unknown> {
  const what =
    notice.kind === 'business-update'
      ? `a change to ${notice.businessName ?? 'a listing'}${notice.fields.length ? ` (${notice.fields.join(', ')})` : ''}`
      : notice.kind === 'new-business'
        ? 'a new business'
        : 'an event'
  const message = `New suggestion on the ${townName} site: ${what}. Review it in the console's Inbox: ${inboxUrl}`
  // Slack reads &, < and > as markup; Discord's mentions are turned off.
  return {
    text: message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    content: message,
    allowed_mentions: { parse: [] },
  }
}

/** Sends announcements in the background, each retried after the given delays. */
export class SubmissionWebhook {
  readonly #url: string
  readonly #retryDelaysMs: number[]
  readonly #pending = new Set<Promise<void>>()
  readonly #stop = new AbortController()

  /** retryDelaysMs: the waits before each retry (default 1 s, 5 s, 30 s, 2 min, 10 min). */
  constructor(url: string, retryDelaysMs: number[] = [1_000, 5_000, 30_000, 120_000, 600_000]) {
    this.#url = url
    this.#retryDelaysMs = retryDelaysMs
  }

  /** Queues an announcement and returns at once. */
  send(body: Record<string, unknown>): void {
    const sending = this.#deliver(JSON.stringify(body)).finally(() => this.#pending.delete(sending))
    this.#pending.add(sending)
  }

  /** Waits for the announcements under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#pending.size) await Promise.allSettled([...this.#pending])
  }

  /** Stops retrying. */
  close(): void {
    this.#stop.abort()
  }

  async #deliver(body: string): Promise<void> {
    const signal = this.#stop.signal
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(this.#url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]),
        })
        await response.body?.cancel()
        if (response.ok) return
        // A refusal of the body itself will not change on retry; a rate limit or failure may.
        if (response.status < 500 && response.status !== 429 && response.status !== 408) {
          process.emitWarning(`The submissions webhook refused the announcement with HTTP ${response.status}.`)
          return
        }
      } catch {
        if (signal.aborted) return
      }
      const delay = this.#retryDelaysMs[attempt]
      if (delay === undefined) {
        process.emitWarning(
          `The submissions webhook did not take the announcement after ${attempt + 1} tries: check SUBMISSIONS_WEBHOOK_URL.`,
        )
        return
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay)
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
      })
      if (signal.aborted) return
    }
  }
}
