import { importEntry, type ImportFields } from '@roland/scripts/migrate/job'
import { openEmbeddedStore, type EmbeddedStore } from '@roland/scripts/store/embedded'
import { readTown } from '@roland/scripts/content/town'
import { nextStarts } from '@roland/scripts/events/recurrence'
import { makePhoto, type FixturePhoto, type ProcessedPhoto } from './photo-variants.ts'
import { gradientPng } from './png.ts'

// A small, named catalog for the site's end-to-end tests: ten active businesses across every
// business category (plus the generic 'Business' one and an inactive one), some featured,
// some with photos, one without any description, one whose photo cannot load, and two whose
// photos went through the image pipeline (derivatives in AVIF, WebP and JPEG or PNG, a ThumbHash).

type Rgb = [number, number, number]

interface FixtureImage {
  file?: { name: string; from: Rgb; to: Rgb }
  /** A processed photo: its original and its derivatives are stored, and its row records them. */
  photo?: FixturePhoto
  url?: string
  alt: string | null
  type: 'hero' | 'logo' | 'gallery'
  primary?: boolean
  metadata?: Record<string, unknown>
}

/** A business as the migration imports it (its fields of Roland.txt), and what the tests set on top. */
interface FixtureBusiness extends Omit<ImportFields, 'index' | 'hours_detail'> {
  featured?: boolean
  rating?: number
  price_range?: string
  images?: FixtureImage[]
  /** Its business_hours rows; by default Monday to Friday 7:00–17:00 for a business with an hours line. */
  hours_detail?: FixtureHours[]
  /** When an operator last verified the listing. */
  verified_at?: string
  /** Listing checks in a row that found its website unreachable (3 hide its link). */
  websiteUnreachableChecks?: number
}

type FixtureHours =
  { day_of_week: number; opens_at: string; closes_at: string } | { day_of_week: number; is_closed: true }

const weekdays = (opens: string, closes: string, days = [1, 2, 3, 4, 5]): FixtureHours[] =>
  days.map((day_of_week) => ({ day_of_week, opens_at: opens, closes_at: closes }))
const closedOn = (days: number[]): FixtureHours[] => days.map((day_of_week) => ({ day_of_week, is_closed: true }))

const png = (name: string, from: Rgb, to: Rgb) => ({ name, from, to })

