import { z } from 'zod'
import { callParsed } from '../store/parsed-call.ts'
import type { Store } from '../store/types.ts'

// "Notify me" (issue 48): thin calls of the SQL functions of
// supabase/migrations/20261201000200_notify.sql, which hold every rule (sizes, rate limits, the
// one confirmation a day, the retry and stop rules), on both stores alike.

/** The topics one can subscribe to: alerts at once, events as a weekly digest. */
export const notifyTopics = ['alerts', 'events'] as const
export type NotifyTopic = (typeof notifyTopics)[number]

/** The kinds of email the outbox sends. */
export type OutboxKind = 'confirm' | 'alert' | 'all-clear' | 'digest'

/** A message claimed for sending, with the tokens made for it. */
export interface ClaimedMessage {
  id: number
  kind: OutboxKind
  email: string
  topics: NotifyTopic[]
  unsubscribe_token: string
  confirm_token: string | null
  attempts: number
  /** An alert's or a digest's content; null for a confirmation. */
  content: Record<string, unknown> | null
}

/** Subscribers per topic, counts only. */
export interface SubscriberCounts {
  alerts: number
  events: number
  pending: number
  stopped: number
}

/** One alert's delivery, per kind of message (the alert, its "All clear"). */
export interface AlertDelivery {
  alert_id: string
  kind: 'alert' | 'all-clear'
  total: number
  sent: number
  failed: number
  queued: number
}

/** The outbox's state for the console: each alert's delivery, failures of the last week, what waits. */
export interface OutboxDelivery {
  alerts: AlertDelivery[]
  failed_last_week: number
  queued: number
}

/** One subscriber, as an admin finds them on request. */
export interface SubscriberRecord {
  id: string
  email: string
  status: 'pending' | 'confirmed'
  topics: NotifyTopic[]
  requested_topics: NotifyTopic[]
  created_at: string
  confirmed_at: string | null
  stopped_at: string | null
}

// The answers of the outbox's SQL functions, parsed where they enter TypeScript.
const topicsSchema = z.array(z.enum(notifyTopics))
const stamp = z.string().nullable()
const count = z.number().int()

const claimedMessageSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['confirm', 'alert', 'all-clear', 'digest']),
  email: z.string(),
  topics: topicsSchema,
  unsubscribe_token: z.string(),
  confirm_token: stamp,
  attempts: count,
  content: z.record(z.string(), z.unknown()).nullable(),
}) satisfies z.ZodType<ClaimedMessage>

const subscriberCountsSchema = z.object({
  alerts: count,
  events: count,
  pending: count,
  stopped: count,
}) satisfies z.ZodType<SubscriberCounts>

const subscriberRecordSchema = z.object({
  id: z.string(),
  email: z.string(),
  status: z.enum(['pending', 'confirmed']),
  topics: topicsSchema,
  requested_topics: topicsSchema,
  created_at: z.string(),
  confirmed_at: stamp,
  stopped_at: stamp,
}) satisfies z.ZodType<SubscriberRecord>

const outboxDeliverySchema = z.object({
  alerts: z.array(
    z.object({
      alert_id: z.string(),
      kind: z.enum(['alert', 'all-clear']),
      total: count,
      sent: count,
      failed: count,
      queued: count,
    }),
  ),
  failed_last_week: count,
  queued: count,
}) satisfies z.ZodType<OutboxDelivery>

const confirmAnswerSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('confirmed'), topics: topicsSchema }),
  z.object({ status: z.literal('unknown') }),
])

const unsubscribeAnswerSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('unsubscribed'), topics: topicsSchema }),
  z.object({ status: z.literal('unknown') }),
])

const addedBusinessSchema = z.object({ slug: z.string(), name: z.string(), category: z.string() })

/**
 * Asks for email: records the address as pending and queues one confirmation a day. Answers
 * nothing, whoever the address is; the SQL refuses bad input (SqlError PT400) and too many
 * (PT429). `clientIp` is hashed there with a secret salt for the rate limit, never stored.
 */
