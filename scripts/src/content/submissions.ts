import { submissionKinds, type SubmissionKind } from './schema.ts'
import { contentRowSchema, editRefusalSchemas, withHoursDetail, type Actor, type ContentTable } from './edit.ts'
import { z } from 'zod'
import { callParsed } from '../store/parsed-call.ts'
import type { Store } from '../store/types.ts'

// Visitors' suggestions (issue 27): thin calls of the SQL functions in
// supabase/migrations/20261126000300_submissions.sql. submit_suggestion checks and stores one;
// the Inbox lists them and decides, accepting through the same editing functions as the editors.

/** A submission's status: waiting for an operator, or decided. */
export type SubmissionStatus = 'pending' | 'accepted' | 'rejected' | 'spam'

/** A submission as public.submission_entry answers it (kept as it comes: the Inbox shows it). */
const submissionEntrySchema = z.looseObject({
  id: z.string(),
  kind: z.enum(submissionKinds),
  status: z.enum(['pending', 'accepted', 'rejected', 'spam']),
  payload: z.record(z.string(), z.unknown()),
  /** The business a business-update is about, as it is now (null once deleted, and for the other kinds). */
  target: contentRowSchema.nullable(),
  contact: z.looseObject({ name: z.string().optional(), email: z.string().optional() }),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  decision_reason: z.string().nullable(),
  applied_row_id: z.string().nullable(),
  created_at: z.string(),
})

/** A submission as the Inbox shows it: the proposal and, for a change, the business as it is now. */
export type SubmissionEntry = z.output<typeof submissionEntrySchema>

/** What decide_submission answers. */
const decisionOutcomeSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal('ok'), submission: submissionEntrySchema }),
  z.looseObject({ status: z.literal('not_found') }),
  z.looseObject({ status: z.literal('decided'), submission: submissionEntrySchema }),
  z.looseObject({ status: z.literal('invalid'), message: z.string() }),
])

/** What a decision came to: done, no such submission, or decided already by someone else. */
export type DecisionOutcome = z.output<typeof decisionOutcomeSchema>

/** What accept_submission answers: the edit's outcome (with the submission once accepted), or decided already. */
const acceptOutcomeSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal('ok'), row: contentRowSchema, submission: submissionEntrySchema }),
  ...editRefusalSchemas,
  z.looseObject({ status: z.literal('decided'), submission: submissionEntrySchema }),
])

/** What accepting came to: the edit's outcome (with the submission once accepted), or decided already. */
export type AcceptOutcome = z.output<typeof acceptOutcomeSchema>

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
  return (await callParsed(store, 'submission_entries', { status }, submissionEntrySchema.array().nullable())) ?? []
}

/** Reads one submission, or null. */
export function submissionEntry(store: Store, id: string): Promise<SubmissionEntry | null> {
  return callParsed(store, 'submission_by_id', { submission: id }, submissionEntrySchema.nullable())
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
  return callParsed(
    store,
    'accept_submission',
    {
      submission: id,
      fields: withHoursDetail(targetBusiness ? 'businesses' : submissionTable[kind], fields),
      expected_updated_at: expectedUpdatedAt,
      actor,
      ...(targetBusiness ? { target_business: targetBusiness } : {}),
    },
    acceptOutcomeSchema,
  )
}

/** Rejects a pending submission with a reason, or marks it as spam. */
export function decideSubmission(
  store: Store,
  id: string,
  decision: 'rejected' | 'spam',
  reason: string | null,
  actor: Actor,
): Promise<DecisionOutcome> {
  return callParsed(store, 'decide_submission', { submission: id, decision, reason, actor }, decisionOutcomeSchema)
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
