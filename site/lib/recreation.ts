import { businessesByCategory } from '@roland/scripts/catalog/queries'
import type { Business, Catalog } from '@roland/scripts/catalog/types'
import { filtersQuery } from './business-filter.ts'

/** The business category /recreation/sports shows, besides the sports attractions. */
export const recreationCategory = 'Recreation'

/** How many recreation businesses /recreation/sports shows as cards. */
export const recreationCardLimit = 12

/** The recreation businesses /recreation/sports shows, and where the visitor finds them all. */
export interface RecreationBusinesses {
  /** The featured ones first, then the others by name: at most `recreationCardLimit`. */
  shown: Business[]
  /** How many there are in all. */
  count: number
  /** The businesses list filtered to the category: every one of them, a page at a time. */
  allHref: string
}

/**
 * The businesses of the Recreation category for the sports guide: a page's worth of cards, the rest
 * a link away. (Listing them all made the page 6 MB with 10,000 businesses in the catalog.)
 */
export function recreationBusinesses(
  catalog: Pick<Catalog, 'businesses'>,
  limit = recreationCardLimit,
): RecreationBusinesses {
  const all = businessesByCategory(catalog, recreationCategory)
  const shown = [...all.filter((b) => b.is_featured), ...all.filter((b) => !b.is_featured)].slice(0, limit)
  return { shown, count: all.length, allHref: `/businesses${filtersQuery({ q: '', category: recreationCategory })}` }
}
