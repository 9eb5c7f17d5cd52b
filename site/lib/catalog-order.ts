import type { Catalog } from '@roland/scripts/catalog/types'

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' })

/**
 * Puts a catalog back in the order the stores read it (businesses by name, categories and
 * attractions by sort_order, events by start): content collections hand entries back by id.
 */
export function inCatalogOrder(catalog: Catalog): Catalog {
  return {
    businesses: [...catalog.businesses].sort((a, b) => byName(a, b) || a.slug.localeCompare(b.slug)),
    categories: [...catalog.categories].sort((a, b) => a.sort_order - b.sort_order || byName(a, b)),
    attractions: [...catalog.attractions].sort((a, b) => a.sort_order - b.sort_order || byName(a, b)),
    events: [...catalog.events].sort((a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at)),
  }
}
