import { useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent, type ReactNode } from 'react'
import { Turnstile } from '@marsidev/react-turnstile'
import {
  businessCategories,
  eventTypes,
  submissionContactSchema,
  submissionSchemasFor,
  type SubmissionKind,
} from '@roland/scripts/content/schema'
import { servicesToText, textToServices } from '@roland/scripts/content/services'
import { mailtoUrl } from '../lib/links.ts'
import {
  emailBody,
  emailSubject,
  listingChanges,
  listingFields,
  sendSubmission,
  suggestionLabels,
  townTimeToIso,
  type ListingText,
  type SubmissionAnswer,
} from '../lib/submission-form.ts'
import { submissions } from '../lib/submissions.ts'

interface Props {
  kind: SubmissionKind
  /**
   * The town the form is for (the town settings): its name, time zone, country (ISO 3166: a phone
   * follows its rules), and the coordinator's email.
   */
  town: { name: string; timeZone: string; country: string; coordinatorEmail: string }
  /** The business a suggested edit is about: its slug (its page holds the rest). */
  business?: string
  /** The page's own HTML, kept as it is: the email link, all a visitor without JavaScript gets. */
  children?: ReactNode
}

/** One field of a form, named as the database names its column. */
interface FieldDef {
  key: string
  label: string
  type?: 'text' | 'tel' | 'url' | 'email' | 'datetime-local'
  rows?: number
  options?: readonly string[]
  hint?: string
  required?: boolean
  autoComplete?: string
}

const hoursHint = 'As visitors read it, e.g. Mon-Fri 8am-5pm, Sat 9am-1pm'
const servicesHint = 'One per line; add a description after a colon: Boarding: overnight stays'

/** The fields of a business, as the console's business editor has them (featured, active and the like are the editors' own). */
const businessFields = (isNew: boolean): FieldDef[] => [
  { key: 'name', label: 'Name', required: true },
  ...(isNew ? [{ key: 'category', label: 'Category', options: businessCategories }] : []),
  { key: 'phone', label: 'Phone', type: 'tel' as const },
  ...(isNew ? [{ key: 'email', label: 'Email', type: 'email' as const }] : []),
  { key: 'website', label: 'Website', type: 'url' as const, hint: 'Its address, such as https://example.com' },
  { key: 'address', label: 'Address' },
  { key: 'hours', label: 'Hours', hint: hoursHint },
  { key: 'short_description', label: 'Short description', rows: 2 },
  { key: 'full_description', label: 'Description', rows: 5 },
  { key: 'services', label: 'Services', rows: 4, hint: servicesHint },
]

/** Each kind's fields; an event's times are typed in the town's time. */
const formFields = (kind: SubmissionKind, townName: string): FieldDef[] =>
  kind === 'event'
    ? [
        { key: 'title', label: 'Title', required: true },
        { key: 'event_type', label: 'Type', options: eventTypes },
        { key: 'starts_at', label: `Starts (${townName} time)`, type: 'datetime-local', required: true },
        { key: 'ends_at', label: `Ends (${townName} time)`, type: 'datetime-local' },
        { key: 'location', label: 'Location', required: true },
        { key: 'description', label: 'Description', rows: 4 },
      ]
    : businessFields(kind === 'new-business')

const contactFields: FieldDef[] = [
  { key: 'contact_name', label: 'Your name (optional)', autoComplete: 'name' },
  {
    key: 'contact_email',
    label: 'Your email (optional)',
    type: 'email',
    autoComplete: 'email',
    hint: 'Only if the editors may write to you about it. Never shown on the site.',
  },
]

/** A suggested edit's note: what changed, and why. */
const noteField: FieldDef = { key: 'note', label: 'What changed, and how do you know?', rows: 3 }

/** The shortest time a person takes to fill a form; a faster submission is a robot's, quietly dropped. */
const minimumFillMs = 3000

