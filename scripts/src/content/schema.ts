import { isSupportedCountry, isValidPhoneNumber, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js'
import { z } from 'zod'
import {
  endsAfterStart,
  endsAfterStartIssue,
  eventFieldsSchema,
  optionalText,
  plainText,
  rating,
  requiredText,
  updatedAtSchema,
  webAddress,
} from './schema-base.ts'
import type { Row, RowOf } from '../store/database.ts'
import { isIanaZone } from '../time/zone.ts'

export * from './schema-base.ts'

// The content an operator edits (issue 18): one set of schemas, used by the console's forms to
// show a mistake beside its field and by the API to refuse it with 400. Field names are the SQL
// column names, so a script can PATCH exactly what GET returns. The SQL constraints repeat only
// the rules that protect the site (http(s) websites, non-empty names); the messages live here.

/**
 * A phone number a visitor can dial, by the rules of the town's country (town_settings.country, an
 * ISO 3166 code; US by default, such as (501) 555-0123); blank means none.
 */
export const phoneNumber = (label: string, country = 'US') => {
  const rules = phoneCountry(country)
  return optionalText(label, 50).refine(
    (value) => value === null || (rules !== undefined && isValidPhoneNumber(value, rules)),
    country === 'US'
      ? `${label} must be a US phone number, such as (501) 555-0123`
      : `${label} must be a phone number of the town's country (${country}), dialled there or with its + code`,
  )
}

/** An email address; blank means none. */
const emailAddress = (label: string, example: string) =>
  optionalText(label, 254).refine(
    (value) => value === null || z.email().safeParse(value).success,
    `${label} must be an address such as ${example}`,
  )

/** One service of a business ("Services & Features"); the first is featured. */
export const serviceSchema = z.object({
  service_name: requiredText('Service name', 200, 'name'),
  description: optionalText('Service description', 1000).optional(),
})

/**
 * An operator's search words for a business: words or phrases the search finds it by, for what the
 * OpenStreetMap presets miss. The same limits as the column's check (public.search_words_fit).
 */
export const searchWordsSchema = z
  .array(
    z
      .string('Search words are words')
      .trim()
      .min(1, 'A search word cannot be empty')
      .max(40, 'A search word has at most 40 characters'),
  )
  .max(20, 'At most 20 search words')
  .describe('Words the search finds the business by, beyond its own: "septic", "notary"')

/** Every field of a business the site shows, as an operator sets them. */
export const businessFieldsSchema = z.object({
  name: requiredText('Name', 200, 'name'),
  category: requiredText('Category', 100),
  short_description: optionalText('Short description', 300),
  full_description: optionalText('Description', 5000),
  address: optionalText('Address', 300),
  phone: phoneNumber('Phone'),
  email: emailAddress('Email', 'owner@example.com'),
  website: webAddress('Website'),
  hours: optionalText('Hours', 99),
  is_featured: z.boolean('Featured must be true or false'),
  is_active: z.boolean('Active must be true or false'),
  rating,
  price_range: z
    .string()
    .regex(/^\$\$?\$?\$?$/, 'Price range is $ to $$$$')
    .nullable()
    .or(z.literal('').transform(() => null)),
  services: z.array(serviceSchema).max(50, 'At most 50 services'),
  search_words: searchWordsSchema,
})
export type BusinessFields = z.input<typeof businessFieldsSchema>

/** PATCH /api/businesses/{id}: any subset of the fields, and the updated_at the operator loaded. */
export const businessPatchSchema = businessFieldsSchema
  .partial()
  .extend({ updated_at: updatedAtSchema.optional() })
  .strict()

// `.required()` would re-wrap the field and answer zod's generic "expected nonoptional" for a
// missing name; putting the field's own schema back keeps its "Name is required".
/** POST /api/businesses: a new business needs a name; the rest may follow. */
export const businessCreateSchema = businessFieldsSchema
  .partial()
  .extend({ name: businessFieldsSchema.shape.name })
  .strict()

/**
 * The editors' business schemas with the phone rule of the town's country (town_settings.country):
 * the console's editor and API check a business's phone by them.
 */
export function businessSchemasFor(country: string) {
  const phone = phoneNumber('Phone', country)
  return {
    /** PATCH /api/businesses/{id}. */
    patch: businessPatchSchema.extend({ phone: phone.optional() }),
    /** POST /api/businesses. */
    create: businessCreateSchema.extend({ phone: phone.optional() }),
  }
}

/** A photo's own fields: its alt text, whether it is the primary one, its type. */
export const imagePatchSchema = z
  .object({
    alt_text: optionalText('Alt text', 300),
    is_primary: z.boolean('Primary must be true or false'),
    image_type: z.enum(
      ['hero', 'logo', 'thumbnail', 'gallery', 'interior', 'exterior', 'product'],
      'Unknown image type',
    ),
    updated_at: updatedAtSchema,
  })
  .partial()
  .strict()

/** The new order of a business's photos: every photo id, first to last. */
export const imageOrderSchema = z.object({
  image_ids: z.array(z.uuid('Photo ids are UUIDs')).min(1, 'List the photos in their new order'),
})

/** What a visitor may send (issue 27): a change to a listing, a new business, or an event. */
export const submissionKinds = ['business-update', 'new-business', 'event'] as const
export type SubmissionKind = (typeof submissionKinds)[number]

/** The longest text a visitor may put in one field (public.submit_suggestion refuses longer). */
export const submissionFieldMax = 2000

/** The most JSON a submission may carry, payload and contact together (as public.submit_suggestion counts it). */
export const submissionMaxBytes = 8 * 1024

// A visitor's fields are the editors' (same names, same rules), with long texts capped at what a
// submission holds, so the form refuses what the database would; the phone follows the town's country.
function visitorBusinessFieldsFor(country: string) {
  return businessFieldsSchema
    .pick({
      name: true,
      category: true,
      short_description: true,
      address: true,
      phone: true,
      email: true,
      website: true,
      hours: true,
      services: true,
    })
    .extend({ phone: phoneNumber('Phone', country), full_description: optionalText('Description', submissionFieldMax) })
}

/** A business-update's payload: the business by slug, the fields that change, and why. */
function businessUpdateSchemaFor(country: string) {
  return visitorBusinessFieldsFor(country)
    .partial()
    .extend({
      business: z
        .string('Say which business this is about (its slug)')
        .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Say which business this is about (its slug)')
        .max(120, 'Say which business this is about (its slug)'),
      note: optionalText('Note', submissionFieldMax).optional(),
      closed: z.literal(true, 'closed is true, or left out').optional(),
    })
    .strict()
    .refine((update) => update.closed || Object.keys(update).some((key) => key !== 'business' && key !== 'note'), {
      message: 'Change at least one field, or say that the business has closed or moved',
      path: ['closed'],
    })
}

/** A new-business payload: the business fields; a name is required, the rest may follow. */
function newBusinessSchemaFor(country: string) {
  const fields = visitorBusinessFieldsFor(country)
  return fields.partial().extend({ name: fields.shape.name }).strict()
}

/** An event payload: the console's event fields. */
export const eventSubmissionSchema = eventFieldsSchema
  .pick({ title: true, starts_at: true, ends_at: true, location: true, event_type: true })
  .extend({ description: optionalText('Description', submissionFieldMax) })
  .partial({ description: true, ends_at: true })
  .strict()
  .refine(endsAfterStart, endsAfterStartIssue)
export type EventSubmissionPayload = z.input<typeof eventSubmissionSchema>

/** Who sent it, if they say: both optional, never shown on the site, deleted 90 days after the decision. */
export const submissionContactSchema = z
  .object({
    name: optionalText('Your name', 100, 'name').optional(),
    email: emailAddress('Your email', 'you@example.com').optional(),
  })
  .strict()
export type SubmissionContact = z.input<typeof submissionContactSchema>

/**
 * A visitor's suggestion with the phone rule of the town's country (town_settings.country): each
 * kind's payload schema (the site's suggestion form checks by them) and the body of POST
 * /api/public/submissions and of the submit_suggestion rpc, {kind, payload, contact}.
 */
export function submissionSchemasFor(country: string) {
  const businessUpdate = businessUpdateSchemaFor(country)
  const newBusiness = newBusinessSchemaFor(country)
  return {
    payloads: { 'business-update': businessUpdate, 'new-business': newBusiness, event: eventSubmissionSchema },
    submission: z.discriminatedUnion(
      'kind',
      [
        z.object({
          kind: z.literal('business-update'),
          payload: businessUpdate,
          contact: submissionContactSchema.nullish(),
        }),
        z.object({
          kind: z.literal('new-business'),
          payload: newBusiness,
          contact: submissionContactSchema.nullish(),
        }),
        z.object({
          kind: z.literal('event'),
          payload: eventSubmissionSchema,
          contact: submissionContactSchema.nullish(),
        }),
      ],
      { error: `kind must be one of ${submissionKinds.join(', ')}` },
    ),
  }
}

const usSubmissionSchemas = submissionSchemasFor('US')

/** A business-update's payload, for a town in the US (others: submissionSchemasFor). */
export const businessUpdateSchema = usSubmissionSchemas.payloads['business-update']
export type BusinessUpdatePayload = z.input<typeof businessUpdateSchema>

/** A new-business payload, for a town in the US (others: submissionSchemasFor). */
export const newBusinessSchema = usSubmissionSchemas.payloads['new-business']
export type NewBusinessPayload = z.input<typeof newBusinessSchema>

/** Each kind's payload schema, for a town in the US (others: submissionSchemasFor). */
export const submissionPayloadSchemas = usSubmissionSchemas.payloads

/** The body of POST /api/public/submissions, for a town in the US (others: submissionSchemasFor). */
export const submissionSchema = usSubmissionSchemas.submission
export type Submission = z.input<typeof submissionSchema>

/** A US ZIP code: 5 digits, or ZIP+4. */
const usZip = /^\d{5}(-\d{4})?$/

/** The country's calling rules for libphonenumber-js, or undefined for a code it does not know. */
export function phoneCountry(country: string): CountryCode | undefined {
  return isSupportedCountry(country) ? country : undefined
}

/**
 * A phone number in E.164 ('+15015550123') by the rules of the town's country, dialled there or
 * with its + code; null for a number of no such length (911, 999).
 */
export function phoneE164(number: string, country: string): string | null {
  const parsed = parsePhoneNumberFromString(number, phoneCountry(country))
  return parsed?.isPossible() ? parsed.number : null
}

/** Each field of the town settings (issue 39), as an admin sets them on the console's Town screen. */
export const townFieldsSchema = z.object({
  name: requiredText('Name', 100),
  state: requiredText('State', 100),
  state_code: requiredText('State code', 10),
  zip: requiredText('ZIP', 20),
  county: requiredText('County', 100),
  tagline: requiredText('Tagline', 200),
  time_zone: requiredText('Time zone', 64).refine(
    isIanaZone,
    'Time zone must be an IANA time zone name, such as America/New_York or Europe/Berlin',
  ),
  country: z
    .string('Country must be a two-letter ISO 3166 code, such as US')
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'Country must be a two-letter ISO 3166 code, such as US'),
  latitude: z
    .number('Latitude must be a number of degrees north, such as 34.8962')
    .min(-90, 'Latitude must be from -90 to 90')
    .max(90, 'Latitude must be from -90 to 90'),
  longitude: z
    .number('Longitude must be a number of degrees east, such as -92.4957')
    .min(-180, 'Longitude must be from -180 to 180')
    .max(180, 'Longitude must be from -180 to 180'),
  coordinator_name: requiredText('Coordinator name', 200),
  coordinator_email: requiredText('Coordinator email', 254).refine(
    (value) => z.email().safeParse(value).success,
    'Coordinator email must be an address such as events@example.org',
  ),
  contact_email: emailAddress('Contact email', 'hello@example.org'),
  contact_phone: optionalText('Contact phone', 50),
})
export type TownFields = z.output<typeof townFieldsSchema>

