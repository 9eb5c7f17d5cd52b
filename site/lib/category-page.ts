import { businessesByCategory } from '@roland/scripts/catalog/queries'
import type { Business, Catalog, CategoryType, LocationCategory } from '@roland/scripts/catalog/types'

/** A link with its visible text. */
export interface Link {
  href: string
  label: string
}

/** The back button of a category page, by category_type (SPEC §2). */
export function backLink(categoryType: CategoryType | string): Link {
  switch (categoryType) {
    case 'business':
      return { href: '/businesses', label: 'All Businesses' }
    case 'recreation':
      return { href: '/recreation', label: 'Recreation' }
    case 'community':
      return { href: '/community', label: 'Community' }
    case 'about':
      return { href: '/about', label: 'About Roland' }
    default:
      return { href: '/', label: 'Home' }
  }
}

/** The badge of a category page: "1 Location Found", "3 Locations Found". */
export function locationsFoundLabel(count: number): string {
  return `${count} Location${count === 1 ? '' : 's'} Found`
}

/** What a category page lists: the first featured business apart, then the others (SPEC §2). */
export interface CategoryListing {
  featured: Business | null
  others: Business[]
  count: number
}

/** Lists a category's businesses; only business categories list any (SPEC §2). */
export function categoryListing(catalog: Pick<Catalog, 'businesses'>, category: LocationCategory): CategoryListing {
  const businesses = category.category_type === 'business' ? businessesByCategory(catalog, category.name) : []
  const featured = businesses.find((b) => b.is_featured) ?? null
  return { featured, others: businesses.filter((b) => b !== featured), count: businesses.length }
}

/** The empty state of a category page: "No Businesses Yet" for business categories, else "Coming Soon". */
export function emptyState(categoryType: CategoryType | string): { title: string; text: string } {
  return categoryType === 'business'
    ? {
        title: 'No Businesses Yet',
        text: 'No businesses are listed in this category yet. New listings will be added soon; check back shortly.',
      }
    : {
        title: 'Coming Soon',
        text: 'Listings for this section are being gathered and will be added soon.',
      }
}

// The written guides for the community and about sections (pages under site/pages).
const guides: Record<string, string> = {
  centers: '/community/centers',
  emergency: '/community/emergency',
  faith: '/community/faith',
  education: '/about/education',
  history: '/about/history',
}

/**
 * The page with the content of a category that lists no businesses: the recreation guide
 * (/recreation/{slug}, one per recreation category) or a written community or about guide.
 */
export function guideLink(category: Pick<LocationCategory, 'slug' | 'category_type'>): string | null {
  if (category.category_type === 'recreation') return `/recreation/${category.slug}`
  if (category.category_type === 'business') return null
  return Object.hasOwn(guides, category.slug) ? guides[category.slug]! : null
}

/** The first path segments the site's own pages use; a category cannot take one of them. */
export const reservedSlugs = [
  'businesses', 'business', 'recreation', 'attraction', 'community', 'about', 'events', 'contact', 'nearby',
  'files', '404', 'sitemap.xml', 'robots.txt',
] as const

/** Fails the build when a category slug would shadow one of the site's own pages. */
export function assertCategorySlugsFree(categories: readonly Pick<LocationCategory, 'slug'>[]): void {
  const taken = categories.filter((c) => (reservedSlugs as readonly string[]).includes(c.slug)).map((c) => c.slug)
  if (taken.length > 0) {
    throw new Error(
      `The location categories ${taken.join(', ')} use a slug the site needs for its own pages (/${taken[0]}).\n` +
        'Rename them in location_categories (e.g. "local-businesses") and rebuild.',
    )
  }
}
