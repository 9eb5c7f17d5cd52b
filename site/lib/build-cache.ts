import { hash } from 'node:crypto'
import type { Business, Catalog } from '@roland/scripts/catalog/types'
import { bannerCacheData } from './alerts.ts'
import { processMemo } from '@roland/scripts/process-slot'

// Incremental builds (astro.config.mjs, experimental.incrementalBuild): Astro re-renders a page of
// a getStaticPaths() route only when its cacheKey or its code changed since the last build, and
// copies the previous output otherwise. A cacheKey must therefore cover every piece of data the
// page shows, including the layout's: the header and footer are drawn from the categories and
// the town settings, and the footer shows the year of the build.

/**
 * A short hash of the data a page renders; equal data (as JSON) gives an equal key. (One call of
 * crypto.hash: a Hash object per page took twice as long, 13,500 of them at 10,000 businesses.)
 */
export function pageCacheKey(...data: unknown[]): string {
  return hash('sha256', JSON.stringify(data), 'base64url').slice(0, 32)
}

/**
 * A short hash of a file's text, written as it is (a search index's file): the text hashed as it
 * is, where pageCacheKey would first write it out as JSON again, every quote escaped (at 100,000
 * businesses, the index's 200 MB of JSON: 0.3 s of the catalog reader's time before it sends it).
 */
export function textCacheKey(text: string): string {
  return hash('sha256', text, 'base64url').slice(0, 32)
}

type SharedData = Pick<Catalog, 'categories' | 'attractions' | 'events' | 'pages' | 'town' | 'alerts'>

type LayoutData = Pick<Catalog, 'categories' | 'town' | 'alerts' | 'pages'>

/**
 * The parts of the catalog that every page draws: a change to any of them renders every page again
 * (a full render), whatever else changed: the categories (header, footer), the town settings, the
 * alerts' banner as it stands now (an alert published, changed, ended or past its end time), and
 * the pages' rows (the header and footer leave out the unpublished ones; the footer quotes the home
 * page's intro). A part the layout starts to draw on every page is added here, and only here: every
 * page's cacheKey takes it through layoutCacheData.
 */
export function globalCatalogParts(catalog: LayoutData): unknown[] {
  return [catalog.categories, catalog.town, bannerCacheData(catalog, new Date()), catalog.pages]
}

/** What every page's layout draws: the catalog's global parts (globalCatalogParts) and the footer's year. */
export function layoutCacheData(catalog: LayoutData): unknown[] {
  return [...globalCatalogParts(catalog), new Date().getFullYear()]
}

// Thousands of business pages share these lists: each catalog's are hashed once.
const sharedKeys = new WeakMap<SharedData, string>()

/**
 * The cacheKey of a page that shows `data` and may show anything in the catalog but its businesses:
 * what the layout draws (layoutCacheData; the categories are also a business page's category link),
 * the attractions and the events.
 * A page that shows a business puts it in `data`; a page that starts to show another business must
 * add it there. (A business's own page has businessPageCacheKey: the same parts, as two keys.)
 */
export function catalogPageCacheKey(data: unknown, catalog: SharedData): string {
  return pageCacheKey(data, sharedCacheKey(catalog))
}

/** The hash of what every page may show but the businesses (catalogPageCacheKey), once a catalog. */
function sharedCacheKey(catalog: SharedData): string {
  let shared = sharedKeys.get(catalog)
  if (shared === undefined) {
    shared = pageCacheKey(layoutCacheData(catalog), catalog.attractions, catalog.events)
    sharedKeys.set(catalog, shared)
  }
  return shared
}

// A business's own data is hashed once per catalog read: its page's cacheKey and its list page's take it.
// One map for the process, whichever build's bundle asks: a process that builds again
// (site/integrations/build-server.ts) loads this module anew for each build, and a map's table keeps
// the size it grew to once its businesses are gone (4 MB a build at 100,000 businesses).
/**
 * A short hash of everything a business row holds (its images, hours and services among them),
 * worked out once for each business object. A page that shows a business (its page, the page of the
 * businesses list with its card) puts this in its cacheKey in place of what it draws from it.
 */
export const businessCacheKey = processMemo('roland.site.business-keys', (business: Business) => pageCacheKey(business))

/**
 * The cacheKey of a business's page: its business (businessCacheKey) and what else it may show
 * (catalogPageCacheKey's), the two keys side by side. Hashing them again into one took a rebuild
 * at 100,000 businesses a tenth to a sixth of a second more, for a key no more exact.
 */
export function businessPageCacheKey(business: Business, catalog: SharedData): string {
  return `${businessCacheKey(business)}.${sharedCacheKey(catalog)}`
}
