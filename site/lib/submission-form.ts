import type { SubmissionKind } from '@roland/scripts/content/schema'
import { textToServices } from '@roland/scripts/content/services'
import { fromTownInput } from '@roland/scripts/content/town-time'
import type { SubmissionSettings } from './submission-settings.ts'

// What the visitors' suggestion forms (islands/SuggestionForm.tsx) do besides drawing fields:
// work out what a suggested edit changes, read times typed in the town's time, send the suggestion
// and read the answer. Pure, so it is tested without a browser.

/** What each form's button says. */
export const suggestionLabels: Record<SubmissionKind, string> = {
  'business-update': 'Suggest an edit',
  'new-business': 'Add a business',
  event: 'Submit an event',
}

/** The subject of the email a form gives way to (the contact page's own subjects); a suggested edit names its business. */
export function emailSubject(kind: SubmissionKind, businessName?: string): string {
  if (kind === 'business-update') return `Update for ${businessName}`
  return kind === 'event' ? 'Event submission' : 'New business'
}

/** The fields of a listing a visitor may change (issue 27), by column name, in the order the form asks for them. */
export const listingFields = [
  'name',
  'phone',
  'website',
  'address',
  'hours',
  'short_description',
  'full_description',
  'services',
] as const
export type ListingField = (typeof listingFields)[number]

/** A listing as the form shows it: every field as text (services one per line). */
export type ListingText = Record<ListingField, string>

const same = (field: ListingField, a: string, b: string) =>
  field === 'services' ? JSON.stringify(textToServices(a)) === JSON.stringify(textToServices(b)) : a.trim() === b.trim()

/**
 * The fields a suggested edit changes, by column name, with their new values: only those that
 * differ from the listing as published (a blank field clears its column: null).
 */
export function listingChanges(published: ListingText, draft: ListingText): Record<string, unknown> {
  const changes: Record<string, unknown> = {}
  for (const field of listingFields) {
    if (same(field, published[field], draft[field])) continue
    changes[field] = field === 'services' ? textToServices(draft[field]) : draft[field].trim() || null
  }
  return changes
}

/**
 * Reads a time typed in the town's wall-clock time (a datetime-local value, YYYY-MM-DDTHH:mm) as
 * an ISO 8601 instant, whatever the visitor's own time zone; '' when it is blank, and the text as
 * typed when it is no time (the schema then says what is wrong).
 */
export function townTimeToIso(local: string, timeZone: string): string {
  return fromTownInput(local, timeZone) ?? local.trim()
}

/** How a submission went: sent (with its id), refused by the server (with its message), or not sent at all. */
export type SubmissionAnswer =
  { status: 'sent'; id: string } | { status: 'refused'; message: string } | { status: 'unreachable'; message: string }

/** What a visitor sends: the kind, the payload as the database names its fields, and who they are (if they say). */
export interface SubmissionBody {
  kind: SubmissionKind
  payload: Record<string, unknown>
  contact: { name?: string | null; email?: string | null } | null
}

/**
 * POSTs a suggestion to the build's endpoint: the console's public route or Supabase's
 * submit_suggestion RPC (then with the publishable key), with the Turnstile token when there is one.
 * The console answers 201 {"id"}, PostgREST 200 and the id as a JSON string; a refusal carries
 * {"message"} (or {"error"}). Never throws: a network failure is an answer too.
 */
export async function sendSubmission(
  settings: Pick<SubmissionSettings, 'url' | 'apikey'>,
  body: SubmissionBody,
  turnstileToken?: string | null,
): Promise<SubmissionAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (settings.apikey) headers.apikey = settings.apikey
  if (turnstileToken) headers['x-turnstile-token'] = turnstileToken
  let response: Response
  try {
    response = await fetch(settings.url, { method: 'POST', headers, body: JSON.stringify(body) })
  } catch (error) {
    return { status: 'unreachable', message: (error as Error).message }
  }
  const answer: unknown = await response.json().catch(() => null)
  if (response.ok) {
    const id = typeof answer === 'string' ? answer : (answer as { id?: unknown } | null)?.id
    return { status: 'sent', id: typeof id === 'string' ? id : '' }
  }
  const said = answer as { message?: unknown; error?: unknown } | null
  const message = typeof said?.message === 'string' ? said.message : typeof said?.error === 'string' ? said.error : null
  return {
    status: 'refused',
    message: message ?? `The server answered ${response.status} ${response.statusText}`.trim(),
  }
}

/** The text of an email carrying what a visitor wrote, for when the form could not send it: one "label: value" a line. */
export function emailBody(lines: ReadonlyArray<readonly [label: string, value: string]>): string {
  return lines
    .filter(([, value]) => value.trim())
    .map(([label, value]) => `${label}: ${value.trim()}`)
    .join('\n')
}
