import { allBusinesses, businessCategoryList, distinctCategories } from '@roland/scripts/catalog/queries'
import type { Catalog } from '@roland/scripts/catalog/types'
import {
  businessCacheKey,
  businessPageCacheKey,
  catalogPageCacheKey,
  layoutCacheData,
  pageCacheKey,
} from './build-cache.ts'
import { profiled } from './build-profile.ts'
import { businessListPage, businessPageCount, pageParam } from './business-pages.ts'
import { categoryStaticPaths } from './category-page.ts'
import { directoryIsSplit, directoryPages, directorySections } from './directory.ts'
import { pageAt } from './pages.ts'

// The paths (getStaticPaths) of the routes with a page per part of the catalog, worked out once per
// catalog. Astro asks the routes for their paths one after another, and the search index's route
// (pages/businesses/search/[...file].ts) waits for the index, which the build's catalog reader
// makes on its own thread: 10 s and more at 100,000 businesses, while this thread has nothing to
// do. So that route has the paths below worked out while it waits (workOutCatalogPaths), and the
// routes, when Astro comes to them, find theirs done.

/** `work` done once for each catalog (a build reads one; `astro dev` reads afresh, so works afresh). */
function oncePerCatalog<T>(work: (catalog: Catalog) => T): (catalog: Catalog) => T {
  const done = new WeakMap<Catalog, T>()
  return (catalog) => {
    if (!done.has(catalog)) done.set(catalog, work(catalog))
    return done.get(catalog)!
  }
}

/**
 * /business/{slug}: a page per business. A rebuild renders again only the businesses whose page
 * data changed (their cacheKey, lib/build-cache.ts).
 */
export const businessPaths = oncePerCatalog((catalog) =>
  profiled('paths: /business/{slug}', () =>
    allBusinesses(catalog).map((business) => ({
      params: { slug: business.slug },
      props: { business },
      cacheKey: businessPageCacheKey(business, catalog),
    })),
  ),
)

/**
 * /businesses, then /businesses/page/2…: each page's businesses, and a cacheKey that changes only
 * when what the page shows does: a change to one business re-renders the one page of the list that
 * shows it. The page draws its cards itself (toBusinessCard, from each business and the town): a
 * rebuild draws only the cards of the pages it renders again, not 10,000 of them to learn which.
 */
export const businessListPaths = oncePerCatalog((catalog) =>
  profiled('paths: /businesses/page/{n}', () => {
    const businesses = allBusinesses(catalog)
    const categories = distinctCategories(businesses)
    const categoryPages = businessCategoryList(catalog).map(({ slug, name }) => ({ slug, name }))
    // Always published (the pages_always_published rule): the list's heading and intro.
    const page = pageAt(catalog, '/businesses')
    const words = page && { title: page.title, intro: page.intro }
    // What every page of the list shows alike, hashed once: at 100,000 businesses, writing the
    // pages' words out again for each of 4,200 pages made most of a rebuild's garbage.
    const shared = pageCacheKey(categories, categoryPages, words, layoutCacheData(catalog))
    return Array.from({ length: businessPageCount(businesses.length) }, (_, index) => {
      const list = businessListPage(businesses, index + 1)
      const props = { list, categories, categoryPages, words }
      // A card shows its business and the town (the layout's data): the business's own key stands for it.
      const shown = { ...list, items: list.items.map(businessCacheKey) }
      return {
        // None for the first page (/businesses), "page/2" for the second (/businesses/page/2)…
        params: { page: pageParam(list.page) },
        props,
        cacheKey: pageCacheKey(shown, shared),
      }
    })
  }),
)

/** /{category}, then /{category}/page/2…: see lib/category-page.ts. */
export const categoryPaths = oncePerCatalog(categoryStaticPaths)

/**
 * /directory/{category} (and /2, /3… for a long one): the printable directory a category at a time,
 * made only when the catalog is too large for the directory to be one page (lib/directory.ts).
 */
export const directoryPaths = oncePerCatalog((catalog) =>
  profiled('paths: /directory/{category}', () => {
    const sections = directorySections(catalog)
    if (!directoryIsSplit(sections)) return []
    return directoryPages(sections).map((page) => ({
      params: { page: page.path },
      props: { page },
      cacheKey: catalogPageCacheKey(page, catalog),
    }))
  }),
)

/**
 * Works out the paths above for this catalog. The caller waits for the search index from the
 * reader's thread, which goes on meanwhile; its message is taken when this is done.
 */
export function workOutCatalogPaths(catalog: Catalog): void {
  for (const paths of [businessPaths, businessListPaths, categoryPaths, directoryPaths]) paths(catalog)
}
