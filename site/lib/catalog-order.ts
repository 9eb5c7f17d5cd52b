import type { Catalog } from '@roland/scripts/catalog/types'

// Collators made once (localeCompare with options makes one per call): the same order, faster.
const nameOrder = new Intl.Collator('en', { sensitivity: 'base' })
const slugOrder = new Intl.Collator()
const byName = (a: { name: string }, b: { name: string }) => nameOrder.compare(a.name, b.name)

/**
 * Puts a catalog back in the order the stores read it (businesses by name, categories and
 * attractions by sort_order, events by start): content collections hand entries back by id.
 */
export function inCatalogOrder(catalog: Catalog): Catalog {
  return {
    businesses: [...catalog.businesses].sort((a, b) => byName(a, b) || slugOrder.compare(a.slug, b.slug)),
    categories: [...catalog.categories].sort((a, b) => a.sort_order - b.sort_order || byName(a, b)),
    attractions: [...catalog.attractions].sort((a, b) => a.sort_order - b.sort_order || byName(a, b)),
    events: [...catalog.events].sort((a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at)),
  }
}