export async function subscribe(
  store: Store,
  email: string,
  topics: readonly string[],
  clientIp: string,
): Promise<void> {
  // subscribe returns void: nothing to read but that it did not raise.
  await callParsed(store, 'subscribe', { email, topics }, z.unknown(), { headers: { 'x-roland-client-ip': clientIp } })
}

/** Confirms the subscription whose confirmation email carried the token. */
export function confirmSubscription(
  store: Store,
  token: string,
): Promise<{ status: 'confirmed'; topics: NotifyTopic[] } | { status: 'unknown' }> {
  return callParsed(store, 'confirm_subscription', { token }, confirmAnswerSchema)
}

/** Unsubscribes the address an email's token names: from the topics given, or from everything. */
export function unsubscribe(
  store: Store,
  token: string,
  topics: readonly NotifyTopic[] | null = null,
): Promise<{ status: 'unsubscribed'; topics: NotifyTopic[] } | { status: 'unknown' }> {
  return callParsed(store, 'unsubscribe', { token, topics }, unsubscribeAnswerSchema)
}

/** Counts subscribers per topic. */
export function subscriberCounts(store: Store): Promise<SubscriberCounts> {
  return callParsed(store, 'subscriber_counts', {}, subscriberCountsSchema)
}

/** Finds one subscriber by exact address, or null. */
export function findSubscriber(store: Store, email: string): Promise<SubscriberRecord | null> {
  return callParsed(store, 'find_subscriber', { email }, subscriberRecordSchema.nullable())
}

/** Deletes one subscriber and their unsent messages; answers whether there was one. */
export function deleteSubscriber(store: Store, id: string): Promise<boolean> {
  return callParsed(store, 'delete_subscriber', { subscriber: id }, z.boolean())
}

/** Each alert's delivery and the failures of the last week. */
export function outboxDelivery(store: Store): Promise<OutboxDelivery> {
  return callParsed(store, 'outbox_delivery', {}, outboxDeliverySchema)
}

/** Claims due messages for this process, within the per-minute limit. */
export async function claimOutbox(
  store: Store,
  claimer: string,
  batch: number,
  perMinute: number,
): Promise<ClaimedMessage[]> {
  const args = { claimer, batch, per_minute: perMinute }
  return (await callParsed(store, 'claim_outbox', args, claimedMessageSchema.array().nullable())) ?? []
}

/** Records a message as sent by this process. */
export function outboxSent(store: Store, id: number, claimer: string): Promise<boolean> {
  return callParsed(store, 'outbox_sent', { message: id, claimer }, z.boolean())
}

/** Records an SMTP refusal: failed for good (5xx) or to retry (4xx, or no answer). */
export function outboxFailed(
  store: Store,
  id: number,
  claimer: string,
  permanent: boolean,
  error: string,
): Promise<'failed' | 'retry' | 'not-claimed'> {
  return callParsed(
    store,
    'outbox_failed',
    { message: id, claimer, permanent, error },
    z.enum(['failed', 'retry', 'not-claimed']),
  )
}

/** The processes (host:pid) that hold claimed messages. */
export async function outboxClaimers(store: Store): Promise<string[]> {
  return (await callParsed(store, 'outbox_claimers', {}, z.array(z.string()).nullable())) ?? []
}

/** Puts back the messages claimed by processes that are gone. */
export function releaseOutboxClaims(store: Store, claimers: readonly string[]): Promise<number> {
  return callParsed(store, 'release_outbox_claims', { claimers }, count)
}

/** Queues a week's digest for every events subscriber, once a week; answers how many were queued. */
export function queueDigest(store: Store, week: string, content: Record<string, unknown>): Promise<number> {
  return callParsed(store, 'queue_digest', { week, content }, count)
}

/** The businesses listed since an instant, for the digest. */
export async function businessesAddedSince(
  store: Store,
  since: string,
): Promise<Array<{ slug: string; name: string; category: string }>> {
  return (await callParsed(store, 'businesses_added_since', { since }, addedBusinessSchema.array().nullable())) ?? []
}
