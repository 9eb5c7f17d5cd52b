import { getCollection } from 'astro:content'
import type { Catalog } from '@roland/scripts/catalog/types'
import { inCatalogOrder } from './catalog-order.ts'

/** Gathers the catalog the content collections hold, in the shape and order the catalog queries take. */
export async function getCatalog(): Promise<Catalog> {
  const [businesses, categories, attractions, events] = await Promise.all([
    getCollection('businesses'),
    getCollection('categories'),
    getCollection('attractions'),
    getCollection('events'),
  ])
  return inCatalogOrder({
    businesses: businesses.map((e) => e.data),
    categories: categories.map((e) => e.data),
    attractions: attractions.map((e) => e.data),
    events: events.map((e) => e.data),
  })
}
