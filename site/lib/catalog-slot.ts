import type { Catalog } from '@roland/scripts/catalog/types'
import { processSlot } from '@roland/scripts/process-slot'
import type { PackedSearchIndex } from './search-index.ts'

// Where the pages find the catalog. The roland:catalog integration (integrations/site-catalog.ts)
// reads it outside the pages' bundle, where the store's code (PGlite, supabase-js) runs as it is,
// and leaves here how to get it: a process-wide slot, since Astro loads the config and the pages as
// separate module instances.

/** Gives the catalog, in list order: in a build the same read every time, in `astro dev` a fresh one. */
export type CatalogSource = () => Promise<Catalog>

const catalogSlot = processSlot<CatalogSource>('roland.site.catalog')

/** Puts the catalog's source where the pages look for it (undefined: takes it away, between two builds). */
export const setCatalogSource = catalogSlot.set

/** The catalog's source, if the integration has set it. */
export const catalogSource = catalogSlot.get

/** Gives the search index made beside the catalog's read, or null where the pages make it. */
export type SearchIndexSource = () => Promise<PackedSearchIndex | null>

const searchIndexSlot = processSlot<SearchIndexSource>('roland.site.search-index')

/** Puts where the pages find a search index made outside them (a build's catalog reader). */
export const setSearchIndexSource = searchIndexSlot.set

/** The search index's source, if a build has set it. */
export const searchIndexSource = searchIndexSlot.get
