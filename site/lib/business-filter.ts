import { matchesSearch } from '@roland/scripts/catalog/queries'
import type { Business } from '@roland/scripts/catalog/types'

/** The businesses page's filters; an empty category means "All". */
export interface BusinessFilters {
  q: string
  category: string
}

/** No search, every category. */
export const noFilters: BusinessFilters = { q: '', category: '' }

/** What the filter reads of a business: a missing description is null (the catalog) or left out (the search index). */
export interface Searchable {
  name: string
  category: string
  short_description?: string | null
  full_description?: string | null
}

/** Tells whether the filters narrow the list at all: a search of spaces matches every business. */
export function filtersActive(filters: BusinessFilters): boolean {
  return filters.q.trim() !== '' || filters.category !== ''
}

/**
 * Filters businesses as SPEC §2 says: the category must equal the choice, and the search text
 * must be in the name or a description, ignoring case. The reference for `searchPrepared`.
 */
export function filterBusinesses<T extends Searchable>(businesses: readonly T[], filters: BusinessFilters): T[] {
  return businesses.filter(
    (business) =>
      (filters.category === '' || business.category === filters.category) &&
      // matchesSearch reads only the name and the two descriptions, which every Searchable has.
      matchesSearch(business as Searchable as Business, filters.q),
  )
}

/** Businesses made ready for a search on every keystroke: each searched field lowercased once. */
export interface PreparedSearch<T> {
  readonly businesses: readonly T[]
  /** Per business, its name and descriptions lowercased as matchesSearch lowercases them. */
  readonly fields: ReadonlyArray<readonly string[]>
}

/** Lowercases the searched fields of every business, once, when the list arrives. */
export function prepareSearch<T extends Searchable>(businesses: readonly T[]): PreparedSearch<T> {
  return {
    businesses,
    fields: businesses.map((business) =>
      [business.name, business.short_description, business.full_description]
        .filter((field): field is string => field != null)
        .map((field) => field.toLocaleLowerCase('en')),
    ),
  }
}

/**
 * Filters prepared businesses with the same result as filterBusinesses, in one pass that
 * lowercases only the query: the cost of a keystroke is a few substring tests per business.
 */
export function searchPrepared<T extends Searchable>(prepared: PreparedSearch<T>, filters: BusinessFilters): T[] {
  const needle = filters.q.trim().toLocaleLowerCase('en')
  const { businesses, fields } = prepared
  const found: T[] = []
  for (let index = 0; index < businesses.length; index++) {
    const business = businesses[index]!
    if (filters.category !== '' && business.category !== filters.category) continue
    if (needle !== '' && !fields[index]!.some((field) => field.includes(needle))) continue
    found.push(business)
  }
  return found
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
