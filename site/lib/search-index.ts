import type { Business } from '@roland/scripts/catalog/types'
import type { BusinessCardData } from './business-card.ts'
import { cardImage, type ShownImage } from './business-images.ts'
import { cardDescription, categoryBadgeLabel } from './business-text.ts'

// The businesses page's search index: every listed business with only what a card shows and what
// the filter reads, fetched when the visitor starts to search (never with the page itself).

/** Where the businesses page fetches its search index. */
export const searchIndexPath = '/businesses/search-index.json'

/** One business of the index; empty fields are left out rather than written as null. */
export interface SearchIndexEntry {
  slug: string
  name: string
  category: string
  short_description?: string
  full_description?: string
  address?: string
  phone?: string
  hours?: string
  is_featured?: true
  image?: ShownImage
}

const present = (text: string | null): string | undefined => (text === null || text === '' ? undefined : text)

/**
 * Makes the index entry of a business. An empty description is left out: the filter and the
 * card treat "" and null alike (neither contains a search, neither is shown).
 */
export function toSearchIndexEntry(business: Business): SearchIndexEntry {
  const image = cardImage(business)
  return {
    slug: business.slug,
    name: business.name,
    category: business.category,
    short_description: present(business.short_description),
    full_description: present(business.full_description),
    address: present(business.address),
    phone: present(business.phone),
    hours: present(business.hours),
    is_featured: business.is_featured ? true : undefined,
    image: image ?? undefined,
  }
}

/** Writes the index of the listed businesses (in list order) as the JSON the page fetches. */
export function searchIndexJson(businesses: readonly Business[]): string {
  return JSON.stringify(businesses.map(toSearchIndexEntry))
}

/** Reads the fetched index, failing with a message when it is not one (a stale or broken file). */
export function parseSearchIndex(json: unknown): SearchIndexEntry[] {
  const valid =
    Array.isArray(json) &&
    json.every(
      (entry: Partial<SearchIndexEntry> | null) =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof entry.slug === 'string' &&
        typeof entry.name === 'string' &&
        typeof entry.category === 'string',
    )
  if (!valid) throw new Error(`${searchIndexPath} is not a list of businesses: rebuild the site.`)
  return json as SearchIndexEntry[]
}

/** Makes the card of an index entry: the same card the static list shows for that business. */
export function searchIndexCard(entry: SearchIndexEntry): BusinessCardData {
  const texts = {
    name: entry.name,
    short_description: entry.short_description ?? null,
    full_description: entry.full_description ?? null,
  }
  return {
    slug: entry.slug,
    category: entry.category,
    ...texts,
    address: entry.address ?? null,
    phone: entry.phone ?? null,
    hours: entry.hours ?? null,
    is_featured: entry.is_featured === true,
    badge: categoryBadgeLabel(entry.category),
    description: cardDescription(texts),
    image: entry.image ?? null,
  }
}
