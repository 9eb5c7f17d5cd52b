import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js'
import { getDomain } from 'tldts'
import { fixedBusinessImages, type FixedBusinessImage } from '../content/fixed-images.ts'
import { parseHours } from '../migrate/hours.ts'
import type { FindingKind } from './kinds.ts'

// The rules of the freshness check (issue 28) that need no network: pure functions over a
// listing, and the judgements of a fetched website (moved, parked). The job in job.ts applies them.

/** One thing a check found, with the evidence an operator reads (and a dismissal remembers). */
export interface Finding {
  kind: FindingKind
  detail: string
}

/** A listing as the check reads it (public.listings_to_check). */
export interface ListingToCheck {
  id: string
  slug: string
  name: string
  website: string | null
  phone: string | null
  hours: string | null
  verified_at: string | null
  has_image: boolean
}

/** How long a verification holds before the listing is "unverified" again. */
export const VERIFIED_FOR_DAYS = 365

/**
 * Tell whether a phone number is a valid number of the town's country (libphonenumber-js, the
 * country of the town settings); an empty phone is not checked.
 */
export function phoneFinding(phone: string | null, country: CountryCode): Finding | null {
  const text = phone?.trim()
  if (!text) return null
  const parsed = parsePhoneNumberFromString(text, country)
  if (parsed?.isValid() && parsed.country === country) return null
  return { kind: 'phone-invalid', detail: `"${text}" is not a valid ${country} phone number` }
}

/** Tell whether the hours text is one the hours parser reads, so "open now" can work. */
export function hoursFinding(hours: string | null): Finding | null {
  const text = hours?.trim()
  if (!text || parseHours(text).length > 0) return null
  return { kind: 'hours-unreadable', detail: `"${text}" cannot be read as opening hours, so "open now" is not shown` }
}

/**
 * A listing with neither a photo nor a store image, in the database or in the site's fixed
 * images (content/fixed-images.ts), which the site shows for a named store whatever the database holds.
 */
export function photoFinding(
  listing: Pick<ListingToCheck, 'has_image' | 'slug'>,
  fixed: Readonly<Record<string, FixedBusinessImage>> = fixedBusinessImages,
): Finding | null {
  if (listing.has_image || Object.hasOwn(fixed, listing.slug)) return null
  return { kind: 'no-photo', detail: 'No photo and no store image' }
}

/** A listing no operator has confirmed in the last 365 days. */
export function verifiedFinding(verifiedAt: string | null, now: Date): Finding | null {
  if (!verifiedAt) return { kind: 'unverified', detail: 'Never verified by an operator' }
  const at = new Date(verifiedAt)
  if (now.getTime() - at.getTime() <= VERIFIED_FOR_DAYS * 86_400_000) return null
  return {
    kind: 'unverified',
    detail: `Last verified on ${at.toISOString().slice(0, 10)}, over ${VERIFIED_FOR_DAYS} days ago`,
  }
}

/** The findings of a listing that need no fetch: phone (by the town's country), hours, photo, verification. */
export function listingFindings(
  listing: ListingToCheck,
  now: Date,
  country: CountryCode,
  fixed: Readonly<Record<string, FixedBusinessImage>> = fixedBusinessImages,
): Finding[] {
  return [
    phoneFinding(listing.phone, country),
    hoursFinding(listing.hours),
    photoFinding(listing, fixed),
    verifiedFinding(listing.verified_at, now),
  ].filter((finding) => finding !== null)
}

/** The registrable domain of a host ("www.shop.example.co.uk" → "example.co.uk"); an IP or a bare name is itself. */
export function registrableDomain(hostname: string): string {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  return getDomain(host, { allowPrivateDomains: true }) ?? host
}

/** Tell whether a redirect left the website's registrable domain (http → https or www. is not a move). */
export function movedAway(from: string, to: string): boolean {
  return registrableDomain(new URL(from).hostname) !== registrableDomain(new URL(to).hostname)
}

// Domain parking and for-sale services: a page on one of them, or one that loads its scripts from
// them (GoDaddy's parked pages load "parking-lander" from its image host), is a lapsed domain.
const PARKING_HOSTS = [
  'sedoparking.com',
  'bodis.com',
  'parkingcrew.net',
  'afternic.com',
  'dan.com',
  'hugedomains.com',
  'parklogic.com',
  'undeveloped.com',
  'skenzo.com',
  'parkingpage.godaddy.com',
]
const PARKING_MARKS = [...PARKING_HOSTS, 'parking-lander']
// A service named in a page as a host of its own, so "dan.com" does not match "jordan.com".
const NAMED_SERVICE = new RegExp(
  `(?<![a-z0-9-])(${PARKING_MARKS.map((mark) => mark.replaceAll('.', '\\.')).join('|')})(?![a-z0-9-])`,
)

// What parked and for-sale pages say, in their usual wording.
const PARKING_PHRASES = [
  /this domain (?:name )?(?:is|may be) for sale/,
  /\bbuy this domain\b/,
  /\bdomain parking\b/,
  /\bthis (?:web ?page|domain|site) is parked\b/,
  /\bparked (?:free|domain)\b/,
  /\bthe domain [\w.-]+ is for sale\b/,
  /\bthis domain (?:name )?has (?:recently )?been registered\b/,
  /\bthis domain is available\b/,
  /\bis available for purchase\b/,
  /\bmake an offer on this domain\b/,
  /\bdomain (?:name )?is for sale\b/,
]

/**
 * Tell whether a page is a parked or for-sale domain: its final host is a parking service, or its
 * HTML names one or says what such pages say. Returns the evidence, or null.
 */
export function parkedEvidence(finalUrl: string, html: string): string | null {
  const host = new URL(finalUrl).hostname.toLowerCase()
  const onService = PARKING_HOSTS.find((service) => host === service || host.endsWith(`.${service}`))
  if (onService) return `it lands on ${onService}, a domain parking service`
  const text = html
    .slice(0, 256 * 1024)
    .toLowerCase()
    .replace(/\s+/g, ' ')
  const named = NAMED_SERVICE.exec(text)?.[1]
  if (named) return `the page names ${named}, a domain parking service`
  const phrase = PARKING_PHRASES.map((pattern) => pattern.exec(text)?.[0]).find(Boolean)
  if (phrase) return `the page says "${phrase}"`
  return null
}
