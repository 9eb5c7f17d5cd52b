import type { SubmissionKind } from './schema.ts'
import { withHoursDetail, type Actor, type ContentRow, type ContentTable, type EditOutcome } from './edit.ts'
import { z } from 'zod'
import { callParsed } from '../store/parsed-call.ts'
import type { Store } from '../store/types.ts'

// Visitors' suggestions (issue 27): thin calls of the SQL functions in
// supabase/migrations/20261126000300_submissions.sql. submit_suggestion checks and stores one;
// the Inbox lists them and decides, accepting through the same editing functions as the editors.

/** A submission's status: waiting for an operator, or decided. */
export type SubmissionStatus = 'pending' | 'accepted' | 'rejected' | 'spam'

/** A submission as the Inbox shows it: the proposal and, for a change, the business as it is now. */
export interface SubmissionEntry {
  id: string
  kind: SubmissionKind
  status: SubmissionStatus
  payload: Record<string, unknown>
  /** The business a business-update is about, as it is now (null once deleted, and for the other kinds). */
  target: ContentRow | null
  contact: { name?: string; email?: string }
  decided_by: string | null
  decided_at: string | null
  decision_reason: string | null
  applied_row_id: string | null
  created_at: string
}

/** What a decision came to: done, no such submission, or decided already by someone else. */
export type DecisionOutcome =
  | { status: 'ok'; submission: SubmissionEntry }
  | { status: 'not_found' }
  | { status: 'decided'; submission: SubmissionEntry }
  | { status: 'invalid'; message: string }

/** What accepting came to: the edit's outcome (with the submission once accepted), or decided already. */
export type AcceptOutcome =
  | (Extract<EditOutcome, { status: 'ok' }> & { submission: SubmissionEntry })
  | Exclude<EditOutcome, { status: 'ok' }>
  | { status: 'decided'; submission: SubmissionEntry }

/** The table an accepted submission of each kind writes to. */
export const submissionTable: Record<SubmissionKind, ContentTable> = {
  'business-update': 'businesses',
  'new-business': 'businesses',
  event: 'community_events',
}

/**
 * Stores a visitor's suggestion as pending and answers its id; the SQL refuses bad input with
 * SqlError PT400 and too many with PT429. `clientIp` is the sender's address, hashed there with a
 * secret salt for the rate limit and never stored.
 */
export function submitSuggestion(
  store: Store,
  submission: { kind: string; payload: unknown; contact?: unknown },
  clientIp: string,
): Promise<string> {
  return callParsed(
    store,
    'submit_suggestion',
    { kind: submission.kind, payload: submission.payload, contact: submission.contact ?? null },
    z.string(),
    { headers: { 'x-roland-client-ip': clientIp } },
  )
}

/** Lists the submissions of one status (all when null), newest first. */
export async function submissionEntries(store: Store, status: SubmissionStatus | null): Promise<SubmissionEntry[]> {
  return (await store.call<SubmissionEntry[] | null>('submission_entries', { status })) ?? []
}

/** Reads one submission, or null. */
export function submissionEntry(store: Store, id: string): Promise<SubmissionEntry | null> {
  return store.call<SubmissionEntry | null>('submission_by_id', { submission: id })
}

/** How many submissions wait for a decision. */
export function pendingSubmissionCount(store: Store): Promise<number> {
  return callParsed(store, 'pending_submission_count', {}, z.number().int())
}

/**
 * Accepts a pending submission by writing `fields` (checked with the editors' schemas) through
 * edit_row or create_row, in one transaction with the decision; the audit names the operator and
 * the submission. For a business-update, a listing changed since `expectedUpdatedAt` is a conflict.
 * `targetBusiness` (the Inbox's "Already listed?"): the listing a new business or a suggested edit
 * whose business is gone is written into, as an edit of it.
 */
export function acceptSubmission(
  store: Store,
  id: string,
  kind: SubmissionKind,
  fields: Record<string, unknown>,
  expectedUpdatedAt: string | null,
  actor: Actor,
  targetBusiness: string | null = null,
): Promise<AcceptOutcome> {
  return store.call<AcceptOutcome>('accept_submission', {
    submission: id,
    fields: withHoursDetail(targetBusiness ? 'businesses' : submissionTable[kind], fields),
    expected_updated_at: expectedUpdatedAt,
    actor,
    ...(targetBusiness ? { target_business: targetBusiness } : {}),
  })
}

/** Rejects a pending submission with a reason, or marks it as spam. */
export function decideSubmission(
  store: Store,
  id: string,
  decision: 'rejected' | 'spam',
  reason: string | null,
  actor: Actor,
): Promise<DecisionOutcome> {
  return store.call<DecisionOutcome>('decide_submission', { submission: id, decision, reason, actor })
}

/** Deletes the contact details and sender hashes of submissions decided more than 90 days ago. */
export function forgetSubmissionSenders(store: Store): Promise<number> {
  return callParsed(store, 'forget_submission_senders', {}, z.number().int())
}

/**
 * The fields accepting a submission writes, as the visitor proposed them: a change's fields (a
 * closed business becomes inactive), or a new business or event's. The operator may edit them first.
 */
export function proposedFields(kind: SubmissionKind, payload: Record<string, unknown>): Record<string, unknown> {
  if (kind !== 'business-update') return { ...payload }
  const fields = Object.fromEntries(
    Object.entries(payload).filter(([key]) => key !== 'business' && key !== 'note' && key !== 'closed'),
  )
  return payload.closed === true ? { ...fields, is_active: false } : fields
}
