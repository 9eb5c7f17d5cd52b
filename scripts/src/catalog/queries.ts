import { sameElements } from '../same-elements.ts'
import type { Business, Catalog, LocationCategory } from './types.ts'

// SPEC §7's reads, as pure functions over the catalog a build loads once. The catalog
// holds only what the anon role sees, so "active only" already holds; the filters
// below say it again so a function never depends on where its input came from.

/** The number of businesses the home page features (SPEC §9). */
export const featuredLimit = 6

// One collator for every comparison: localeCompare with options builds one per call, which
// sorting 10,000 businesses a few times per build pays for in seconds.
const nameOrder = new Intl.Collator('en', { sensitivity: 'base' })
const slugOrder = new Intl.Collator()

/** Orders by name, ignoring case and accents (English rules). */
export const compareNames = (a: { name: string }, b: { name: string }) => nameOrder.compare(a.name, b.name)

/** The order of business lists: by name, then by slug between equal names. */
export const compareBusinesses = (a: Business, b: Business) => compareNames(a, b) || slugOrder.compare(a.slug, b.slug)

/** Lists every active business, ordered by name (a list of its own, which the caller may change). */
export function allBusinesses(catalog: Pick<Catalog, 'businesses'>): Business[] {
  return sortedActive(catalog.businesses).slice()
}

/**
 * The active businesses that `keep` keeps, ordered by name: the whole sorted list filtered, which
 * is the list filtered and then sorted (the order is total: the slugs differ).
 */
function activeBusinesses(catalog: Pick<Catalog, 'businesses'>, keep: (business: Business) => boolean): Business[] {
  return sortedActive(catalog.businesses).filter(keep)
}

// A build asks for every business in name order a dozen times (its routes' paths, the directory,
// the sitemap, the search index, each category's pages): sorting 100,000 each time took 0.4 s of a
// rebuild. Each list of businesses is sorted once, for as long as it holds the same businesses (a
// business read is never changed in place: the catalog's reader makes a new one).
const sortedLists = new WeakMap<readonly Business[], { members: readonly Business[]; sorted: readonly Business[] }>()

function sortedActive(businesses: readonly Business[]): readonly Business[] {
  const known = sortedLists.get(businesses)
  if (known !== undefined && sameElements(known.members, businesses)) return known.sorted
  const sorted = businesses.filter((b) => b.is_active).sort(compareBusinesses)
  sortedLists.set(businesses, { members: businesses.slice(), sorted })
  return sorted
}

/** Finds the active business with this slug, or null. */
export function businessBySlug(catalog: Pick<Catalog, 'businesses'>, slug: string): Business | null {
  return catalog.businesses.find((b) => b.is_active && b.slug === slug) ?? null
}

/** Lists the active businesses of one category (its name, e.g. 'Dining & Refreshments'), by name. */
export function businessesByCategory(catalog: Pick<Catalog, 'businesses'>, category: string): Business[] {
  return activeBusinesses(catalog, (b) => b.category === category)
}

/** Lists up to six featured businesses, by name. */
export function featuredBusinesses(catalog: Pick<Catalog, 'businesses'>, limit = featuredLimit): Business[] {
  return activeBusinesses(catalog, (b) => b.is_featured).slice(0, limit)
}

/** Lists the businesses the home page shows: the featured ones, else the first six of all (SPEC §4). */
export function homeBusinesses(catalog: Pick<Catalog, 'businesses'>, limit = featuredLimit): Business[] {
  const featured = featuredBusinesses(catalog, limit)
  return featured.length > 0 ? featured : allBusinesses(catalog).slice(0, limit)
}

/** Tells whether a business matches a search: case-insensitive contains on name and descriptions. */
export function matchesSearch(business: Business, query: string): boolean {
  const needle = query.trim().toLocaleLowerCase('en')
  if (needle === '') return true
  return [business.name, business.short_description, business.full_description].some(
    (field) => field != null && field.toLocaleLowerCase('en').includes(needle),
  )
}

/** Lists the active businesses whose name or descriptions contain the query, by name. */
export function searchBusinesses(catalog: Pick<Catalog, 'businesses'>, query: string): Business[] {
  return activeBusinesses(catalog, (b) => matchesSearch(b, query))
}

/** Lists the location categories, ordered by sort_order then name. */
export function sortedCategories(catalog: Pick<Catalog, 'categories'>): LocationCategory[] {
  return [...catalog.categories].sort((a, b) => a.sort_order - b.sort_order || a.name.localeCompare(b.name, 'en'))
}

/** Lists the business categories (category_type business), by sort_order. */
export function businessCategoryList(catalog: Pick<Catalog, 'categories'>): LocationCategory[] {
  return sortedCategories(catalog).filter((c) => c.category_type === 'business')
}

/** Finds the location category with this slug, or null. */
export function categoryBySlug(catalog: Pick<Catalog, 'categories'>, slug: string): LocationCategory | null {
  return catalog.categories.find((c) => c.slug === slug) ?? null
}

/** The stats of SPEC §3: total active businesses, counts by category, featured count. */
export interface BusinessStats {
  total: number
  byCategory: Record<string, number>
  featured: number
}

/** Counts the active businesses, by category and featured. */
export function businessStats(catalog: Pick<Catalog, 'businesses'>): BusinessStats {
  const active = catalog.businesses.filter((b) => b.is_active)
  const byCategory: Record<string, number> = {}
  for (const b of active) byCategory[b.category] = (byCategory[b.category] ?? 0) + 1
  return { total: active.length, byCategory, featured: active.filter((b) => b.is_featured).length }
}

/** Lists the distinct categories of some businesses, in first-seen order of a name-sorted list. */
export function distinctCategories(businesses: readonly Business[]): string[] {
  return [...new Set(businesses.map((b) => b.category))]
}
