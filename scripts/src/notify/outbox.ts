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
  await store.call('subscribe', { email, topics }, { headers: { 'x-roland-client-ip': clientIp } })
}

/** Confirms the subscription whose confirmation email carried the token. */
export function confirmSubscription(
  store: Store,
  token: string,
): Promise<{ status: 'confirmed'; topics: NotifyTopic[] } | { status: 'unknown' }> {
  return store.call('confirm_subscription', { token })
}

/** Unsubscribes the address an email's token names: from the topics given, or from everything. */
export function unsubscribe(
  store: Store,
  token: string,
  topics: readonly NotifyTopic[] | null = null,
): Promise<{ status: 'unsubscribed'; topics: NotifyTopic[] } | { status: 'unknown' }> {
  return store.call('unsubscribe', { token, topics })
}

/** Counts subscribers per topic. */
export function subscriberCounts(store: Store): Promise<SubscriberCounts> {
  return store.call<SubscriberCounts>('subscriber_counts', {})
}

/** Finds one subscriber by exact address, or null. */
export function findSubscriber(store: Store, email: string): Promise<SubscriberRecord | null> {
  return store.call<SubscriberRecord | null>('find_subscriber', { email })
}

/** Deletes one subscriber and their unsent messages; answers whether there was one. */
export function deleteSubscriber(store: Store, id: string): Promise<boolean> {
  return store.call<boolean>('delete_subscriber', { subscriber: id })
}

/** Each alert's delivery and the failures of the last week. */
export function outboxDelivery(store: Store): Promise<OutboxDelivery> {
  return store.call<OutboxDelivery>('outbox_delivery', {})
}

/** Claims due messages for this process, within the per-minute limit. */
export async function claimOutbox(
  store: Store,
  claimer: string,
  batch: number,
  perMinute: number,
): Promise<ClaimedMessage[]> {
  return (await store.call<ClaimedMessage[] | null>('claim_outbox', { claimer, batch, per_minute: perMinute })) ?? []
}

/** Records a message as sent by this process. */
export function outboxSent(store: Store, id: number, claimer: string): Promise<boolean> {
  return store.call<boolean>('outbox_sent', { message: id, claimer })
}

/** Records an SMTP refusal: failed for good (5xx) or to retry (4xx, or no answer). */
export function outboxFailed(
  store: Store,
  id: number,
  claimer: string,
  permanent: boolean,
  error: string,
): Promise<'failed' | 'retry' | 'not-claimed'> {
  return store.call('outbox_failed', { message: id, claimer, permanent, error })
}

/** The processes (host:pid) that hold claimed messages. */
export async function outboxClaimers(store: Store): Promise<string[]> {
  return (await store.call<string[] | null>('outbox_claimers', {})) ?? []
}

/** Puts back the messages claimed by processes that are gone. */
export function releaseOutboxClaims(store: Store, claimers: readonly string[]): Promise<number> {
  return store.call<number>('release_outbox_claims', { claimers })
}

/** Queues a week's digest for every events subscriber, once a week; answers how many were queued. */
export function queueDigest(store: Store, week: string, content: Record<string, unknown>): Promise<number> {
  return store.call<number>('queue_digest', { week, content })
}

/** The businesses listed since an instant, for the digest. */
export async function businessesAddedSince(
  store: Store,
  since: string,
): Promise<Array<{ slug: string; name: string; category: string }>> {
  return (await store.call('businesses_added_since', { since })) ?? []
}
