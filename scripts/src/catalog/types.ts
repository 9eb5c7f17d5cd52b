import { z } from 'zod'
import { alertKinds, alertLevels } from '../content/alert-words.ts'

// Row shapes follow supabase/migrations/*_catalog.sql; zod checks them where they cross
// a boundary (a store's answer), so a schema drift fails loudly instead of rendering blanks.

const id = z.guid()
const text = z.string().nullable()
const metadata = z.record(z.string(), z.unknown())
// numeric columns arrive as numbers from PostgREST and json_agg, as strings from some drivers.
const decimal = z.coerce.number().nullable()

export const imageTypes = ['hero', 'logo', 'thumbnail', 'gallery', 'interior', 'exterior', 'product'] as const
export const categoryTypes = ['business', 'recreation', 'community', 'about'] as const
/** The business categories of SPEC §3; anything else is shown as a generic local business. */
export const businessCategories = [
  'Dining & Refreshments',
  'Shopping & Convenience',
  'Professional Services',
  'Recreation',
] as const
/** The category a migrated business gets when none can be guessed. */
export const defaultBusinessCategory = 'Business'

// A business's services and opening hours arrive in the catalog without their rows' ids: the site
// shows them as part of their business, and ten rows a business of ids made a quarter of what every
// build reads, digests and stores. (zod leaves out the columns a schema does not name.)
export const businessServiceSchema = z.object({
  service_name: z.string().describe('What the business offers, e.g. "Free Wi-Fi"'),
  description: text,
  is_featured: z.boolean(),
  sort_order: z.number().int(),
})

/** The formats a photo's derivatives come in (PNG replaces JPEG for a picture with transparency). */
export const imageVariantFormats = ['avif', 'webp', 'jpeg', 'png'] as const

export const imageVariantSchema = z.object({
  format: z.enum(imageVariantFormats),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  url: z.string().min(1),
  bytes: z.number().int().nonnegative(),
})

export const businessImageSchema = z.object({
  id,
  business_id: id,
  image_url: z.string().min(1),
  alt_text: text,
  image_type: z.enum(imageTypes),
  is_primary: z.boolean(),
  sort_order: z.number().int(),
  metadata: metadata.default({}),
  width: z.number().int().positive().nullable().default(null).describe('Intrinsic width, after orientation'),
  height: z.number().int().positive().nullable().default(null),
  placeholder: text.default(null).describe('ThumbHash (base64) shown until the image loads'),
  variants: z.array(imageVariantSchema).default([]).describe('Responsive derivatives made at ingest'),
})

export const businessHoursSchema = z.object({
  day_of_week: z.number().int().min(0).max(6).describe('0 is Sunday'),
  opens_at: text.describe('HH:MM:SS in the town time zone'),
  closes_at: text,
  is_closed: z.boolean(),
})

// A business arrives without its operators' bookkeeping (its row id, migration metadata, created
// and updated times): no page shows them, and at 10,000 businesses they were a sixth of what every
// build reads, stores in Astro's content store and bundles.
export const businessSchema = z.object({
  slug: z.string().min(1),
  name: z.string().min(1),
  category: z.string().min(1),
  short_description: text,
  full_description: text,
  address: text,
  phone: text,
  website: text,
  hours: text,
  is_featured: z.boolean(),
  is_active: z.boolean(),
  rating: decimal,
  price_range: text,
  verified_at: text
    .default(null)
    .describe('When an operator last confirmed the listing is current: the page says "Listing checked {Month YYYY}"'),
  website_hidden: z
    .boolean()
    .default(false)
    .describe('Unreachable at 3 freshness checks in a row: the site shows no link to it (parseCatalog drops it)'),
  services: z.array(businessServiceSchema).default([]),
  images: z.array(businessImageSchema).default([]),
  hours_detail: z.array(businessHoursSchema).default([]),
})

export const locationCategorySchema = z.object({
  id,
  slug: z.string().min(1),
  name: z.string().min(1),
  description: text,
  icon_name: z.string(),
  color: z.string(),
  sort_order: z.number().int(),
  category_type: z.enum(categoryTypes),
})

export const attractionSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  category: z.string().min(1),
  description: z.string(),
  badge: text,
  rating: decimal,
  distance: text,
  image_url: text,
  address: text,
  website: text,
  is_featured: z.boolean(),
  sort_order: z.number().int(),
})

export const communityEventSchema = z.object({
  id,
  slug: z.string().min(1),
  title: z.string().min(1),
  description: text,
  starts_at: z.string(),
  ends_at: text,
  location: z.string(),
  event_type: z.string(),
  /** Called off by the coordinator: still listed, marked cancelled (optional: older fixtures lack it). */
  is_cancelled: z.boolean().optional(),
  // A series (issue 40); optional, as older fixtures and stores lack them.
  rrule: text.optional(),
  exdates: z.array(z.string()).nullish(),
  series_id: text.optional(),
  recurrence_id: text.optional(),
  time_zone: text.optional(),
  all_day: z.boolean().optional(),
  /** The calendar feed it comes from (issue 40): the site says "From {feed_name}". */
  feed_name: text.optional(),
})