/** The rules between fields: a ZIP and a phone number follow the town's country. */
function townCountryRules(town: Partial<TownFields>, context: z.RefinementCtx): void {
  const country = town.country ?? 'US'
  if (country === 'US' && town.zip !== undefined && !usZip.test(town.zip)) {
    context.addIssue({
      code: 'custom',
      path: ['zip'],
      message: 'ZIP must be a US ZIP code, such as 12345 or 12345-6789',
    })
  }
  if (town.contact_phone) {
    const rules = phoneCountry(country)
    if (!rules || !isValidPhoneNumber(town.contact_phone, rules)) {
      context.addIssue({
        code: 'custom',
        path: ['contact_phone'],
        message: `Contact phone must be a phone number of ${country}, such as (501) 555-0123 for US`,
      })
    }
  }
}

/** The whole town settings row, as `roland town init --file` reads it; country defaults to US, contacts are optional. */
export const townSettingsSchema = townFieldsSchema
  .extend({
    country: townFieldsSchema.shape.country.default('US'),
    contact_email: townFieldsSchema.shape.contact_email.optional().default(null),
    contact_phone: townFieldsSchema.shape.contact_phone.optional().default(null),
  })
  .strict()
  .superRefine(townCountryRules)
export type TownSettings = z.output<typeof townSettingsSchema>

