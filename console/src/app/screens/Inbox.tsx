import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { BusinessRow } from '@roland/scripts/content/schema'
import type { SubmissionEntry, SubmissionStatus } from '@roland/scripts/content/submissions'
import { formatTownTime, toTownInput } from '@roland/scripts/content/town-time'
import { api, ApiError, errorMessage, issuesByField } from '../api.ts'
import { useBusinessIndex } from '../business-search.ts'
import { BusinessPicker, type PickerCatalog } from '../components/BusinessPicker.tsx'
import { FormFields, Field, Select, type FieldDef, type FormDraft } from '../components/forms.tsx'
import { useToast } from '../components/Toaster.tsx'
import { useLive } from '../live.tsx'
import { useTown } from '../town.tsx'
import { eventBody, eventFields as eventFormFields, type EventDraft } from './Events.tsx'
import { Badge, Button, Card } from '../components/ui.tsx'

// The Inbox (issue 27): visitors' suggestions, newest first, each shown against what it would
// change. A suggested edit is laid beside the listing as it is now, field by field; a new business
// or an event is shown as the draft it would create. Accept, edit then accept, reject with a reason,
// or mark as spam. Everything a visitor typed is rendered as text (React escapes it), never as HTML.
// "Already listed?" (issue 49): a new business that is listed already, or a suggested edit whose
// business is gone, is pointed at a listing found with the site's search; it is then reviewed and
// accepted as a suggested edit of that listing (the server writes it there, audited as every edit).

/** The public fields of a business, as a visitor may suggest them, in the order the Inbox shows them. */
const businessFields = [
  ['name', 'Name'],
  ['category', 'Category'],
  ['phone', 'Phone'],
  ['website', 'Website'],
  ['email', 'Email'],
  ['address', 'Address'],
  ['hours', 'Hours'],
  ['short_description', 'Short description'],
  ['full_description', 'Description'],
  ['services', 'Services'],
] as const

const eventFields = [
  ['title', 'Title'],
  ['starts_at', 'Starts'],
  ['ends_at', 'Ends'],
  ['location', 'Location'],
  ['event_type', 'Type'],
  ['description', 'Description'],
] as const

const kindLabels = { 'business-update': 'Suggested edit', 'new-business': 'New business', event: 'Event' } as const

