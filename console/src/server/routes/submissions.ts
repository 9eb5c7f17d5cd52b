import { businessSchemasFor, eventCreateSchema, plainText } from '@roland/scripts/content/schema'
import {
  acceptSubmission,
  decideSubmission,
  pendingSubmissionCount,
  proposedFields,
  submissionEntries,
  submissionEntry,
  submissionTable,
  type AcceptOutcome,
  type DecisionOutcome,
  type SubmissionEntry,
} from '@roland/scripts/content/submissions'
import { slugify } from '@roland/scripts/migrate/slug'
import { readTown } from '@roland/scripts/content/town'
import { z } from 'zod'
import type { Route, RouteContext } from '../context.ts'
import { acceptTargetSchema } from '../../shared/api.ts'
import { HttpError, readJson, sendJson } from '../http.ts'
import { createWithFreeSlug, eventSlugBase, outcomeRow } from './content.ts'

// The Inbox's API (issue 27): visitors' suggestions, listed for editors and admins, and decided.
// Accepting checks the values with the editors' schemas and writes them through the editing
// functions, in one transaction with the decision, so the 409 rule and the audit hold: the audit
// entry names the operator and the submission. An accepted change queues the rebuild like any edit.

/** Each kind's values as an operator may edit them before accepting: the editors' own schemas, the phone by the town's country. */
function editedSchemas(country: string) {
  const business = businessSchemasFor(country)
  return { 'business-update': business.patch, 'new-business': business.create, event: eventCreateSchema } as const
}

const statusQuery = z.object({
  status: z
    .enum(['pending', 'accepted', 'rejected', 'spam', 'all'], 'status is pending, accepted, rejected, spam or all')
    .default('pending'),
})

const rejectSchema = z.object({
  reason: plainText('The reason', 'text', 'Give a reason for rejecting it')
    .trim()
    .min(1, 'Give a reason for rejecting it')
    .max(2000, 'The reason is too long: at most 2000 characters'),
})

async function pendingOne(context: RouteContext): Promise<SubmissionEntry> {
  const id = z.uuid().safeParse(context.params.id)
  if (!id.success) throw new HttpError(400, 'A submission id is a UUID: take it from GET /api/submissions.')
  const entry = await submissionEntry(context.services.store, id.data)
  if (!entry) throw new HttpError(404, `No submission ${id.data}: take the id from GET /api/submissions.`)
  refuseDecided(entry)
  return entry
}

function refuseDecided(entry: SubmissionEntry): void {
  if (entry.status === 'pending') return
  throw new HttpError(
    409,
    `This submission was ${entry.status === 'spam' ? 'marked as spam' : entry.status} already, by ${entry.decided_by ?? 'someone'}: reload the Inbox.`,
    { body: { submission: entry } },
  )
}

// The values to write: the operator's edited ones when the request has a body, else the visitor's;
// with the listing the operator chose (business_id), the edit of a business's schema checks them.
async function valuesToAccept(
  context: RouteContext,
  entry: SubmissionEntry,
): Promise<{ fields: Record<string, unknown>; version: string | null; target: string | null }> {
  const { country } = await readTown(context.services.store)
  const schemas = editedSchemas(country)
  const hasBody = context.req.headers['content-type'] !== undefined && context.req.headers['content-length'] !== '0'
  let values: Record<string, unknown>
  let target: string | null = null
  if (hasBody) {
    const { business_id, ...edited } = await readJson(context.req, acceptTargetSchema)
    target = business_id ?? null
    // An event with a listing is refused by accept_submission, which says why.
    values = checked(target && entry.kind !== 'event' ? schemas['business-update'] : schemas[entry.kind], edited)
  } else {
    values = checked(schemas[entry.kind], proposedFields(entry.kind, entry.payload), 'edit it, then accept')
  }
  const { updated_at, ...fields } = values
  return { fields, version: typeof updated_at === 'string' ? updated_at : null, target }
}

// The values as a schema reads them, or 400 naming each field (and, for the visitor's own values, what to do).
function checked(schema: z.ZodType, values: unknown, fix?: string): Record<string, unknown> {
  const parsed = schema.safeParse(values)
  if (parsed.success) return parsed.data as Record<string, unknown>
  const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
  const first = issues[0]?.message
  throw new HttpError(400, fix ? `${first ?? 'A value is not valid'}: ${fix}.` : (first ?? 'Invalid input'), { issues })
}

