import type { AuditEntry } from './edit.ts'
import { z } from 'zod'
import { ruleProblem } from '../events/recurrence.ts'
import { alertKinds, alertLevels, type AlertKind, type AlertLevel, type AlertStatus } from './alert-words.ts'

// The part of the shared content schemas (schema.ts, which re-exports all of it) that needs no
// phone rules: the text rules every field uses, events and attractions, and what the history
// shows. The console's screens that edit no phone number import from here, so they never load
// libphonenumber-js and its metadata (issue 43); console/test/bundle.test.ts holds that.

/** A business category the site knows (SPEC §3), or the default. */
export const businessCategories = [
  'Dining & Refreshments',
  'Shopping & Convenience',
  'Professional Services',
  'Recreation',
  'Business',
] as const

/** The kinds of community event the site shows. */
export const eventTypes = ['Planning', 'Social', 'Business', 'Community', 'Recreation'] as const

/** The attraction categories of the recreation pages. */
export const attractionCategories = ['Natural Attractions', 'Sports & Recreation', 'Premium Destinations'] as const

// The characters a text field takes, in one place (issue 43): everything a person types, but not
// the invisible control characters, which no page can show and Postgres refuses (NUL) or keeps
// as traps for whoever reads the text next. Tab and newline are text. A carriage return ends a
// line: a textarea sends CRLF, an old Mac file a lone CR, and both become a newline. In names and
// titles the bidirectional overrides and isolates are refused too: they make a name read on the
// page as something other than what it is (a listing called "Bank" that reads "knaB").
// Every text field of these schemas goes through plainText; the visitor's route repeats the rule
// in SQL (public.text_character_problem, 20261128000700_bad_characters.sql), where submit_suggestion checks what anon sends.

/** Control characters a text field refuses: C0 but tab (U+0009) and newline (U+000A), DEL, and C1. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const controlCharacter = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/
/** Bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), refused in names and titles. */
const bidiControl = /[\u202A-\u202E\u2066-\u2069]/

/** Line breaks as newlines: CRLF and a lone CR become LF. */
export const normalizeLineBreaks = (value: string): string => value.replace(/\r\n?/g, '\n')

/** A character as U+XXXX. */
const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

/** Whether a text is free text (a description, an address) or a name or title, which refuses bidi controls too. */
export type TextKind = 'text' | 'name'

/**
 * What is wrong with a text's characters, as a message naming the field (label) and the
 * character, or null when nothing is: a control character but tab and newline (normalise line
 * breaks first), and in a name or title a bidirectional override or isolate.
 */
export function textCharacterProblem(label: string, value: string, kind: TextKind = 'text'): string | null {
  const control = controlCharacter.exec(value)?.[0]
  if (control !== undefined) {
    return `${label} contains an invisible control character (${codePoint(control)}): remove it (only tabs and line breaks may be in a text)`
  }
  const bidi = kind === 'name' ? bidiControl.exec(value)?.[0] : undefined
  if (bidi !== undefined) {
    return `${label} contains a bidirectional control character (${codePoint(bidi)}), which makes it read differently from what it is: remove it`
  }
  return null
}

/**
 * A string as a person types it, the one rule every text field uses: line breaks as newlines, no
 * control character (textCharacterProblem), and in a name or title no bidirectional control.
 */
export const plainText = (label: string, kind: TextKind = 'text', notText = `${label} must be text`) =>
  z
    .string(notText)
    .overwrite(normalizeLineBreaks)
    .check((ctx) => {
      const problem = textCharacterProblem(label, ctx.value, kind)
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value })
    })

// Optional text: blank means none (null), so clearing a field in a form clears the column.
/** Optional text of at most max characters; blank is null. */
export const optionalText = (label: string, max: number, kind: TextKind = 'text') =>
  plainText(label, kind)
    .trim()
    .max(max, `${label} is too long: at most ${max} characters`)
    .nullable()
    .transform((value) => (value ? value : null))

/** Required text of at most max characters. */
export const requiredText = (label: string, max: number, kind: TextKind = 'text') =>
  plainText(label, kind, `${label} is required`)
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} is too long: at most ${max} characters`)

/** A web address a visitor's browser may follow: http(s) only, so `javascript:` and the like never reach a page. */
export const webAddress = (label: string) =>
  optionalText(label, 2000).refine((value) => {
    if (value === null) return true
    try {
      const url = new URL(value)
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0
    } catch {
      return false
    }
  }, `${label} must be an http:// or https:// address, such as https://example.com`)

/** A rating from 0 to 5, one decimal; blank is none. */
export const rating = z
  .number('Rating must be a number from 0 to 5')
  .min(0, 'Rating must be from 0 to 5')
  .max(5, 'Rating must be from 0 to 5')
  .multipleOf(0.1, 'Rating takes one decimal, such as 4.5')
  .nullable()