/** A value as the Inbox shows it: text, a list of services, a time in the town, or "(empty)". */
function shown(field: string, value: unknown, timeZone: string): string {
  if (value === null || value === undefined || value === '') return '(empty)'
  if (field === 'services' && Array.isArray(value)) {
    return value
      .map((service: { service_name?: unknown }) =>
        typeof service.service_name === 'string' ? service.service_name : '',
      )
      .join('; ')
  }
  if ((field === 'starts_at' || field === 'ends_at') && typeof value === 'string')
    return formatTownTime(value, timeZone)
  return typeof value === 'string' ? value : JSON.stringify(value)
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

interface ComparedField {
  field: string
  label: string
  now: string
  suggested: string | null
  changes: boolean
}

// A cell, a row and the table of a comparison: a table from 640 px on; on a phone each field a
// block, its values stacked under its name, each said with what it is (Chromium and Firefox keep
// a table's semantics whatever its display).
const cellClass = 'block py-0.5 align-top break-words sm:table-cell sm:py-1 sm:pr-3'

function ComparedRows({ rows }: { rows: ComparedField[] }) {
  return (
    <table className="block w-full text-left text-sm sm:table">
      <thead className="hidden text-xs text-slate-500 sm:table-header-group">
        <tr>
          <th className="py-1 pr-3 font-medium">Field</th>
          <th className="py-1 pr-3 font-medium">Listed now</th>
          <th className="py-1 pr-3 font-medium">Suggested</th>
          <th className="py-1 font-medium">
            <span className="sr-only">Change</span>
          </th>
        </tr>
      </thead>
      <tbody className="block sm:table-row-group">
        {rows.map((row) => (
          <tr
            key={row.field}

            data-field={row.field}
            data-changes={row.changes ? 'true' : 'false'}
            className={`block border-t border-slate-100 py-2 sm:table-row sm:border-0 sm:py-0 ${row.changes ? 'bg-amber-50' : ''}`}
          >
            <th scope="row" className={`${cellClass} font-medium`}>
              {row.label}
            </th>
            <td className={cellClass}>
              <span className="text-xs text-slate-500 sm:hidden">Listed now: </span>
              {row.now}
            </td>
            <td className={cellClass}>
              <span className="text-xs text-slate-500 sm:hidden">Suggested: </span>
              {row.suggested ?? <span className="text-slate-500">(same)</span>}
            </td>
            <td className="block py-0.5 align-top sm:table-cell sm:py-1">
              {row.changes ? <Badge tone="pending">changes</Badge> : <Badge>stays</Badge>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** A suggested edit beside the listing: the fields it changes first, the ones that stay folded under them. */
function Comparison({ entry }: { entry: SubmissionEntry }) {
  const { town } = useTown()
  const target: Record<string, unknown> = entry.target ?? {}
  const closed = entry.payload.closed === true
  const rows: ComparedField[] = businessFields.map(([field, label]) => {
    const suggested = field in entry.payload
    return {
      field,
      label,
      now: shown(field, target[field], town.time_zone),
      suggested: suggested ? shown(field, entry.payload[field], town.time_zone) : null,
      changes: suggested && !same(entry.payload[field], target[field]),
    }
  })
  if (closed) {
    rows.unshift({
      field: 'is_active',
      label: 'Listed',
      now: target.is_active === false ? 'no' : 'yes',
      suggested: 'no: closed or moved',
      changes: true,
    })
  }
  const changed = rows.filter((row) => row.changes)
  const staying = rows.filter((row) => !row.changes)
  return (
    <div data-testid="comparison" className="flex flex-col gap-2">
      {changed.length ? (
        <ComparedRows rows={changed} />
      ) : (
        <p className="text-sm text-slate-600">It changes nothing the listing does not already say.</p>
      )}
      {staying.length ? (
        <details data-testid="unchanged-fields" className="text-sm">
          <summary className="cursor-pointer text-slate-600">
            {staying.length} {staying.length === 1 ? 'field stays' : 'fields stay'} as listed
          </summary>
          <div className="mt-1">
            <ComparedRows rows={staying} />
          </div>
        </details>
      ) : null}
    </div>
  )
}

/** A new business or an event, as the draft accepting it would create. */
function Draft({ entry }: { entry: SubmissionEntry }) {
  const { town } = useTown()
  const fields = entry.kind === 'event' ? eventFields : businessFields
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm" data-testid="draft">
      {fields
        .filter(([field]) => entry.payload[field] !== undefined)
        .map(([field, label]) => (
          <div key={field} className="contents" data-field={field}>
            <dt className="font-medium">{label}</dt>
            <dd className="break-words">{shown(field, entry.payload[field], town.time_zone)}</dd>
          </div>
        ))}
    </dl>
  )
}

type EditDraft = FormDraft & Record<string, string>

const businessEditFields: FieldDef<EditDraft>[] = businessFields
  .filter(([field]) => field !== 'services')
  .map(([key, label]) =>
    key === 'full_description' || key === 'short_description'
      ? { kind: 'textarea', key, id: key, label }
      : { kind: 'text', key, id: key, label },
  )

// The values accepting writes, as the form starts: the listing with the suggestion over it, or the draft.
function startingDraft(entry: SubmissionEntry, timeZone: string): EditDraft {
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  if (entry.kind === 'event') {
    return Object.fromEntries(
      eventFields.map(([field]) => {
        const value = text(entry.payload[field])
        return [field, (field === 'starts_at' || field === 'ends_at') && value ? toTownInput(value, timeZone) : value]
      }),
    )
  }
  const base: Record<string, unknown> = entry.kind === 'business-update' ? (entry.target ?? {}) : {}
  return Object.fromEntries(
    businessEditFields.map((def) => {
      const key = 'key' in def ? def.key : ''
      return [key, text(key in entry.payload ? entry.payload[key] : base[key])]
    }),
  )
}

// The body of an accept: for a change, only what differs from the listing (and the version it
// was checked against); for a new business or an event, the whole draft.
function acceptBody(
  entry: SubmissionEntry,
  draft: EditDraft | null,
  timeZone: string,
  listing: BusinessRow | null,
): Record<string, unknown> | undefined {
  if (listing) return { ...acceptBody(reviewedAs(entry, listing), draft, timeZone, null), business_id: listing.id }
  if (entry.kind === 'business-update') {
    const target: Record<string, unknown> = entry.target ?? {}
    const values: Record<string, unknown> = draft ?? { ...entry.payload }
    const body: Record<string, unknown> = {}
    for (const [field] of businessFields) {
      if (!(field in values)) continue
      const value = values[field] === '' ? null : values[field]
      if (!same(value, target[field])) body[field] = value
    }
    if (entry.payload.closed === true) body.is_active = false
    return { ...body, updated_at: target.updated_at }
  }
  if (!draft) return undefined
  if (entry.kind === 'event')
    return { ...eventBody(draft as EventDraft, timeZone), description: draft.description || null }
  const body: Record<string, unknown> = Object.fromEntries(
    Object.entries(draft).filter(([field, value]) => value !== '' || field in entry.payload),
  )
  if (Array.isArray(entry.payload.services)) body.services = entry.payload.services
  return body
}

/** A suggestion reviewed as a suggested edit of the listing the operator chose. */
function reviewedAs(entry: SubmissionEntry, listing: BusinessRow): SubmissionEntry {
  return { ...entry, kind: 'business-update', target: listing }
}

/** Words to start the picker's search with: the suggested name, else the gone listing's address as words. */
function pickerStart(entry: SubmissionEntry): string {
  if (typeof entry.payload.name === 'string' && entry.payload.name.trim()) return entry.payload.name
  return typeof entry.payload.business === 'string' ? entry.payload.business.replace(/-/g, ' ') : ''
}

function SubmissionCard({
  entry: sent,
  catalog,
  needCatalog,
  onDecided,
}: {
  entry: SubmissionEntry
  catalog: PickerCatalog | null
  /** Loads the businesses for the picker (once). */
  needCatalog: () => void
  onDecided: () => void
}) {
  const toast = useToast()
  const { town } = useTown()
  const pending = sent.status === 'pending'
  // A suggested edit whose business is gone (deleted, or replaced by a re-import) needs a listing.
  const orphan = sent.kind === 'business-update' && sent.target === null
  const pickable = pending && (sent.kind === 'new-business' || orphan)
  const [listing, setListing] = useState<BusinessRow | null>(null)
  // "Already listed?" opens the picker; a suggestion whose listing is gone always shows it.
  const [picking, setPicking] = useState(false)
  const showPicker = pickable && !listing && (picking || orphan)
  const entry = listing ? reviewedAs(sent, listing) : sent
  const [busy, setBusy] = useState(false)
  const [draft, setDraft] = useState<EditDraft | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [rejecting, setRejecting] = useState(false)
  const [reason, setReason] = useState('')
  const [reasonError, setReasonError] = useState<string | null>(null)
  const idPrefix = `submission-${entry.id.slice(0, 8)}`
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  const title =
    entry.kind === 'business-update'
      ? `Suggested edit to ${text(entry.target?.name) || text(entry.payload.business)}`
      : entry.kind === 'new-business'
        ? `New business: ${text(entry.payload.name)}`
        : `Event: ${text(entry.payload.title)}`

  async function decide(action: 'accept' | 'reject' | 'spam', body?: unknown): Promise<void> {
    setBusy(true)
    try {
      await api(`/api/submissions/${entry.id}/${action}`, { method: 'POST', body })
      toast.success(
        action === 'accept'
          ? `Accepted: ${title}`
          : action === 'reject'
            ? `Rejected: ${title}`
            : `Marked as spam: ${title}`,
      )
      onDecided()
    } catch (error) {
      if (error instanceof ApiError && error.issues.length) setErrors(issuesByField(error.issues))
      toast.error(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  useEffect(() => {
    if (showPicker) needCatalog()
  }, [showPicker, needCatalog])

  function pick(business: BusinessRow) {
    setListing(business)
    setPicking(false)
    setDraft(null)
    setErrors({})
  }

  function reject() {
    if (!reason.trim()) {
      setReasonError('Give a reason for rejecting it')
      return
    }
    void decide('reject', { reason })
  }

  return (
    <li data-submission={entry.id}>
      <Card>
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="info">{kindLabels[entry.kind]}</Badge>
          <h2 className="font-semibold break-words">{title}</h2>
          {pending ? null : <Badge tone={entry.status === 'accepted' ? 'success' : 'neutral'}>{entry.status}</Badge>}
          <span className="ml-auto text-xs text-slate-500">{formatTownTime(entry.created_at, town.time_zone)}</span>
        </div>
        <p className="mt-1 text-xs text-slate-600">
          From {entry.contact.name ?? 'someone who left no name'}
          {entry.contact.email ? ` (${entry.contact.email})` : ''}
          {entry.decided_by ? ` · decided by ${entry.decided_by}` : ''}
          {entry.decision_reason ? `: ${entry.decision_reason}` : ''}
        </p>
        {typeof entry.payload.note === 'string' && entry.payload.note ? (
          <blockquote className="mt-3 border-l-4 border-slate-200 pl-3 text-sm text-slate-700" data-testid="note">
            {entry.payload.note}
          </blockquote>
        ) : null}
        {sent.kind === 'new-business' && sent.target && !pending ? (
          <p className="mt-1 text-xs text-slate-600">Written into the listing {text(sent.target.name)}.</p>
        ) : null}
        {orphan && pending && !listing ? (
          <p className="mt-3 text-sm text-amber-800" data-testid="target-gone">
            The listing this suggestion is about is gone (deleted, or replaced since): choose the right one, or reject
            the suggestion.
          </p>
        ) : null}
        {listing ? (
          <div className="mt-3 flex flex-wrap items-center gap-2 text-sm text-slate-700" data-testid="chosen-listing">
            <span>
              {sent.kind === 'new-business' ? 'Sent as a new business' : 'Sent about a listing that is gone'}: you chose
              the listing {listing.name}, so it is reviewed as an edit of it.
            </span>
            <Button
              variant="secondary"
              className="px-3 py-1"
              disabled={busy}
              onClick={() => (setListing(null), setPicking(true))}
            >
              Choose another listing
            </Button>
          </div>
        ) : null}
        {pickable && !listing ? (
          <div className="mt-3">
            {sent.kind === 'new-business' ? (
              <Button
                variant="secondary"
                aria-expanded={picking}
                aria-controls={`${idPrefix}-picker`}
                onClick={() => setPicking(!picking)}
              >
                Already listed?
              </Button>
            ) : null}
            {showPicker ? (
              <div id={`${idPrefix}-picker`} className="mt-2">
                <BusinessPicker
                  id={`${idPrefix}-picker`}
                  catalog={catalog}
                  startQuery={pickerStart(sent)}
                  onPick={pick}
                />
              </div>
            ) : null}
          </div>
        ) : null}
        <div className="mt-3">
          {entry.kind === 'business-update' ? <Comparison entry={entry} /> : <Draft entry={entry} />}
        </div>
        {draft ? (
          <div className="mt-4 grid grid-cols-1 gap-3 md:grid-cols-2" aria-label="Edit before accepting" role="group">
            <FormFields
              prefix={idPrefix}
              fields={
                entry.kind === 'event'
                  ? (eventFormFields(town) as unknown as FieldDef<EditDraft>[])
                  : businessEditFields
              }
              draft={draft}
              setDraft={setDraft as never}
              errors={errors}
            />
          </div>
        ) : null}
        {rejecting ? (
          <div className="mt-4">
            <Field
              id={`${idPrefix}-reason`}
              label="Why it is rejected"
              value={reason}
              error={reasonError}
              onChange={(event) => (setReason(event.target.value), setReasonError(null))}
            />
          </div>
        ) : null}
        {pending ? (
          <div className="mt-4 flex flex-wrap gap-2">
            <Button
              disabled={busy || (orphan && !listing)}
              onClick={() => void decide('accept', acceptBody(sent, draft, town.time_zone, listing))}
            >
              {draft ? 'Accept as edited' : 'Accept'}
            </Button>
            {draft ? (
              <Button variant="secondary" disabled={busy} onClick={() => (setDraft(null), setErrors({}))}>
                Discard edits
              </Button>
            ) : (
              <Button
                variant="secondary"
                disabled={busy || (orphan && !listing)}
                onClick={() => setDraft(startingDraft(entry, town.time_zone))}
              >
                Edit, then accept
              </Button>
            )}
            <Button variant="secondary" disabled={busy} onClick={() => (rejecting ? reject() : setRejecting(true))}>
              {rejecting ? 'Reject with this reason' : 'Reject'}
            </Button>
            <Button variant="danger" disabled={busy} onClick={() => void decide('spam')}>
              Mark as spam
            </Button>
          </div>
        ) : null}
      </Card>
    </li>
  )
}

const statuses: SubmissionStatus[] = ['pending', 'accepted', 'rejected', 'spam']

const noBusinesses: BusinessRow[] = []

/** Visitors' suggestions, newest first, to accept, edit then accept, reject or mark as spam. */
export function Inbox() {
  const toast = useToast()
  const [status, setStatus] = useState<SubmissionStatus>('pending')
  const [entries, setEntries] = useState<SubmissionEntry[] | null>(null)
  // A new suggestion, or another operator's decision, changes the count: the list follows.
  const { pendingSubmissions } = useLive()

  const load = useCallback(
    () =>
      api<{ submissions: SubmissionEntry[] }>(`/api/submissions?status=${status}`).then(
        (answer) => setEntries(answer.submissions),
        (error: unknown) => toast.error(errorMessage(error)),
      ),
    [status, toast],
  )

  useEffect(() => {
    void load()
  }, [load, pendingSubmissions])

  // The businesses "Already listed?" searches: loaded each time a picker opens (one load at a time),
  // and again with the list once one has opened (an accepted edit changes a listing's version).
  const [businesses, setBusinesses] = useState<BusinessRow[] | null>(null)
  const wanted = useRef(false)
  const loading = useRef<Promise<void> | null>(null)
  const loadBusinesses = useCallback(() => {
    loading.current ??= api<{ businesses: BusinessRow[] }>('/api/businesses')
      .then(
        (answer) => setBusinesses(answer.businesses),
        (error: unknown) => toast.error(errorMessage(error)),
      )
      .finally(() => {
        loading.current = null
      })
    return loading.current
  }, [toast])
  const needCatalog = useCallback(() => {
    wanted.current = true
    void loadBusinesses()
  }, [loadBusinesses])
  const index = useBusinessIndex(businesses ?? noBusinesses)
  const catalog = useMemo(() => (businesses ? { businesses, index } : null), [businesses, index])
  const refresh = useCallback(() => {
    void load()
    if (wanted.current) void loadBusinesses()
  }, [load, loadBusinesses])

  let list: ReactNode
  if (entries === null) list = <p className="text-sm text-slate-500">Loading suggestions...</p>
  else if (entries.length === 0)
    list = (
      <p className="text-sm text-slate-500">
        {status === 'pending' ? 'Nothing waits for a decision.' : `No ${status} suggestions.`}
      </p>
    )
  else
    list = (
      <ol className="flex flex-col gap-4">
        {entries.map((entry) => (
          <SubmissionCard
            key={entry.id}
            entry={entry}
            catalog={catalog}
            needCatalog={needCatalog}
            onDecided={refresh}
          />
        ))}
      </ol>
    )

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Inbox</h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">
            Visitors&apos; suggestions: changes to listings, new businesses and events. Nothing reaches the site until
            you accept it; an accepted change is published with the next rebuild.
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <Select
            id="inbox-status"
            label="Show"
            options={statuses}
            value={status}
            onChange={(event) => setStatus(event.target.value as SubmissionStatus)}
          />
          <Button variant="secondary" onClick={refresh}>
            Refresh
          </Button>
        </div>
      </header>
      {list}
    </div>
  )
}