const inputClass = 'w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base focus:border-forest-600'

/** Reads the listing as its page shows it (the marks of pages/business/[slug].astro), so the HTML need not carry it twice. */
function publishedListing(): ListingText {
  const marked = (field: string) => document.querySelector<HTMLElement>(`[data-listing="${field}"]`)
  const text = (field: string) => marked(field)?.textContent?.trim() ?? ''
  const about = document.querySelector<HTMLElement>('[data-listing-about]')
  const aboutField = about?.dataset.listingAbout
  const aboutText = about?.textContent?.trim() ?? ''
  // The page's description is the short description, else the full one: it says the short one
  // only when it differs from the full one the page shows.
  const summary = document.querySelector<HTMLMetaElement>('meta[name="description"]')?.content.trim() ?? ''
  const services = [...document.querySelectorAll('[data-listing="services"] > li')].map((item) => ({
    service_name: item.querySelector('span > span:first-child')?.textContent?.trim() ?? '',
    description: item.querySelector('span > span + span')?.textContent?.trim() || null,
  }))
  return {
    name: text('name'),
    phone: text('phone'),
    website: marked('website')?.getAttribute('href') ?? '',
    address: text('address'),
    hours: text('hours'),
    short_description:
      aboutField === 'short_description' ? aboutText : aboutField && summary !== aboutText ? summary : '',
    full_description: aboutField === 'full_description' ? aboutText : '',
    services: servicesToText(services),
  }
}

const emptyListing = (): ListingText => Object.fromEntries(listingFields.map((field) => [field, ''])) as ListingText

const noSubscription = () => () => {}

/**
 * A visitor's suggestion (issue 27): "Suggest an edit" on a business page, "Add a business",
 * "Submit an event". Rendered at build time as a <details> whose summary is the button and whose
 * content is the page's email link, so it works without JavaScript; the island hydrates when the
 * visitor first opens it (client:open) and puts the form above that link. The form checks what
 * the visitor wrote with the schemas the console's editors use, shows each mistake beside its
 * field, sends it to the build's endpoint and says what happens next.
 */
export default function SuggestionForm({ kind, town, business, children }: Props) {
  // False in the build's render and while hydrating, true from then on: the form exists only in a browser.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )
  const summaryId = useId()
  return (
    // The island hydrates because the visitor opened it, so the <details> carries an `open` its
    // render does not (see MobileMenu.tsx).
    <details className="group" data-suggestion={kind} suppressHydrationWarning>
      <summary id={summaryId} className="btn-secondary cursor-pointer">
        {suggestionLabels[kind]}
      </summary>
      {hydrated && <Form kind={kind} town={town} business={business} labelledBy={summaryId} />}
      {children}
    </details>
  )
}

/** Whether a form opened at `openedAt` (ms) is sent sooner than a person fills it in. */
const sentTooSoon = (openedAt: number) => Date.now() - openedAt < minimumFillMs

