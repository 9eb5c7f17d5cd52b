import type { Catalog } from '@roland/scripts/catalog/types'
import type { SearchIndexFiles } from './search-index.ts'

// Where the pages find the catalog. The roland:catalog integration (integrations/site-catalog.ts)
// reads it outside the pages' bundle, where the store's code (PGlite, supabase-js) runs as it is,
// and leaves here how to get it: a process-wide slot, since Astro loads the config and the pages as
// separate module instances.

const slot = Symbol.for('roland.site.catalog')

/** Gives the catalog, in list order: in a build the same read every time, in `astro dev` a fresh one. */
export type CatalogSource = () => Promise<Catalog>

/** Puts the catalog's source where the pages look for it. */
export function setCatalogSource(source: CatalogSource): void {
  ;(globalThis as { [slot]?: CatalogSource })[slot] = source
}

/** The catalog's source, if the integration has set it. */
export function catalogSource(): CatalogSource | undefined {
  return (globalThis as { [slot]?: CatalogSource })[slot]
}

const searchIndexSlot = Symbol.for('roland.site.search-index')

/** Gives the search index made beside the catalog's read, or null where the pages make it. */
export type SearchIndexSource = () => Promise<SearchIndexFiles | null>

/** Puts where the pages find a search index made outside them (a build's catalog reader). */
export function setSearchIndexSource(source: SearchIndexSource): void {
  ;(globalThis as { [searchIndexSlot]?: SearchIndexSource })[searchIndexSlot] = source
}

/** The search index's source, if a build has set it. */
export function searchIndexSource(): SearchIndexSource | undefined {
  return (globalThis as { [searchIndexSlot]?: SearchIndexSource })[searchIndexSlot]
}
