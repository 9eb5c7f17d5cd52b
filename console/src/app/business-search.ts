import { useMemo } from 'react'
import type { BusinessRow } from '@roland/scripts/content/schema'
import { buildWordIndex, searchInMemory, type SearchDoc, type WordSource } from '@roland/scripts/search/matcher'

// The console's one way of searching businesses, with the site's matcher (scripts/src/search): the
// Businesses list and the Inbox's "Already listed?" picker both call it, so an operator finds
// "the plumber" or a misspelt name the way a visitor does.

/** What the shared matcher reads of a business: the site's fields, what it is, and its services. */
export const searchDoc = (business: BusinessRow): SearchDoc => ({
  name: business.name,
  what: [...(business.presets ?? []), ...(business.search_words ?? []), business.category],
  services: business.services.map((service) => service.service_name),
  descriptions: [business.short_description, business.full_description],
})

/** The matcher's index of these businesses, made again only when the list changes. */
export function useBusinessIndex(all: readonly BusinessRow[]): WordSource {
  return useMemo(() => buildWordIndex(all.map(searchDoc)), [all])
}

/**
 * The businesses a search finds, as the site's search finds them: what contains the text (name,
 * descriptions, address, phone) first, then what the business is, its services, word forms and
 * typos, ranked; `keep` leaves out what other filters do not want. An empty search finds every one.
 */
export function searchBusinesses(
  all: readonly BusinessRow[],
  index: WordSource,
  search: string,
  keep?: (business: BusinessRow) => boolean,
): BusinessRow[] {
  const docs = all.map((business) => ({
    name: business.name,
    contains: [business.name, business.short_description, business.full_description, business.address, business.phone],
    featured: business.is_featured,
  }))
  return searchInMemory(index, docs, search, keep && ((id) => keep(all[id]!))).map((id) => all[id]!)
}
