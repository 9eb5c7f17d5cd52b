import type { Attraction, Business, CommunityEvent } from '@roland/scripts/catalog/types'
import { aboutText } from './business-text.ts'
import { coordinator, town } from './site-config.ts'

// schema.org JSON-LD for search engines (DESIGN.md, "Search engines and sharing").

type JsonLd = Record<string, unknown>

const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

const postalAddress = (street: string | null): JsonLd => ({
  '@type': 'PostalAddress',
  ...(street ? { streetAddress: street } : {}),
  addressLocality: town.name,
  addressRegion: town.stateAbbreviation,
  postalCode: town.zip,
  addressCountry: 'US',
})

/** A LocalBusiness for a business page. */
export function localBusinessJsonLd(business: Business, pageUrl: string, imageUrl: string | null): JsonLd {
  const open = business.hours_detail.filter((h) => !h.is_closed && h.opens_at && h.closes_at)
  return {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    '@id': pageUrl,
    name: business.name,
    description: aboutText(business),
    url: business.website ?? pageUrl,
    ...(business.phone ? { telephone: business.phone } : {}),
    ...(imageUrl ? { image: imageUrl } : {}),
    ...(business.price_range ? { priceRange: business.price_range } : {}),
    address: postalAddress(business.address),
    ...(open.length > 0
      ? {
          openingHoursSpecification: open.map((h) => ({
            '@type': 'OpeningHoursSpecification',
            dayOfWeek: `https://schema.org/${dayNames[h.day_of_week]}`,
            opens: h.opens_at!.slice(0, 5),
            closes: h.closes_at!.slice(0, 5),
          })),
        }
      : {}),
  }
}

/** A TouristAttraction for an attraction page. */
export function touristAttractionJsonLd(attraction: Attraction, pageUrl: string): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'TouristAttraction',
    '@id': pageUrl,
    name: attraction.name,
    description: attraction.description,
    url: attraction.website ?? pageUrl,
    ...(attraction.address ? { address: attraction.address } : {}),
  }
}

/** An Event for the events page. */
export function eventJsonLd(event: CommunityEvent, pageUrl: string): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.title,
    ...(event.description ? { description: event.description } : {}),
    startDate: event.starts_at,
    ...(event.ends_at ? { endDate: event.ends_at } : {}),
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: { '@type': 'Place', name: event.location, address: postalAddress(null) },
    organizer: { '@type': 'Person', name: coordinator.name },
    url: `${pageUrl}#${event.slug}`,
  }
}

/** Serialises JSON-LD for a <script> element: "<" is escaped so no text can close the element. */
export function jsonLdText(data: JsonLd | JsonLd[]): string {
  return JSON.stringify(data).replace(/</g, '\\u003c')
}
