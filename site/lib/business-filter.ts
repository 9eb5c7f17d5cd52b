import { matchesSearch } from '@roland/scripts/catalog/queries'
import type { Business } from '@roland/scripts/catalog/types'

/** The businesses page's filters; an empty category means "All". */
export interface BusinessFilters {
  q: string
  category: string
}

/** No search, every category. */
export const noFilters: BusinessFilters = { q: '', category: '' }

type Searchable = Pick<Business, 'name' | 'category' | 'short_description' | 'full_description'>

/**
 * Filters businesses as SPEC §2 says: the category must equal the choice, and the search text
 * must be in the name or a description, ignoring case.
 */
export function filterBusinesses<T extends Searchable>(businesses: readonly T[], filters: BusinessFilters): T[] {
  return businesses.filter(
    (business) =>
      (filters.category === '' || business.category === filters.category) &&
      // matchesSearch reads only the name and the two descriptions, which every Searchable has.
      matchesSearch(business as Searchable as Business, filters.q),
  )
}

/** Reads the filters from a query string (?q=&category=), so a shared or reloaded URL keeps them. */
export function readFilters(search: string): BusinessFilters {
  const params = new URLSearchParams(search)
  return { q: params.get('q') ?? '', category: params.get('category') ?? '' }
}

/** Writes the filters as a query string, leaving out what is not set: "" when nothing is. */
export function filtersQuery(filters: BusinessFilters): string {
  const params = new URLSearchParams()
  if (filters.q !== '') params.set('q', filters.q)
  if (filters.category !== '') params.set('category', filters.category)
  const query = params.toString()
  return query === '' ? '' : `?${query}`
}
