import { createHash } from 'node:crypto'
import type { Business, Catalog } from '@roland/scripts/catalog/types'

// Incremental builds (astro.config.mjs, experimental.incrementalBuild): Astro re-renders a page of
// a getStaticPaths() route only when its cacheKey or its code changed since the last build, and
// copies the previous output otherwise. A cacheKey must therefore cover every piece of data the
// page shows, including the layout's: the header and footer are drawn from the categories.

/** A short hash of the data a page renders; equal data (as JSON) gives an equal key. */
export function pageCacheKey(...data: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(data)).digest('base64url').slice(0, 32)
}

type SharedData = Pick<Catalog, 'categories' | 'attractions' | 'events'>

// Thousands of business pages share these lists: each catalog's are hashed once.
const sharedKeys = new WeakMap<SharedData, string>()

/**
 * The cacheKey of a business page (/business/{slug}): the business itself and everything else in
 * the catalog but the other businesses (categories for the layout and the category link, and the
 * attractions and events, should the page ever show them). A page that starts to show another
 * business must add it here.
 */
export function businessPageCacheKey(business: Business, catalog: SharedData): string {
  let shared = sharedKeys.get(catalog)
  if (shared === undefined) {
    shared = pageCacheKey(catalog.categories, catalog.attractions, catalog.events)
    sharedKeys.set(catalog, shared)
  }
  return pageCacheKey(business, shared)
}