/** The version of a row the operator loaded; a save from an older one is refused with 409. */
export const updatedAtSchema = z
  .string('updated_at must be the updated_at of the row as loaded')
  .min(1)
  .max(64)
  .refine((value) => !Number.isNaN(Date.parse(value)), 'updated_at must be the updated_at of the row as loaded')

/** An ISO 8601 instant with its offset. */
export const instant = (label: string) =>
  z.iso.datetime({
    offset: true,
    message: `${label} must be an ISO 8601 date and time, such as 2027-07-04T21:00:00-05:00`,
  })

/** A community event's fields; times are ISO 8601 instants (the console sends them from the town's time zone). */
export const eventFieldsSchema = z.object({
  title: requiredText('Title', 200, 'name'),
  description: optionalText('Description', 5000),
  starts_at: instant('Start'),
  ends_at: instant('End').nullable(),
  location: requiredText('Location', 300),
  event_type: z.enum(eventTypes, `Type must be one of ${eventTypes.join(', ')}`),
  is_cancelled: z.boolean('Cancelled must be true or false'),
  /** How it repeats: an RFC 5545 RRULE value (issue 40), or null for a single event. */
  rrule: z
    .string('Repeat must be an iCalendar RRULE value, such as FREQ=MONTHLY;BYDAY=2TU')
    .trim()
    .max(500, 'Repeat must be at most 500 characters')
    .nullable()
    .superRefine((rule, context) => {
      const problem = rule === null ? null : ruleProblem(rule)
      if (problem) context.addIssue({ code: 'custom', message: problem })
    })
    .transform((rule) => (rule ? rule.toUpperCase() : null)),
  /** The starts of the occurrences of the series that are cancelled (EXDATE). */
  exdates: z.array(instant('A cancelled date')).max(1000, 'At most 1,000 cancelled dates'),
})

/** Whether an event ends no earlier than it starts (either may be missing). */
export const endsAfterStart = (event: { starts_at?: string | undefined; ends_at?: string | null | undefined }) =>
  !event.starts_at || !event.ends_at || Date.parse(event.ends_at) >= Date.parse(event.starts_at)
/** The mistake of an event that ends before it starts, on its end. */
export const endsAfterStartIssue = { message: 'The end must not be before the start', path: ['ends_at'] }

/** POST /api/events. */
export const eventCreateSchema = eventFieldsSchema
  .partial({ description: true, ends_at: true, is_cancelled: true, rrule: true, exdates: true })
  .extend({
    /** A moved or changed occurrence (an exception): its series, and the start it had there. */
    series_id: z.uuid('The series is named by its event id').optional(),
    recurrence_id: instant('The occurrence it replaces').optional(),
  })
  .strict()
  .refine((event) => !event.series_id === !event.recurrence_id, {
    message: 'An occurrence of a series names both its series and the date it replaces',
    path: ['recurrence_id'],
  })
  .refine(endsAfterStart, endsAfterStartIssue)

/** PATCH /api/events/{id}. */
export const eventPatchSchema = eventFieldsSchema
  .partial()
  .extend({ updated_at: updatedAtSchema.optional() })
  .strict()
  .refine(endsAfterStart, endsAfterStartIssue)

/** An attraction's fields (the recreation pages and /attraction/{id}). */
export const attractionFieldsSchema = z.object({
  name: requiredText('Name', 200, 'name'),
  category: z.enum(attractionCategories, `Category must be one of ${attractionCategories.join(', ')}`),
  description: requiredText('Description', 5000),
  badge: optionalText('Badge', 60),
  rating,
  distance: optionalText('Distance', 60),
  address: optionalText('Address', 300),
  website: webAddress('Website'),
  is_featured: z.boolean('Featured must be true or false'),
  is_active: z.boolean('Active must be true or false'),
  sort_order: z.number().int('Order is a whole number'),
})

/** POST /api/attractions. */
export const attractionCreateSchema = attractionFieldsSchema
  .partial()
  .required({ name: true, category: true, description: true })
  .strict()

/** PATCH /api/attractions/{id}. */
export const attractionPatchSchema = attractionFieldsSchema
  .partial()
  .extend({ updated_at: updatedAtSchema.optional() })
  .strict()

/** A community event as the API answers it. */
export interface EventRow {
  id: string
  slug: string
  title: string
  description: string | null
  starts_at: string
  ends_at: string | null
  location: string
  event_type: (typeof eventTypes)[number]
  is_active: boolean
  is_cancelled: boolean
  rrule: string | null
  exdates: string[]
  series_id: string | null
  recurrence_id: string | null
  time_zone: string | null
  all_day: boolean
  updated_at: string
}

