import { defineCollection } from 'astro:content'
import type { Loader } from 'astro/loaders'
import {
  attractionSchema,
  businessSchema,
  communityEventSchema,
  locationCategorySchema,
  type Catalog,
} from '@roland/scripts/catalog/types'
import { assertPublishableBusinesses } from './lib/business-checks.ts'
import { sharedCatalogRead } from './lib/catalog-source.ts'

// The catalog enters the site here, once per build (DESIGN.md, "The site"). loadPublicCatalog
// throws CatalogUnavailableError when the data source is unreachable or empty: the sync fails
// before a single page is written, and the build stops with the loader's message. A part's
// check (a business without a name or an address) stops it the same way.

// One read of the catalog per sync, shared by the four collections below.
const readCatalog = sharedCatalogRead(4)

function catalogLoader<K extends keyof Catalog>(
  part: K,
  idOf: (entry: Catalog[K][number]) => string,
  check: (entries: Catalog[K]) => void = () => {},
): Loader {
  return {
    name: `roland-catalog-${part}`,
    async load(context) {
      const { store, logger } = context
      const catalog = await readCatalog(part, (message) => logger.warn(message))
      check(catalog[part])
      // The store keeps the last build's entries: an entry whose data is unchanged (same digest) is
      // kept as it is, so a rebuild after one business changed parses and stores one entry, not 10,000.
      const ids = new Set<string>()
      for (const entry of catalog[part]) {
        const id = idOf(entry)
        ids.add(id)
        const data = entry as Record<string, unknown>
        const digest = context.generateDigest(data)
        if (store.get(id)?.digest === digest) continue
        store.set({ id, data: await context.parseData({ id, data }), digest })
      }
      for (const id of store.keys()) if (!ids.has(id)) store.delete(id)
    },
  }
}

export const collections = {
  businesses: defineCollection({
    loader: catalogLoader('businesses', (b) => b.slug, assertPublishableBusinesses),
    schema: businessSchema,
  }),
  categories: defineCollection({ loader: catalogLoader('categories', (c) => c.slug), schema: locationCategorySchema }),
  attractions: defineCollection({ loader: catalogLoader('attractions', (a) => a.id), schema: attractionSchema }),
  events: defineCollection({ loader: catalogLoader('events', (e) => e.slug), schema: communityEventSchema }),
}
