import type { Attraction, Business, BusinessHours, CommunityEvent, Town } from '@roland/scripts/catalog/types'
import { escapeRegExp } from '@roland/scripts/text/index'
import { aboutText } from './business-text.ts'
import { dayNames } from './hours.ts'

// schema.org JSON-LD for search engines (DESIGN.md, "Search engines and sharing").

type JsonLd = Record<string, unknown>

// "…, Boulder, CO 80302": the street part, the town, the state (its code, or the town's state
// spelt out) and an optional ZIP.
function townStateZip(town: Town): RegExp {
  const state = escapeRegExp(town.state)
  return new RegExp(`^(.+?),\\s*([^,\\d][^,]*?),\\s*([A-Z]{2}|${state})\\.?(?:\\s+(\\d{5}(?:-\\d{4})?))?$`)
}

/**
 * A PostalAddress for an address as people write it. The town, state and ZIP are read from the
 * end of the address when it names them ("1500 Main Street, Golden, CO 80401"), else they are
 * the town's.
 */
export function postalAddress(address: string | null, town: Town): JsonLd {
  const parts = address?.trim().match(townStateZip(town))
  const sameTown = !parts || parts[2]!.toLowerCase() === town.name.toLowerCase()
  return {
    '@type': 'PostalAddress',
    ...(address?.trim() ? { streetAddress: parts ? parts[1]! : address.trim() } : {}),
    addressLocality: parts ? parts[2]! : town.name,
    addressRegion: parts && parts[3] !== town.state ? parts[3]! : town.state_code,
    ...(parts?.[4] ? { postalCode: parts[4] } : sameTown ? { postalCode: town.zip } : {}),
    addressCountry: town.country,
  }
}

/**
 * The schema.org type of a business, from its category: a Store, a ProfessionalService, a
 * SportsActivityLocation, and for dining the kind of place its name and short description say
 * (café, bakery, ice-cream shop, bar, else a restaurant); LocalBusiness otherwise.
 */
export function businessType(business: Pick<Business, 'category' | 'name' | 'short_description'>): string {
  switch (business.category) {
    case 'Dining & Refreshments': {
      const text = `${business.name} ${business.short_description ?? ''}`
      if (/\b(coffee|caf[eé]|espresso)\b/i.test(text)) return 'CafeOrCoffeeShop'
      if (/\b(bakery|bakeshop|donuts?|doughnuts?)\b/i.test(text)) return 'Bakery'
      if (/\b(ice cream|gelato|frozen yogurt|scoops)\b/i.test(text)) return 'IceCreamShop'
      if (/\b(bar|pub|tavern|brewery|saloon)\b/i.test(text)) return 'BarOrPub'
      return 'Restaurant'
    }
    case 'Shopping & Convenience':
      return 'Store'
    case 'Professional Services':
      return 'ProfessionalService'
    case 'Recreation':
      return 'SportsActivityLocation'
    default:
      return 'LocalBusiness'
  }
}

/**
 * The opening hours as schema.org OpeningHoursSpecification, days with the same hours together.
 * A closed day opens and closes at 00:00 and a 24-hour day closes at 23:59, as search engines
 * read them; days without any row are left out.
 */
export function openingHoursJsonLd(detail: readonly BusinessHours[]): JsonLd[] {
  const byHours = new Map<string, number[]>()
  for (const h of [...detail].sort((a, b) => a.day_of_week - b.day_of_week)) {
    const open = !h.is_closed && h.opens_at && h.closes_at
    if (!open && !h.is_closed) continue
    const opens = open ? h.opens_at!.slice(0, 5) : '00:00'
    const closes = !open
      ? '00:00'
      : opens === '00:00' && h.closes_at!.slice(0, 5) === '00:00'
        ? '23:59'
        : h.closes_at!.slice(0, 5)
    const key = `${opens}-${closes}`
    const days = byHours.get(key) ?? byHours.set(key, []).get(key)!
    if (!days.includes(h.day_of_week)) days.push(h.day_of_week)
  }
  return [...byHours].map(([key, days]) => {
    const [opens, closes] = key.split('-')
    return {
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: days.map((d) => `https://schema.org/${dayNames[d]}`),
      opens,
      closes,
    }
  })
}

/** A LocalBusiness (or the fitting subtype) for a business page. */
export function localBusinessJsonLd(business: Business, pageUrl: string, imageUrl: string | null, town: Town): JsonLd {
  const hours = openingHoursJsonLd(business.hours_detail)
  return {
    '@context': 'https://schema.org',
    '@type': businessType(business),
    '@id': pageUrl,
    name: business.name,
    description: aboutText(business, town),
    url: business.website ?? pageUrl,
    ...(business.phone ? { telephone: business.phone } : {}),
    ...(imageUrl ? { image: imageUrl } : {}),
    ...(business.price_range ? { priceRange: business.price_range } : {}),
    address: postalAddress(business.address, town),
    ...(hours.length > 0 ? { openingHoursSpecification: hours } : {}),
    // When an operator last confirmed the listing (the page's "Listing checked"); absent when never.
    ...(business.verified_at ? { dateModified: business.verified_at.slice(0, 10) } : {}),
  }
}

/**
 * An ItemList for a page of a category: the places it lists, in the order it lists them. A page
 * after the first numbers its places on from the pages before it (`firstPosition`), so the
 * positions run through the whole category; numberOfItems counts this page's places.
 */
export function itemListJsonLd(
  name: string,
  pageUrl: string,
  items: ReadonlyArray<{ name: string; url: string }>,
  firstPosition = 1,
): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    '@id': pageUrl,
    name,
    numberOfItems: items.length,
    itemListElement: items.map((item, index) => ({
      '@type': 'ListItem',
      position: firstPosition + index,
      name: item.name,
      url: item.url,
    })),
  }
}

/** A TouristAttraction for an attraction page. */
export function touristAttractionJsonLd(
  attraction: Attraction,
  pageUrl: string,
  town: Town,
  imageUrl: string | null = null,
): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'TouristAttraction',
    '@id': pageUrl,
    name: attraction.name,
    description: attraction.description,
    url: attraction.website ?? pageUrl,
    ...(imageUrl ? { image: imageUrl } : {}),
    ...(attraction.address ? { address: postalAddress(attraction.address, town) } : {}),
  }
}

/** An Event for the events page. */
export function eventJsonLd(event: CommunityEvent & { anchor?: string }, pageUrl: string, town: Town): JsonLd {
  const anchor = event.anchor ?? event.slug
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    '@id': `${pageUrl}#${anchor}`,
    name: event.title,
    ...(event.description ? { description: event.description } : {}),
    startDate: event.starts_at,
    ...(event.ends_at ? { endDate: event.ends_at } : {}),
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: { '@type': 'Place', name: event.location, address: postalAddress(null, town) },
    organizer: { '@type': 'Person', name: town.coordinator_name },
    url: `${pageUrl}#${anchor}`,
  }
}

/** Serialises JSON-LD for a <script> element: "<" is escaped so no text can close the element. */
export function jsonLdText(data: JsonLd | JsonLd[]): string {
  return JSON.stringify(data).replace(/</g, '\\u003c')
}