/**
 * PATCH /api/town: any of the fields, and the updated_at the admin loaded. The rules between
 * fields are checked on the row the patch makes (townSettingsSchema), since a ZIP follows the
 * country the row already has.
 */
export const townPatchSchema = townFieldsSchema.partial().extend({ updated_at: updatedAtSchema.optional() }).strict()

/** The town settings a patch makes of the current ones, checked whole; the fields only, as the row holds them. */
export function patchedTown(current: TownSettings, patch: Partial<TownFields>) {
  const fields = Object.fromEntries(
    Object.keys(townFieldsSchema.shape).map((key) => [
      key,
      key in patch ? patch[key as keyof TownFields] : current[key as keyof TownSettings],
    ]),
  )
  return townSettingsSchema.safeParse(fields)
}

/** A category's description, the words under its name on its page (PATCH /api/categories/{id}). */
export const categoryPatchSchema = z
  .object({
    description: optionalText('Description', 1000),
    updated_at: updatedAtSchema.optional(),
  })
  .strict()

/** The town settings as GET /api/town answers them. */
export interface TownRow extends TownSettings {
  updated_at: Row<'town_settings'>['updated_at']
}

/** A category as GET /api/categories answers it (its columns are location_categories'). */
export type CategoryRow = RowOf<
  'location_categories',
  'id' | 'slug' | 'name' | 'description' | 'category_type' | 'sort_order' | 'updated_at'
