import { submissionEntries } from '@roland/scripts/content/submissions'
import { readTown } from '@roland/scripts/content/town'
import type { ConsoleServices } from './context.ts'
import { inboxUrl } from './public-submissions.ts'
import { noticeOf, webhookBody } from './submission-webhook.ts'

// On Supabase the site's forms call the submit_suggestion rpc directly, so new suggestions do not
// pass through the console. While it runs with SUBMISSIONS_WEBHOOK_URL set, the console looks at
// the pending ones every so often and announces those it has not seen, and tells open consoles
// the new count. (On the embedded store every suggestion comes through the console's own route,
// which announces it at once.)

/** Watches the pending submissions of a Supabase project and announces new ones. */
export class SubmissionWatch {
  readonly #services: ConsoleServices
  readonly #timer: NodeJS.Timeout
  #seen: Set<string> | null = null
  #looking: Promise<void> = Promise.resolve()

  /** intervalMs: how often to look (default a minute). The first look only learns what is there. */
  constructor(services: ConsoleServices, intervalMs = 60_000) {
    this.#services = services
    this.#timer = setInterval(() => void this.look(), intervalMs)
    this.#timer.unref()
    void this.look()
  }

  /** Looks once, after any look under way: announces the pending submissions not seen before. */
  look(): Promise<void> {
    this.#looking = this.#looking.then(async () => {
      const { store, submissionWebhook, hub } = this.#services
      try {
        const pending = await submissionEntries(store, 'pending')
        const seen = this.#seen
        this.#seen = new Set(pending.map((entry) => entry.id))
        if (!seen) return
        const fresh = pending.filter((entry) => !seen.has(entry.id))
        if (fresh.length === 0 && seen.size === pending.length) return
        hub.send('submissions', { pending: pending.length })
        const townName = fresh.length ? (await readTown(this.#services.store)).name : ''
        for (const entry of fresh.reverse())
          submissionWebhook?.send(webhookBody(noticeOf(entry), inboxUrl(this.#services), townName))
      } catch (error) {
        process.emitWarning(`Could not look for new suggestions: ${(error as Error).message}`)
      }
    })
    return this.#looking
  }

  /** Stops looking. */
  close(): void {
    clearInterval(this.#timer)
  }
}
