import { getCollection } from 'astro:content'
import type { Catalog } from '@roland/scripts/catalog/types'
import { inCatalogOrder } from './catalog-order.ts'

// A build reads the catalog once: every page (and the footer on every page) asks for it, and with
// 10,000 businesses gathering and sorting it again per page made the build quadratic. `astro dev`
// reads it afresh each time, so an edit to the data shows on the next reload.
let built: Promise<Catalog> | undefined

/** Gathers the catalog the content collections hold, in the shape and order the catalog queries take. */
export function getCatalog(): Promise<Catalog> {
  if (import.meta.env.DEV) return readCatalog()
  built ??= readCatalog()
  return built
}

async function readCatalog(): Promise<Catalog> {
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