function Form({
  kind,
  town,
  business,
  labelledBy,
}: {
  kind: SubmissionKind
  town: Props['town']
  business?: string | undefined
  labelledBy: string
}) {
  const settings = submissions
  const [published] = useState(() => (kind === 'business-update' ? publishedListing() : emptyListing()))
  const [draft, setDraft] = useState<Record<string, string>>(() => ({ ...published }))
  const [closed, setClosed] = useState(false)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [answer, setAnswer] = useState<SubmissionAnswer | { status: 'sending' | 'waiting' } | null>(null)
  const [token, setToken] = useState<string | null>(null)
  const [focusRequest, setFocusRequest] = useState(0)
  const form = useRef<HTMLFormElement>(null)
  const confirmation = useRef<HTMLDivElement>(null)
  const openedAt = useRef(0)
  const honeypot = useRef<HTMLInputElement>(null)

  useEffect(() => {
    openedAt.current = Date.now()
  }, [])
  useEffect(() => {
    if (focusRequest) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [focusRequest])
  useEffect(() => {
    if (answer?.status === 'sent') confirmation.current?.focus()
  }, [answer])

  const fields = formFields(kind, town.name)
  const id = (key: string) => `${kind}-${key}`
  const set = (key: string, value: string) => setDraft((current) => ({ ...current, [key]: value }))
  const value = (key: string) => draft[key] ?? ''

  function payloadOf(): Record<string, unknown> {
    if (kind === 'business-update') {
      const note = value('note').trim()
      return {
        business,
        ...listingChanges(published, draft as ListingText),
        ...(note ? { note } : {}),
        ...(closed ? { closed: true } : {}),
      }
    }
    const payload: Record<string, unknown> = {}
    for (const { key, required } of fields) {
      const text = value(key).trim()
      // A required field left blank is sent blank, so its schema says "… is required" beside it.
      if (!text && !required) continue
      payload[key] =
        key === 'services' ? textToServices(text) : key.endsWith('_at') ? townTimeToIso(text, town.timeZone) : text
    }
    return payload
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    // A filled honeypot or a form sent within seconds of opening is a robot's: it gets the same
    // confirmation as a person, and nothing is sent.
    if (honeypot.current?.value || sentTooSoon(openedAt.current)) {
      setAnswer({ status: 'sent', id: '' })
      return
    }
    const payload = submissionSchemasFor(town.country).payloads[kind].safeParse(payloadOf())
    const contact = submissionContactSchema.safeParse({
      name: value('contact_name'),
      email: value('contact_email'),
    })
    const mistakes: Record<string, string> = {}
    for (const issue of payload.error?.issues ?? []) mistakes[String(issue.path[0] ?? '')] ??= issue.message
    for (const issue of contact.error?.issues ?? []) mistakes[`contact_${String(issue.path[0])}`] ??= issue.message
    setErrors(mistakes)
    if (!payload.success || !contact.success) {
      // A mistake of no one field (there should be none) is said above the button.
      const general = Object.entries(mistakes).find(([key]) => !document.getElementById(id(key)))
      setAnswer(general ? { status: 'refused', message: general[1] } : null)
      setFocusRequest((n) => n + 1)
      return
    }
    if (settings?.turnstileSiteKey && !token) {
      setAnswer({ status: 'waiting' })
      return
    }
    setAnswer({ status: 'sending' })
    const { name, email } = contact.data
    setAnswer(
      await sendSubmission(
        settings!,
        {
          kind,
          payload: payload.data,
          contact: name || email ? { name: name ?? null, email: email ?? null } : null,
        },
        token,
      ),
    )
  }

  if (answer?.status === 'sent') {
    return (
      <div ref={confirmation} tabIndex={-1} role="status" className="card mt-4 p-6" data-suggestion-sent="">
        <p className="text-lg font-bold text-stone-900">Thank you: your suggestion was sent.</p>
        <p className="mt-2 text-stone-700">
          A volunteer who keeps this site reviews every suggestion. Once it is accepted, it appears on the site at its
          next update.
        </p>
      </div>
    )
  }

  const labelled = [...fields, ...contactFields].map((field) => [field.label, value(field.key)] as const)
  const byEmail = mailtoUrl(town.coordinatorEmail, emailSubject(kind, published.name), emailBody(labelled))

  /** A field of the form: its label, its control (a list, a text area or an input), its hint and its mistake. */
  const renderField = (field: FieldDef) => (
    <Field key={field.key} id={id(field.key)} field={field} error={errors[field.key]}>
      {(props) =>
        field.options ? (
          <select {...props} value={value(field.key)} onChange={(e) => set(field.key, e.target.value)}>
            <option value="">Choose…</option>
            {field.options.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        ) : field.rows ? (
          <textarea
            {...props}
            rows={field.rows}
            value={value(field.key)}
            onChange={(e) => set(field.key, e.target.value)}
          />
        ) : (
          <input
            {...props}
            type={field.type ?? 'text'}
            value={value(field.key)}
            onChange={(e) => set(field.key, e.target.value)}
          />
        )
      }
    </Field>
  )

  return (
    <form
      ref={form}
      noValidate
      aria-labelledby={labelledBy}
      className="card mt-4 grid gap-4 p-6"
      onSubmit={(event) => void submit(event)}
    >
      <p className="text-sm text-stone-700">
        {kind === 'business-update'
          ? 'Change what is wrong or missing; the editors see what you changed.'
          : 'An editor reads it before it goes on the site.'}
      </p>
      {fields.map(renderField)}
      {kind === 'business-update' && (
        <>
          <div>
            <label className="flex items-center gap-2 font-semibold text-stone-800">
              <input
                id={id('closed')}
                type="checkbox"
                className="size-4"
                checked={closed}
                onChange={(e) => setClosed(e.target.checked)}
                aria-invalid={errors.closed ? true : undefined}
                aria-describedby={errors.closed ? `${id('closed')}-error` : undefined}
              />
              This business has closed or moved
            </label>
            {errors.closed && <Mistake id={`${id('closed')}-error`} text={errors.closed} />}
          </div>
          {renderField(noteField)}
        </>
      )}
      {contactFields.map(renderField)}
      {/* A field only robots fill: out of sight, out of the tab order, hidden from screen readers. */}
      <div aria-hidden="true" className="sr-only">
        <label htmlFor={id('fax')}>Leave this empty</label>
        <input ref={honeypot} id={id('fax')} name="fax" type="text" tabIndex={-1} autoComplete="off" />
      </div>
      {settings?.turnstileSiteKey && (
        <Turnstile siteKey={settings.turnstileSiteKey} onSuccess={setToken} onExpire={() => setToken(null)} />
      )}
      {answer && answer.status !== 'sending' && (
        <div role="alert" className="rounded-lg bg-red-100 p-4 text-red-800">
          {answer.status === 'waiting' && <p>Wait a moment: the check that you are a person has not finished yet.</p>}
          {answer.status === 'refused' && <p>Your suggestion was not sent: {answer.message}</p>}
          {answer.status === 'unreachable' && (
            <p>
              Your suggestion was not sent: the site could not reach its server. Try again in a moment, or{' '}
              <a href={byEmail} className="link">
                send it by email
              </a>{' '}
              to our community coordinator.
            </p>
          )}
        </div>
      )}
      <p>
        <button type="submit" className="btn-primary" disabled={answer?.status === 'sending'}>
          {answer?.status === 'sending' ? 'Sending…' : 'Send suggestion'}
        </button>
      </p>
    </form>
  )
}

/** The attributes a field's control takes: its id, its state, and the hint and mistake it is described by. */
interface ControlProps {
  id: string
  className: string
  required?: boolean
  autoComplete?: string
  'aria-invalid'?: true
  'aria-describedby'?: string
}

/** A labelled field with its hint and, when what was typed is wrong, its mistake, both tied to the control. */
function Field({
  id,
  field,
  error,
  children,
}: {
  id: string
  field: FieldDef
  error?: string | undefined
  children: (props: ControlProps) => ReactNode
}) {
  const describedBy = [field.hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ')
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold text-stone-700">
        {field.label}
      </label>
      {children({
        id,
        className: inputClass,
        ...(field.required ? { required: true } : {}),
        ...(field.autoComplete ? { autoComplete: field.autoComplete } : {}),
        ...(error ? { 'aria-invalid': true as const } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {field.hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-stone-600">
          {field.hint}
        </p>
      )}
      {error && <Mistake id={`${id}-error`} text={error} />}
    </div>
  )
}

function Mistake({ id, text }: { id: string; text: string }) {
  return (
    <p id={id} className="mt-1 text-sm font-semibold text-red-800">
      {text}
    </p>
  )
}