/** The fixture businesses, by slug; tests name them from here rather than repeating literals. */
export const fixtureBusinesses: FixtureBusiness[] = [
  {
    slug: 'roland-coffee-house',
    name: 'Roland Coffee House',
    category: 'Dining & Refreshments',
    short_description: 'Fresh coffee, breakfast biscuits and pastries at the foot of Pinnacle Mountain.',
    full_description:
      'Roland Coffee House roasts its beans in small batches and bakes every biscuit in the morning. Hikers stop in on the way to the West Summit trail; neighbours stay for the porch.',
    address: '18000 Highway 300, Roland, AR 72135',
    phone: '(501) 555-0101',
    website: 'https://coffee.example',
    hours: 'Mon-Sat 6am-2pm',
    verified_at: '2026-10-14T15:00:00Z',
    services: ['Free Wi-Fi', 'Drive-thru', 'Catering'],
    featured: true,
    rating: 4.8,
    price_range: '$$',
    images: [
      {
        file: png('roland-coffee-house-hero.png', [120, 72, 40], [230, 200, 160]),
        alt: 'The coffee house porch',
        type: 'hero',
        primary: true,
      },
      {
        file: png('roland-coffee-house-logo.png', [40, 20, 10], [90, 50, 20]),
        alt: 'Roland Coffee House logo',
        type: 'logo',
        primary: true,
      },
      {
        file: png('roland-coffee-house-1.png', [200, 150, 90], [250, 240, 220]),
        alt: 'A latte on the counter',
        type: 'gallery',
      },
      { file: png('roland-coffee-house-2.png', [60, 90, 60], [160, 200, 140]), alt: null, type: 'gallery' },
      {
        file: png('roland-coffee-house-3.png', [90, 60, 30], [200, 170, 120]),
        alt: 'Biscuits fresh from the oven',
        type: 'gallery',
      },
      {
        file: png('roland-coffee-house-4.png', [30, 60, 90], [140, 180, 220]),
        alt: 'The fifth photo, beyond the grid of four',
        type: 'gallery',
      },
    ],
  },
  {
    slug: 'maumelle-smokehouse',
    name: 'Maumelle Smokehouse',
    category: 'Dining & Refreshments',
    short_description: 'Barbecue plates and family-size platters by the lake.',
    full_description:
      'Brisket and ribs smoked low and slow over hickory for fourteen hours, with sides made from scratch.',
    address: '22000 Highway 10, Roland, AR 72135',
    phone: '(501) 555-0102',
    website: null,
    hours: 'Thu-Sun 11am-8pm',
    services: ['Family platters', 'Takeout'],
    // A whole week: open Thursday to Sunday, closed Monday to Wednesday.
    hours_detail: [...closedOn([1, 2, 3]), ...weekdays('11:00', '20:00', [4, 5, 6, 0])],
    featured: true,
    rating: 4.6,
    price_range: '$$',
    images: [
      {
        file: png('maumelle-smokehouse-generated.png', [150, 40, 20], [240, 160, 80]),
        alt: 'A generated picture of the smokehouse',
        type: 'hero',
        metadata: { generated: true },
      },
      {
        file: png('maumelle-smokehouse-1.png', [80, 30, 10], [180, 120, 70]),
        alt: 'The smoker out back',
        type: 'gallery',
        primary: true,
      },
    ],
  },
  {
    slug: 'lakeside-sweets',
    name: 'Lakeside Sweets',
    category: 'Dining & Refreshments',
    short_description: null,
    full_description: null,
    address: '21000 Highway 10, Roland, AR 72135',
    phone: '(501) 555-0103',
    website: null,
    hours: null,
    services: [],
  },
  {
    slug: 'roland-general-store',
    name: 'Roland General Store',
    category: 'Shopping & Convenience',
    short_description: 'Groceries, fuel and hardware basics without the drive into town.',
    full_description:
      'Groceries, fuel, propane exchange and hardware basics. The deli counter makes sandwiches to go for the lake.',
    address: '17500 Highway 300, Roland, AR 72135',
    phone: '(501) 555-0104',
    website: 'https://store.example',
    websiteUnreachableChecks: 3,
    hours: 'Daily 6am-10pm',
    services: ['Fuel', 'Propane exchange', 'Deli'],
    featured: true,
    images: [
      { file: png('roland-general-store-front.png', [20, 90, 60], [150, 220, 180]), alt: null, type: 'gallery' },
    ],
  },
  {
    slug: 'pinnacle-bait-tackle',
    name: 'Pinnacle Bait & Tackle',
    category: 'Shopping & Convenience',
    short_description: 'Live bait, tackle and fishing licenses for Lake Maumelle.',
    full_description: null,
    address: '23000 Highway 10, Roland, AR 72135',
    phone: '(501) 555-0105',
    website: null,
    hours: 'Daily 5am-7pm',
    services: ['Live bait', 'Fishing licenses'],
    // An image that cannot load (nothing listens on port 9): the card must fall back to the building icon.
    images: [{ url: 'http://127.0.0.1:9/unreachable-photo.png', alt: 'The bait shop', type: 'gallery' }],
  },
  {
    slug: 'valley-hardware',
    name: 'Valley Hardware',
    category: 'Shopping & Convenience',
    short_description: 'Tools, paint, garden supplies and keys cut while you wait.',
    full_description: null,
    address: '17800 Highway 300, Roland, AR 72135',
    phone: '(501) 555-0106',
    website: null,
    hours: 'Mon-Sat 7am-6pm',
    services: ['Key cutting'],
    // Recorded in the database, but the file is not in storage: the build must leave it out.
    images: [
      { url: '/files/business-images/valley-hardware-missing.png', alt: 'A photo whose file is gone', type: 'gallery' },
    ],
  },
  {
    slug: 'roland-auto-repair',
    name: 'Roland Auto Repair',
    category: 'Professional Services',
    short_description: 'Brakes, tires, oil changes and state inspections.',
    full_description:
      'Family-owned garage with ASE-certified mechanics. Brakes, tires, diagnostics and oil changes, with a loaner car for longer jobs.',
    address: '18200 Highway 300, Roland, AR 72135',
    phone: '(501) 555-0107',
    website: 'https://auto.example',
    hours: 'Mon-Fri 7am-5pm',
    services: ['Oil changes', 'Tires', 'Diagnostics'],
    featured: true,
    rating: 4.9,
    price_range: '$$$',
    images: [
      {
        photo: {
          name: 'roland-auto-repair-shop',
          width: 1500,
          height: 1000,
          sky: [120, 170, 220],
          ground: [70, 80, 60],
        },
        alt: 'The garage doors of Roland Auto Repair',
        type: 'hero',
        primary: true,
      },
      {
        photo: {
          name: 'roland-auto-repair-logo',
          width: 200,
          height: 200,
          sky: [200, 60, 30],
          ground: [250, 250, 250],
          alpha: true,
        },
        alt: 'Roland Auto Repair logo',
        type: 'logo',
        primary: true,
      },
      {
        photo: { name: 'roland-auto-repair-bay', width: 800, height: 600, sky: [90, 90, 100], ground: [40, 40, 45] },
        alt: 'A car on the lift',
        type: 'gallery',
      },
    ],
  },
  {
    slug: 'big-maumelle-insurance',
    name: 'Big Maumelle Insurance',
    category: 'Professional Services',
    short_description: 'Home, auto and farm insurance from a neighbour.',
    full_description: null,
    address: '18400 Highway 300, Roland, AR 72135',
    phone: '(501) 555-0108',
    website: 'https://insurance.example',
    hours: 'Mon-Fri 9am-5pm',
    services: [],
    images: [
      {
        photo: {
          name: 'big-maumelle-insurance-office',
          width: 1000,
          height: 667,
          sky: [200, 190, 170],
          ground: [110, 80, 50],
        },
        alt: 'The insurance office on Highway 300',
        type: 'gallery',
      },
    ],
  },
  {
    slug: 'pinnacle-fitness',
    name: 'Pinnacle Fitness',
    category: 'Recreation',
    short_description: 'A small gym with early hours and trail-running groups.',
    full_description: null,
    address: '18600 Highway 300, Roland, AR 72135',
    phone: '(501) 555-0109',
    website: null,
    hours: 'Daily 5am-9pm',
    services: ['Group runs'],
  },
  {
    slug: 'roland-handyman',
    name: 'Roland Handyman',
    category: 'Business',
    short_description: 'Repairs, decks and odd jobs around the house.',
    full_description: null,
    // Every business needs an address: the build fails without one (site/lib/business-checks.ts).
    address: '19000 Highway 300, Roland, AR 72135',
    phone: '(501) 555-0110',
    website: null,
    hours: null,
    services: [],
  },
  {
    slug: 'closed-diner',
    name: 'Closed Diner',
    category: 'Dining & Refreshments',
    short_description: 'A diner that has closed: it must appear nowhere on the site.',
    full_description: null,
    address: '1 Gone Rd, Roland, AR 72135',
    phone: null,
    website: null,
    hours: null,
    services: [],
  },
]

