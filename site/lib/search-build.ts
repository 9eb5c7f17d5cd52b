import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { allBusinesses } from '@roland/scripts/catalog/queries'
import type { Catalog, Town } from '@roland/scripts/catalog/types'
import { WordKeys } from '@roland/scripts/search/text'
import BusinessCard from '../components/BusinessCard.tsx'
import { getCatalog } from './catalog.ts'
import { searchIndexSource } from './catalog-slot.ts'
import {
  buildSearchIndex,
  searchIndexCard,
  packSearchIndex,
  toSearchIndexEntry,
  type PackedSearchIndex,
  type SearchIndexEntry,
} from './search-index.ts'

/** Draws the card of a search result as HTML: the same card the static list shows. */
export function renderSearchCard(entry: SearchIndexEntry, town: Pick<Town, 'name' | 'state' | 'country'>): string {
  return renderToStaticMarkup(createElement(BusinessCard, { business: searchIndexCard(entry, town), headingLevel: 2 }))
}

// The manifest and the files are separate routes of one index: a build makes it once, kept with
// the catalog it read (the build's lifetime; `astro dev` reads afresh and makes it afresh).
const indexByCatalog = new WeakMap<Catalog, Promise<PackedSearchIndex>>()

/**
 * The search index of the catalog the build reads (search-index.ts), packed as its routes take it:
 * the one the build's catalog reader made beside its read (site/integrations/catalog-reader.ts),
 * else made here.
 */
export async function getSearchIndex(): Promise<PackedSearchIndex> {
  const catalog = await getCatalog()
  const make = () => {
    const wordKeys = new WordKeys()
    const entries = allBusinesses(catalog).map((business) => toSearchIndexEntry(business, wordKeys))
    return packSearchIndex(
      buildSearchIndex(entries, (entry) => renderSearchCard(entry, catalog.town)),
      catalog.town,
    )
  }
  if (import.meta.env.DEV) return make()
  let built = indexByCatalog.get(catalog)
  if (!built) {
    built = (searchIndexSource()?.() ?? Promise.resolve(null)).then((index) => index ?? make())
    indexByCatalog.set(catalog, built)
  }
  return built
}
