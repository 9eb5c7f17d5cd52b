import type { APIRoute, GetStaticPaths } from 'astro'
import { pageCacheKey } from '../../../lib/build-cache.ts'
import { profiled } from '../../../lib/build-profile.ts'
import { getCatalog } from '../../../lib/catalog.ts'
import { workOutCatalogPaths } from '../../../lib/catalog-paths.ts'
import { renderSearchCard, getSearchIndex } from '../../../lib/search-build.ts'
import type { SearchIndexEntry } from '../../../lib/search-index.ts'

// The search index's files (search-shards.ts), /businesses/search/{v}/{kind}/{key}.json, where v is
// the manifest's numbering. Each is written again only when its data changed (its cacheKey): a change
// to one business's texts rewrites its card file and the few files of its words; a business added or
// removed numbers them all anew, in a new folder.
//
// The index comes from the build's catalog reader, on a thread of its own; while it is made, this
// thread works out the other routes' paths (lib/catalog-paths.ts), which Astro asks for after these.
export const getStaticPaths = (async () => {
  const catalog = await getCatalog()
  const index = getSearchIndex()
  if (!import.meta.env.DEV) {
    try {
      workOutCatalogPaths(catalog)
    } catch {
      // Reported by the route whose paths failed: it works them out again, and throws then.
    }
  }
  const { manifest, files, cardFiles } = await profiled('search index (pages)', () => index)
  // A card without a description says the town's name: its files are written again when that changes.
  const { town } = catalog
  const paths = []
  for (const [name, json] of files)
    paths.push({ params: { file: `${manifest.v}/${name}` }, props: { json }, cacheKey: pageCacheKey(json) })
  for (const [name, cards] of cardFiles)
    paths.push({ params: { file: `${manifest.v}/${name}` }, props: { cards }, cacheKey: pageCacheKey(cards, town) })
  return paths
}) satisfies GetStaticPaths

/** Writes one file of the search index. */
export const GET: APIRoute<{ json?: string; cards?: SearchIndexEntry[] }> = async ({ props }) => {
  const { town } = await getCatalog()
  return new Response(props.json ?? JSON.stringify(props.cards!.map((entry) => renderSearchCard(entry, town))), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  })
}