/**
 * A series in the fixture (issue 40): a supper every Wednesday at 6:00 PM since January 2026, with
 * no end. Its second coming date is cancelled and its third moved to the Thursday after, 5:30 PM,
 * both counted from when the fixture is made (so from the build).
 */
export const fixtureSeries = {
  slug: 'wednesday-supper',
  title: 'Wednesday Supper',
  starts_at: '2026-01-07T18:00:00-06:00',
  ends_at: '2026-01-07T19:30:00-06:00',
  rrule: 'FREQ=WEEKLY;BYDAY=WE',
  location: 'Roland Fire Station',
}

/**
 * The alerts in the fixture (issue 48): one emergency showing (the banner on every page; the weight
 * budgets count it), and one notice that was updated and then ended, in the last 90 days (on
 * /alerts and in the feeds, never in the banner).
 */
export const fixtureAlerts = {
  showing: {
    id: 'a1e7a1e7-0000-4000-8000-000000000001',
    title: 'Boil water before drinking',
    body: 'A water main broke on **Highway 300**. Boil tap water for one minute before you drink it or cook with it.',
    level: 'emergency',
    kind: 'water',
    area: 'North of Highway 300',
  },
  ended: {
    id: 'a1e7a1e7-0000-4000-8000-000000000002',
    title: 'Pinnacle Road closed for paving',
    body: 'Use Highway 300 instead.',
    level: 'notice',
    kind: 'road',
    area: null,
    allClear: 'The road is open again.',
  },
} as const

