import { hostname } from 'node:os'
import nodemailer from 'nodemailer'
import { readTown } from '../content/town.ts'
import { isProcessAlive } from '../lock-file.ts'
import type { Store } from '../store/types.ts'
import { withApiBase, type MailConfig } from './config.ts'
import { renderEmail, type EmailContext } from './message.ts'
import {
  claimOutbox,
  outboxClaimers,
  outboxFailed,
  outboxSent,
  releaseOutboxClaims,
  type ClaimedMessage,
} from './outbox.ts'

// Sending the outbox (issue 48): claim a batch (the SQL marks it sending, for this process), send
// each message over one pooled SMTP transport, and record each one the moment the server accepts
// it. A process killed mid-batch leaves its claims behind; the next sender on the machine sees
// that their process is gone and puts them back, so every message goes out, and none recorded as
// sent goes out again. The per-minute limit (MAIL_RATE) is counted in SQL across every sender.

/** What one run of the sender did. */
export interface SendSummary {
  sent: number
  /** Refused for now (4xx, or no answer): queued again with backoff. */
  retried: number
  /** Refused for good (5xx), or retried for a day. */
  failed: number
  /** Claims of processes that had died, put back in the queue first. */
  released: number
  /** Failures, with the SMTP server's words (the address is not named). */
  errors: Array<{ id: number; kind: string; error: string }>
}

/** A way of sending one email: nodemailer's pooled SMTP transport, shared by the batches of a run. */
export interface Mailer {
  send(email: ReturnType<typeof renderEmail>, messageId: string): Promise<void>
  close(): void
}

/** Connections kept open to the SMTP server. */
const poolSize = 4

/** Opens a pooled SMTP transport for the configured server (STARTTLS on 587, TLS for smtps://). */
export function smtpMailer(config: MailConfig, townName: string): Mailer {
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    pool: true,
    maxConnections: poolSize,
    maxMessages: 500,
  })
  const from = { name: townName, address: config.from }
  return {
    async send(email, messageId) {
      await transport.sendMail({ from, ...email, messageId })
    },
    close: () => transport.close(),
  }
}

/** This process, as the outbox names who claimed a message. */
export function claimerName(): string {
  return `${hostname()}:${process.pid}`
}

/** Puts back the claims of this machine's processes that are gone; answers how many. */
export async function releaseDeadClaims(store: Store): Promise<number> {
  const host = hostname()
  const dead = (await outboxClaimers(store)).filter((claimer) => {
    const at = claimer.lastIndexOf(':')
    if (claimer.slice(0, at) !== host) return false
    const pid = Number(claimer.slice(at + 1))
    return pid !== process.pid && !isProcessAlive(pid)
  })
  return dead.length ? releaseOutboxClaims(store, dead) : 0
}

/** An SMTP reply code of a failure, when the server answered one. */
function replyCode(error: unknown): number | null {
  const code = (error as { responseCode?: unknown } | null)?.responseCode
  return typeof code === 'number' ? code : null
}

/** Options of one run of the sender. */
export interface SendOptions {
  store: Store
  config: MailConfig
  /** The transport (default: SMTP_URL, pooled). */
  mailer?: Mailer
  /** Messages claimed at a time (default 50). */
  batch?: number
  /** Stop after this many batches (default: until nothing is due). */
  maxBatches?: number
  /** Stops between messages (the console closing). */
  signal?: AbortSignal
  /** Told of each message once it is recorded. */
  onMessage?: (message: ClaimedMessage, outcome: 'sent' | 'retry' | 'failed') => void
}

/** Sends every due message of the outbox, within MAIL_RATE; answers what it did. */
export async function sendOutbox(options: SendOptions): Promise<SendSummary> {
  const { store } = options
  const config = withApiBase(options.config)
  const summary: SendSummary = { sent: 0, retried: 0, failed: 0, released: 0, errors: [] }
  summary.released = await releaseDeadClaims(store)
  const town = await readTown(store)
  const context: EmailContext = {
    townName: town.name,
    timeZone: town.time_zone,
    siteUrl: config.siteUrl,
    apiBase: config.apiBase,
  }
  const claimer = claimerName()
  const mailer = options.mailer ?? smtpMailer(config, town.name)
  const siteHost = new URL(config.siteUrl).hostname
  try {
    for (let round = 0; round < (options.maxBatches ?? Infinity); round++) {
      if (options.signal?.aborted) break
      const messages = await claimOutbox(store, claimer, options.batch ?? 50, config.perMinute)
      if (messages.length === 0) break
      let next = 0
      const worker = async () => {
        while (next < messages.length) {
          const message = messages[next++]!
          const outcome = await deliver(message)
          options.onMessage?.(message, outcome)
        }
      }
      const deliver = async (message: ClaimedMessage): Promise<'sent' | 'retry' | 'failed'> => {
        try {
          await mailer.send(renderEmail(message, context), `<outbox-${message.id}@${siteHost}>`)
        } catch (error) {
          const code = replyCode(error)
          const words = `${code ?? 'no answer'}: ${(error as Error).message}`.slice(0, 500)
          const result = await outboxFailed(store, message.id, claimer, code !== null && code >= 500, words)
          if (result === 'failed') {
            summary.failed++
            summary.errors.push({ id: message.id, kind: message.kind, error: words })
            return 'failed'
          }
          summary.retried++
          return 'retry'
        }
        await outboxSent(store, message.id, claimer)
        summary.sent++
        return 'sent'
      }
      await Promise.all(Array.from({ length: Math.min(poolSize, messages.length) }, worker))
    }
  } finally {
    // A run that stopped on an error gives back what it still held, for the next run.
    await releaseOutboxClaims(store, [claimer]).catch(() => 0)
    if (!options.mailer) mailer.close()
  }
  return summary
}