>

/** The pages the site cannot do without: always published (the SQL constraint pages_always_published says the same). */
export const alwaysPublishedPaths = ['/', '/businesses', '/events', '/contact', '/404'] as const

/** The most Markdown a page's body may hold: 100 KB, counted in UTF-8 bytes (the SQL check says the same). */
export const pageBodyMaxBytes = 100 * 1024

/** A number a visitor can dial from a list entry: 911, 811, 1-800-222-1222 or (501) 340-6600. */
const dialableNumber = (label: string) =>
  optionalText(label, 40).refine(
    (value) => value === null || /^\+?[0-9(][0-9 ().-]*[0-9]$/.test(value),
    `${label} must be a number to dial, such as (501) 555-0123, 1-800-222-1222 or 911`,
  )

/** One entry of a list page (an emergency number, a community centre, a congregation, a nearby town). */
export const pageItemSchema = z
  .object({
    name: requiredText('Entry name', 200, 'name'),
    phone: dialableNumber('Entry phone').optional(),
    address: optionalText('Entry address', 300).optional(),
    website: optionalText('Entry website', 2000)
      .refine(
        (value) => value === null || /^\/(?!\/)/.test(value) || webAddress('Entry website').safeParse(value).success,
        'Entry website must be an http:// or https:// address, such as https://example.com, or a page of the site, such as /contact',
      )
      .optional(),
    hours: optionalText('Entry hours', 200).optional(),
    note: optionalText('Entry note', 2000).optional(),
  })
  .strict()
  // Stored without the blank fields, so a list reads as what was typed.
  .transform(
    (item) => Object.fromEntries(Object.entries(item).filter(([, value]) => value != null)) as unknown as PageItem,
  )

/** A list page's entry as stored and shown: a name, and whichever details it has. */
export interface PageItem {
  name: string
  phone?: string
  address?: string
  website?: string
  hours?: string
  note?: string
}

/** The fields of a page an operator sets. */
export const pageFieldsSchema = z.object({
  title: requiredText('Title', 200, 'name'),
  description: optionalText('Description', 300),
  intro: optionalText('Intro', 1000),
  body: plainText('Body', 'text', 'Body must be Markdown text').refine(
    (value) => new TextEncoder().encode(value).length <= pageBodyMaxBytes,
    `Body is too long: at most 100 KB (${pageBodyMaxBytes.toLocaleString('en-US')} bytes) of Markdown`,
  ),
  items: z.array(pageItemSchema, 'Items must be a list of entries, each with a name').max(200, 'At most 200 entries'),
  is_published: z.boolean('Published must be true or false'),
})

/** PATCH /api/pages/{id}: any subset of the fields, and the updated_at the operator loaded. */
export const pagePatchSchema = pageFieldsSchema.partial().extend({ updated_at: updatedAtSchema.optional() }).strict()

/** A new page (`roland town init`, the seed): its URL and its fields. */
export const pageCreateSchema = pageFieldsSchema
  .partial()
  .extend({
    path: z
      .string("Path is the page's URL, such as /community/emergency")
      .regex(
        /^\/([a-z0-9]+(-[a-z0-9]+)*(\/[a-z0-9]+(-[a-z0-9]+)*)*)?$/,
        "Path is the page's URL, such as /community/emergency: lowercase letters, digits and dashes after a /",
      ),
    title: pageFieldsSchema.shape.title,
  })
  .strict()
export type PageCreate = z.input<typeof pageCreateSchema>

// The rows the API answers are the tables' (supabase/types.ts, generated from the migrations), JSON
// columns narrowed to what they hold: a column a migration renames stops these compiling.

/** A page as GET /api/pages answers it (the pages row). */
export type PageRow = RowOf<
  'pages',
  'id' | 'path' | 'title' | 'description' | 'intro' | 'body' | 'items' | 'is_published' | 'updated_at',
  { items: PageItem[] }
>

/** A service of a business as the API answers it. */
export type ServiceRow = RowOf<'business_services', 'service_name' | 'description'>

/** A photo of a business as the API answers it (the business_images row). */
export type BusinessImageRow = RowOf<
  'business_images',
  | 'id'
  | 'business_id'
  | 'image_url'
  | 'alt_text'
  | 'image_type'
  | 'is_primary'
  | 'sort_order'
  | 'metadata'
  | 'width'
  | 'height'
  | 'updated_at',
  { metadata: Record<string, unknown> }
>

/** A business as GET /api/businesses answers it: the row, its services and photos. */
export type BusinessRow = RowOf<
  'businesses',
  | 'id'
  | 'slug'
  | 'name'
  | 'category'
  | 'short_description'
  | 'full_description'
  | 'address'
  | 'phone'
  | 'email'
  | 'website'
  | 'hours'
  | 'is_featured'
  | 'is_active'
  | 'rating'
  | 'price_range'
  | 'search_words'
  | 'metadata'
  | 'created_at'
  | 'updated_at',
  { metadata: Record<string, unknown>; services: ServiceRow[]; images: BusinessImageRow[] }
> & {
  /** What the business is, as the search reads it (its OpenStreetMap presets' names and terms): not stored, worked out for the list. */
  presets?: string[]
}
// Calendar feeds (issue 40): what the console's POST /api/feeds and `roland feeds add` accept.
/** What the console and the CLI accept as a new feed: a name and an http(s) address. */
export const newFeedSchema = z.object({
  name: z
    .string({ message: 'name: give the feed a name, such as "Library"' })
    .trim()
    .min(1, 'name: give the feed a name, such as "Library"')
    .max(100, 'name: at most 100 characters'),
  url: z
    .string({ message: "url: give the calendar's iCal address (https://…/basic.ics)" })
    .trim()
    .max(2000, 'url: at most 2,000 characters')
    .refine((value) => {
      try {
        const url = new URL(value)
        return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password
      } catch {
        return false
      }
    }, "url: give the calendar's full http(s) iCal address, such as https://calendar.google.com/…/basic.ics"),
})
export type NewFeed = z.infer<typeof newFeedSchema>
