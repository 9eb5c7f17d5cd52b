import { compareBusinesses, compareNames } from '@roland/scripts/catalog/queries'
import type { Catalog } from '@roland/scripts/catalog/types'

/**
 * Puts a catalog back in the order the stores read it (businesses by name, categories and
 * attractions by sort_order, events by start, alerts newest first): content collections hand entries back by id.
 */
export function inCatalogOrder(catalog: Catalog): Catalog {
  return {
    town: catalog.town,
    businesses: [...catalog.businesses].sort(compareBusinesses),
    categories: [...catalog.categories].sort((a, b) => a.sort_order - b.sort_order || compareNames(a, b)),
    attractions: [...catalog.attractions].sort((a, b) => a.sort_order - b.sort_order || compareNames(a, b)),
    events: [...catalog.events].sort((a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at)),
    pages: [...catalog.pages].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    alerts: [...catalog.alerts].sort((a, b) => Date.parse(b.published_at) - Date.parse(a.published_at)),
  }
}