/** One entry of a list page: an emergency number, a community centre, a congregation, a nearby town. */
export const pageItemSchema = z.object({
  name: z.string().min(1),
  phone: z.string().optional(),
  address: z.string().optional(),
  website: z.string().optional(),
  hours: z.string().optional(),
  note: z.string().optional(),
})

/** The words of one page of the site (a published pages row): the layout is the code's. */
export const pageSchema = z.object({
  path: z.string().min(1).describe("The page's URL, such as /community/emergency"),
  title: z.string().min(1),
  description: text,
  intro: text,
  body: z.string().describe('Markdown, rendered by scripts/src/content/markdown.ts'),
  items: z.array(pageItemSchema),
})

// The town settings row (issue 39), as the build reads it: the value rules are the console's and
// `roland town init`'s (scripts/src/content/schema.ts); here only the shape is checked.
export const townSchema = z.object({
  name: z.string().min(1),
  state: z.string(),
  state_code: z.string(),
  zip: z.string(),
  county: z.string(),
  tagline: z.string(),
  time_zone: z.string().min(1).describe('IANA zone: opening hours and event times are read in it'),
  country: z.string().describe('ISO 3166-1 alpha-2: phone numbers follow its rules'),
  latitude: z.coerce.number(),
  longitude: z.coerce.number(),
  coordinator_name: z.string(),
  coordinator_email: z.string(),
  contact_email: text,
  contact_phone: text,
})

/** One message of a published alert's history (CAP's Alert, then each Update, the last maybe the all clear). */
export const alertMessageSchema = z.object({
  id: z.string().min(1).describe("The message's CAP identifier"),
  sequence: z.number().int(),
  msg_type: z.enum(['Alert', 'Update']),
  all_clear: z.boolean(),
  note: text,
  sent_at: z.string().min(1),
})

/** A published or ended town alert (issue 48), with what the town was told and when. */
export const alertSchema = z.object({
  id: z.string().min(1),
  title: z.string().min(1),
  body: z.string().describe('Markdown, rendered by scripts/src/content/markdown.ts'),
  level: z.enum(alertLevels),
  kind: z.enum(alertKinds),
  area: text,
  starts_at: z.string().min(1),
  ends_at: text,
  status: z.enum(['published', 'ended']),
  published_at: z.string().min(1),
  ended_at: text,
  all_clear: text,
  updated_at: z.string().min(1),
  messages: z.array(alertMessageSchema),
})

export const catalogSchema = z.object({
  town: townSchema,
  businesses: z.array(businessSchema),
  categories: z.array(locationCategorySchema),
  attractions: z.array(attractionSchema),
  events: z.array(communityEventSchema),
  /** The published pages' words (older stores and fixtures have none: every page shows its defaults). */
  pages: z.array(pageSchema).default([]),
  /** The published and ended alerts, newest first (older stores and fixtures have none). */
  alerts: z.array(alertSchema).default([]),
})

export type BusinessService = z.infer<typeof businessServiceSchema>
export type BusinessImage = z.infer<typeof businessImageSchema>
export type ImageVariant = z.infer<typeof imageVariantSchema>
export type ImageVariantFormat = (typeof imageVariantFormats)[number]
export type BusinessHours = z.infer<typeof businessHoursSchema>
export type Business = z.infer<typeof businessSchema>
export type LocationCategory = z.infer<typeof locationCategorySchema>
export type Attraction = z.infer<typeof attractionSchema>
export type CommunityEvent = z.infer<typeof communityEventSchema>
/** The town the site is about: its name, place, time zone and contacts (the town_settings row). */
export type Town = z.infer<typeof townSchema>
export type Page = z.infer<typeof pageSchema>
/** A published or ended alert as the site reads it. */
export type Alert = z.infer<typeof alertSchema>
export type AlertMessage = z.infer<typeof alertMessageSchema>
export type PageItem = z.infer<typeof pageItemSchema>
/** Everything a visitor may see, read once per build. */
export type Catalog = z.infer<typeof catalogSchema>
export type ImageType = (typeof imageTypes)[number]
export type CategoryType = (typeof categoryTypes)[number]

/** Parses a store's answer into a Catalog, turning zod issues into one readable error. */
export function parseCatalog(raw: unknown, source: string): Catalog {
  if (raw && typeof raw === 'object' && (raw as { town?: unknown }).town == null) {
    throw new Error(
      `${source} has no town settings (the town_settings row): start the town with ` +
        '`pnpm roland town init --file town.json` (see README, "Run it for another town").',
    )
  }
  const parsed = catalogSchema.safeParse(raw)
  if (parsed.success) {
    // A website that has been unreachable for three checks loses its link everywhere the site shows one.
    for (const business of parsed.data.businesses) if (business.website_hidden) business.website = null
    return parsed.data
  }
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `  - ${issue.path.join('.')}: ${issue.message}`)
    .join('\n')
  throw new Error(
    `The catalog read from ${source} does not have the expected shape:\n${issues}\n` +
      'Apply the migrations in supabase/migrations to that database (see README, "Deploy").',
  )
}
