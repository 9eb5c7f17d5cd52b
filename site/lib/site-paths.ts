import { laterBusinessListPaths } from './business-pages.ts'
import { allBusinesses, sortedCategories } from '@roland/scripts/catalog/queries'
import type { Catalog } from '@roland/scripts/catalog/types'
import { alertHref, alertsWithPages } from './alerts.ts'
import { attractionPath } from './attractions.ts'
import { categoryListing, categoryPages, categoryPath } from './category-page.ts'
import { directoryIsSplit, directoryPages, directorySections } from './directory.ts'
import { isOnSite } from './pages.ts'

/** The site's pages that do not come from the catalog. */
export const fixedPaths = [
  '/',
  '/businesses',
  '/recreation',
  '/community',
  '/community/centers',
  '/community/emergency',
  '/community/faith',
  '/community/garden',
  '/about',
  '/about/education',
  '/about/history',
  '/events',
  '/contact',
  '/nearby',
  '/directory',
] as const

/** Lists every page of the site (redirects and the 404 page aside), for the sitemap. */
export function sitePaths(catalog: Catalog): string[] {
  const categories = sortedCategories(catalog)
  return [
    ...fixedPaths.filter((path) => isOnSite(catalog, path)),
    // Every page of every category: /{slug}, then /{slug}/page/2…
    ...categories.flatMap((c) =>
      categoryPages(categoryListing(catalog, c)).map((page) => categoryPath(c.slug, page.page)),
    ),
    ...categories.filter((c) => c.category_type === 'recreation').map((c) => `/recreation/${c.slug}`),
    ...catalog.attractions.map((a) => attractionPath(a, catalog.attractions)),
    ...laterBusinessListPaths(allBusinesses(catalog).length),
    ...allBusinesses(catalog).map((b) => `/business/${b.slug}`),
    ...directoryPaths(catalog),
    '/alerts',
    // "Notify me" (issue 48); its confirm and unsubscribe pages are for emails' links, not for search engines.
    '/notify',
    ...alertsWithPages(catalog, new Date()).map(alertHref),
  ]
}

/** The printable directory's pages by category, when it is too long for one (lib/directory.ts). */
function directoryPaths(catalog: Catalog): string[] {
  const sections = directorySections(catalog)
  return directoryIsSplit(sections) ? directoryPages(sections).map((page) => `/directory/${page.path}`) : []
}