/** An attraction as the API answers it. */
export interface AttractionRow {
  id: string
  name: string
  category: (typeof attractionCategories)[number]
  description: string
  badge: string | null
  rating: number | null
  distance: string | null
  address: string | null
  website: string | null
  image_url: string | null
  is_featured: boolean
  is_active: boolean
  sort_order: number
  updated_at: string
}

/** An entry of the audit trail, as GET /api/audit answers it: the rows of scripts/src/content/edit.ts. */
export type AuditEntryView = AuditEntry

/** The columns whose values differ between an entry's before and after (all of them for an insert or delete). */
export function changedFields(entry: Pick<AuditEntryView, 'before' | 'after'>): string[] {
  const keys = new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])
  return [...keys].filter(
    (key) =>
      key !== 'updated_at' &&
      key !== 'created_at' &&
      JSON.stringify(entry.before?.[key] ?? null) !== JSON.stringify(entry.after?.[key] ?? null),
  )
}

// Town alerts (issue 48): the levels, kinds and their words are in alert-words.ts (the site reads
// them without this module's imports); the SQL checks in
// supabase/migrations/20261201000100_alerts.sql repeat only the allowed values and sizes.
export * from './alert-words.ts'

/** The most Markdown an alert's body may hold: 10 KB, counted in UTF-8 bytes (the SQL check says the same). */
export const alertBodyMaxBytes = 10 * 1024
/** The longest alert title: it has to fit a banner on a phone (the SQL check says the same). */
export const alertTitleMax = 120

/** The fields of an alert an operator sets. */
export const alertFieldsSchema = z.object({
  title: requiredText('Title', alertTitleMax, 'name'),
  body: plainText('Text', 'text', 'Text must be Markdown text').refine(
    (value) => new TextEncoder().encode(value).length <= alertBodyMaxBytes,
    `Text is too long: at most 10 KB (${alertBodyMaxBytes.toLocaleString('en-US')} bytes) of Markdown`,
  ),
  level: z.enum(alertLevels, `Level must be one of ${alertLevels.join(', ')}`),
  kind: z.enum(alertKinds, `Kind must be one of ${alertKinds.join(', ')}`),
  area: optionalText('Area', 200),
  starts_at: instant('Start'),
  ends_at: instant('End').nullable(),
})

/** Whether an alert ends after it starts (either may be missing). */
const alertEndsAfterStart = (alert: { starts_at?: string | undefined; ends_at?: string | null | undefined }) =>
  !alert.starts_at || !alert.ends_at || Date.parse(alert.ends_at) > Date.parse(alert.starts_at)
const alertEndsAfterStartIssue = { message: 'The end time must be after the start', path: ['ends_at'] }

/** POST /api/alerts: the fields (title and level required), and whether to publish it at once. */
export const alertCreateSchema = alertFieldsSchema
  .partial()
  .required({ title: true, level: true })
  .extend({ publish: z.boolean('publish must be true or false').optional() })
  .strict()
  .refine(alertEndsAfterStart, alertEndsAfterStartIssue)
export type AlertCreate = z.input<typeof alertCreateSchema>

/** PATCH /api/alerts/{id}: any subset of the fields, and the updated_at the operator loaded. */
export const alertPatchSchema = alertFieldsSchema
  .partial()
  .extend({ updated_at: updatedAtSchema.optional() })
  .strict()
  .refine(alertEndsAfterStart, alertEndsAfterStartIssue)
export type AlertPatch = z.input<typeof alertPatchSchema>

/** POST /api/alerts/{id}/publish: optionally the updated_at the operator loaded. */
export const alertPublishSchema = z.object({ updated_at: updatedAtSchema.optional() }).strict()

/** POST /api/alerts/{id}/end: the "All clear" note (optional) and the updated_at the operator loaded. */
export const alertEndSchema = z
  .object({ message: optionalText('All clear message', 2000).optional(), updated_at: updatedAtSchema.optional() })
  .strict()

/** One message of an alert's history: what the town was told, and when (a CAP message). */
export interface AlertMessageRow {
  id: string
  sequence: number
  msg_type: 'Alert' | 'Update'
  all_clear: boolean
  note: string | null
  sent_at: string
}

/** An alert as the API answers it (the alerts row with its messages). */
export interface AlertRow {
  id: string
  title: string
  body: string
  level: AlertLevel
  kind: AlertKind
  area: string | null
  starts_at: string
  ends_at: string | null
  status: AlertStatus
  published_at: string | null
  ended_at: string | null
  all_clear: string | null
  created_at: string
  updated_at: string
  messages: AlertMessageRow[]
}