/** The businesses a visitor sees: every fixture business but the inactive one. */
export const activeFixtureBusinesses = fixtureBusinesses.filter((b) => b.slug !== 'closed-diner')

/**
 * Creates an embedded store in dir (migrations and seed applied) and fills it with the fixture
 * catalog: businesses, their photo files in storage, ratings, featured flags, and the seeded
 * events moved to 2099 so the home page's "upcoming" list never depends on today's date.
 */
export async function buildFixtureDataDir(dir: string): Promise<void> {
  const store = await openEmbeddedStore({ dir })
  try {
    const migratedAt = new Date().toISOString()
    await store.call('import_businesses', {
      entries: fixtureBusinesses.map((b, index) =>
        importEntry(
          { ...b, index, hours_detail: b.hours_detail ?? (b.hours ? weekdays('07:00', '17:00') : []) },
          migratedAt,
        ),
      ),
    })
    const ids = new Map((await store.listBusinesses()).map((b) => [b.slug, b.id]))
    for (const business of fixtureBusinesses) {
      const id = ids.get(business.slug)!
      if (business.featured) await store.db.query('update businesses set is_featured = true where id = $1', [id])
      if (business.verified_at) {
        await store.db.query('update businesses set verified_at = $2 where id = $1', [id, business.verified_at])
      }
      if (business.websiteUnreachableChecks) {
        await store.db.query(
          `insert into listing_findings (business_id, kind, detail, seen_count)
           values ($1, 'website-unreachable', $2, $3)`,
          [id, `${business.website} refused the connection`, business.websiteUnreachableChecks],
        )
      }
      if (business.rating !== undefined || business.price_range !== undefined) {
        await store.db.query('update businesses set rating = $2, price_range = $3 where id = $1', [
          id,
          business.rating ?? null,
          business.price_range ?? null,
        ])
      }
      for (const [sortOrder, image] of (business.images ?? []).entries()) {
        let url = image.url
        if (image.file) {
          const objectPath = `business-images/${image.file.name}`
          await store.files.put(objectPath, gradientPng(48, 27, image.file.from, image.file.to), {
            contentType: 'image/png',
          })
          url = store.files.publicUrl(objectPath)
        }
        const made = image.photo ? await makePhoto(image.photo) : null
        if (image.photo && made) {
          const objectPath = `business-images/${image.photo.name}.${image.photo.alpha ? 'png' : 'jpg'}`
          await store.files.put(objectPath, made.original, {
            contentType: image.photo.alpha ? 'image/png' : 'image/jpeg',
          })
          url = store.files.publicUrl(objectPath)
        }
        const { id: imageId } = await store.addImage({
          business_id: id,
          image_url: url!,
          alt_text: image.alt,
          image_type: image.type,
          is_primary: image.primary ?? false,
          sort_order: sortOrder,
          metadata: image.metadata ?? {},
        })
        if (made) await storeDerivatives(store, imageId, made.processed)
      }
    }
    await store.db.query(`update businesses set is_active = false where slug = 'closed-diner'`)
    // A business category nobody is listed in yet, with an icon the site does not have.
    await store.db.query(
      `insert into location_categories (slug, name, description, icon_name, color, sort_order, category_type)
       values ('pet-services', 'Pet Services', 'Groomers, boarding and vets for Roland''s animals.', 'paw', '#be185d', 35, 'business')`,
    )
    await store.db.query(
      `update community_events set starts_at = starts_at + interval '73 years', ends_at = ends_at + interval '73 years'`,
    )
    await store.db.query(
      `insert into community_events (slug, title, description, starts_at, ends_at, location, event_type)
       values ('fall-cleanup-2020', 'Fall Roadside Cleanup', 'Neighbours picked up litter along Highway 300.',
               '2020-10-17 09:00 America/Chicago', '2020-10-17 12:00 America/Chicago', 'Highway 300 at Roland', 'Community')`,
    )
    const [, cancelled, moved] = nextStarts(fixtureSeries, new Date(), 3, (await readTown(store)).time_zone)
    const {
      rows: [series],
    } = await store.db.query<{ id: string }>(
      `insert into community_events (slug, title, description, starts_at, ends_at, location, event_type, rrule, exdates)
       values ($1, $2, 'A covered-dish supper for anyone who comes; bring a dish if you can.', $3, $4, $5, 'Social', $6, $7)
       returning id`,
      [
        fixtureSeries.slug,
        fixtureSeries.title,
        fixtureSeries.starts_at,
        fixtureSeries.ends_at,
        fixtureSeries.location,
        fixtureSeries.rrule,
        [cancelled],
      ],
    )
    const { showing, ended } = fixtureAlerts
    await store.db.query(
      `insert into alerts (id, title, body, level, kind, area, starts_at, status)
       values ($1, $2, $3, $4, $5, $6, now() - interval '2 hours', 'published'),
              ($7, $8, $9, $10, $11, $12, now() - interval '3 days', 'published')`,
      [
        showing.id,
        showing.title,
        showing.body,
        showing.level,
        showing.kind,
        showing.area,
        ended.id,
        ended.title,
        ended.body,
        ended.level,
        ended.kind,
        ended.area,
      ],
    )
    // An update, then the all clear: the notice's page has both notes, its CAP message references two.
    await store.db.query(`update alerts set body = body || ' Expect delays.' where id = $1`, [ended.id])
    await store.db.query(`update alerts set status = 'ended', all_clear = $2 where id = $1`, [ended.id, ended.allClear])
    // Thursday at 5:30 PM: a day later, half an hour earlier.
    const movedStart = Date.parse(moved!) + 23.5 * 3_600_000
    await store.db.query(
      `insert into community_events (slug, title, description, starts_at, ends_at, location, event_type, series_id, recurrence_id)
       values ('wednesday-supper-moved', 'Wednesday Supper (on Thursday)', null, $1, $2, $3, 'Social', $4, $5)`,
      [
        new Date(movedStart).toISOString(),
        new Date(movedStart + 90 * 60_000).toISOString(),
        fixtureSeries.location,
        series!.id,
        moved,
      ],
    )
  } finally {
    await store.close()
  }
}

/** Stores the derivatives of a fixture photo and records them, its size and ThumbHash on its row. */
export async function storeDerivatives(store: EmbeddedStore, imageId: string, processed: ProcessedPhoto) {
  const variants = []
  for (const { name: file, contents, ...variant } of processed.variants) {
    const objectPath = `business-images/${file}`
    await store.files.put(objectPath, contents, { contentType: `image/${variant.format}` })
    variants.push({ ...variant, url: store.files.publicUrl(objectPath) })
  }
  await store.db.query(
    'update business_images set width = $2, height = $3, placeholder = $4, variants = $5 where id = $1',
    [imageId, processed.width, processed.height, processed.placeholder, JSON.stringify(variants)],
  )
}
