import { businessesByCategory, sortedCategories } from '@roland/scripts/catalog/queries'
import type { Business, Catalog, LocationCategory, Town } from '@roland/scripts/catalog/types'
import { businessCacheKey, layoutCacheData, pageCacheKey } from './build-cache.ts'
import { profiled } from './build-profile.ts'
import { itemsPerPage, listPages, pageParam, pagedPath } from './business-pages.ts'

/** A link with its visible text. */
export interface Link {
  href: string
  label: string
}

/** The back button of a category page, by category_type (SPEC §2). */
export function backLink(categoryType: string, town: Pick<Town, 'name'>): Link {
  switch (categoryType) {
    case 'business':
      return { href: '/businesses', label: 'All Businesses' }
    case 'recreation':
      return { href: '/recreation', label: 'Recreation' }
    case 'community':
      return { href: '/community', label: 'Community' }
    case 'about':
      return { href: '/about', label: `About ${town.name}` }
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

/** The path of page `page` (1-based) of a category: /{slug}, then /{slug}/page/2… */
export function categoryPath(slug: string, page = 1): string {
  return pagedPath(`/${slug}`, page)
}

/**
 * One page of a category (/{slug}, /{slug}/page/N): the 'Featured Location' on the first page
 * only, above that page's cards; then the other businesses, `itemsPerPage` cards a page, in name
 * order. The featured location is not counted among a page's cards.
 */
export interface CategoryPage<T = Business> {
  page: number
  pageCount: number
  /** How many locations the category lists in all, the featured one included (the badge's count). */
  total: number
  /**
   * 1-based positions, in the category's whole list (the featured location first, then the
   * cards in order), of the first and last location this page shows; 0 and 0 when it shows none.
   */
  first: number
  last: number
  /** The 'Featured Location': on the first page only. */
  featured: T | null
  /** This page's cards, in name order. */
  items: T[]
}

/** Cuts a category's listing into its pages: one page (maybe empty) at least. */
export function categoryPages<T>(
  listing: { featured: T | null; others: readonly T[]; count: number },
  perPage = itemsPerPage,
): CategoryPage<T>[] {
  const offset = listing.featured ? 1 : 0
  return listPages(listing.others, perPage).map((list) => {
    const featured = list.page === 1 ? listing.featured : null
    const shows = (featured ? 1 : 0) + list.items.length > 0
    return {
      page: list.page,
      pageCount: list.pageCount,
      total: listing.count,
      first: !shows ? 0 : featured ? 1 : offset + list.first,
      last: !shows ? 0 : offset + list.last,
      featured,
      items: list.items,
    }
  })
}

/** The locations a category page shows, in the order it shows them: the featured one, then the cards. */
export function shownOn<T>(page: Pick<CategoryPage<T>, 'featured' | 'items'>): T[] {
  return page.featured ? [page.featured, ...page.items] : [...page.items]
}

/** The empty state of a category page: "No Businesses Yet" for business categories, else "Coming Soon". */
export function emptyState(categoryType: string): { title: string; text: string } {
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
  'businesses',
  'business',
  'recreation',
  'attraction',
  'community',
  'about',
  'events',
  'contact',
  'nearby',
  'files',
  '404',
  'sitemap.xml',
  'robots.txt',
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

/** What a page of a category renders: the category and that page's locations, nothing more. */
export interface CategoryPageProps {
  category: LocationCategory
  page: CategoryPage
}

/**
 * Every page of every category, for the [category]/[...page] route's getStaticPaths. A page's
 * cacheKey covers exactly what it renders: its props and what the layout draws (layoutCacheData). A
 * rebuild after one business changed thus renders again only the page of its category that
 * shows it (every page shows the category's count, so a business added or closed renders the
 * whole category again).
 */
export function categoryStaticPaths(catalog: Pick<Catalog, 'businesses' | 'categories' | 'town' | 'alerts' | 'pages'>) {
  return profiled('paths: /{category}/page/{n}', () => categoryPathsOf(catalog))
}

function categoryPathsOf(catalog: Pick<Catalog, 'businesses' | 'categories' | 'town' | 'alerts' | 'pages'>) {
  const categories = sortedCategories(catalog)
  assertCategorySlugsFree(categories)
  const layout = layoutCacheData(catalog)
  return categories.flatMap((category) => {
    // What each page of the category shows alike, hashed once for the category.
    const shared = pageCacheKey(category, layout)
    return categoryPages(categoryListing(catalog, category)).map((page) => {
      const props: CategoryPageProps = { category, page }
      // A card (and the featured location) shows its business and the town (the layout's data):
      // the business's own key stands for it, as on the businesses list.
      const { featured, items } = page
      const shown = { ...page, featured: featured && businessCacheKey(featured), items: items.map(businessCacheKey) }
      return {
        params: { category: category.slug, page: pageParam(page.page) },
        props,
        cacheKey: pageCacheKey(shown, shared),
      }
    })
  })
}