async function accept(context: RouteContext, entry: SubmissionEntry): Promise<void> {
  const { store } = context.services
  const { fields, version, target } = await valuesToAccept(context, entry)
  const table = submissionTable[entry.kind]
  const run = (values: Record<string, unknown>) =>
    acceptSubmission(store, entry.id, entry.kind, values, version, context.actor, target)
  let outcome: AcceptOutcome
  if (entry.kind === 'business-update' || target) {
    outcome = await run(fields)
  } else if (entry.kind === 'new-business') {
    outcome = await createWithFreeSlug(slugify(typeof fields.name === 'string' ? fields.name : ''), (slug) =>
      run({ ...fields, slug, metadata: { source: 'console' } }),
    )
  } else {
    const { time_zone } = await readTown(store)
    outcome = await createWithFreeSlug(
      eventSlugBase(fields as { title: string; starts_at: string }, time_zone),
      (slug) => run({ ...fields, slug }),
    )
  }
  if (outcome.status === 'decided') refuseDecided(outcome.submission)
  if (outcome.status === 'not_found' && target) {
    throw new HttpError(404, 'The listing you chose no longer exists: choose another with "Already listed?".')
  }
  if (outcome.status === 'not_found' && entry.kind === 'business-update') {
    throw new HttpError(
      404,
      'The business this suggestion is about no longer exists: choose the right listing with "Already listed?", or reject the suggestion.',
    )
  }
  const row = outcomeRow(context, table, outcome as Exclude<AcceptOutcome, { status: 'decided' }>)
  context.services.scheduler.noteEdit()
  await sendDecision(context, (outcome as { submission: SubmissionEntry }).submission, {
    [table === 'businesses' ? 'business' : 'event']: row,
  })
}

async function decide(context: RouteContext, decision: 'rejected' | 'spam', reason: string | null): Promise<void> {
  const entry = await pendingOne(context)
  const outcome: DecisionOutcome = await decideSubmission(
    context.services.store,
    entry.id,
    decision,
    reason,
    context.actor,
  )
  if (outcome.status === 'not_found') throw new HttpError(404, `No submission ${entry.id}.`)
  if (outcome.status === 'decided') return refuseDecided(outcome.submission)
  if (outcome.status === 'invalid') throw new HttpError(400, outcome.message)
  await sendDecision(context, outcome.submission)
}

// The answer to a decision, and the Inbox's new count for every open console.
async function sendDecision(
  context: RouteContext,
  submission: SubmissionEntry,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const { services } = context
  sendJson(context.res, 200, { submission, ...extra })
  services.hub.send('submissions', { pending: await pendingSubmissionCount(services.store) })
}

/** Listing and deciding visitors' submissions. */
export const submissionRoutes: Route[] = [
  {
    // ?status=pending (the default), accepted, rejected, spam or all; newest first.
    method: 'GET',
    path: /^\/api\/submissions$/,
    async handler({ res, url, services }) {
      const query = statusQuery.safeParse(Object.fromEntries(url.searchParams))
      if (!query.success) throw new HttpError(400, query.error.issues[0]?.message ?? 'Invalid query')
      const status = query.data.status === 'all' ? null : query.data.status
      const [submissions, pending] = await Promise.all([
        submissionEntries(services.store, status),
        pendingSubmissionCount(services.store),
      ])
      sendJson(res, 200, { submissions, pending })
    },
  },
  {
    // Accept: the visitor's values, or the operator's edited ones as the body (with updated_at for a change).
    method: 'POST',
    path: /^\/api\/submissions\/(?<id>[^/]+)\/accept$/,
    async handler(context) {
      const entry = await pendingOne(context)
      await accept(context, entry)
    },
  },
  {
    method: 'POST',
    path: /^\/api\/submissions\/(?<id>[^/]+)\/reject$/,
    async handler(context) {
      const { reason } = await readJson(context.req, rejectSchema)
      await decide(context, 'rejected', reason)
    },
  },
  {
    method: 'POST',
    path: /^\/api\/submissions\/(?<id>[^/]+)\/spam$/,
    async handler(context) {
      await decide(context, 'spam', null)
    },
  },
]
