import type { APIRoute, GetStaticPaths } from 'astro'
import { pageCacheKey } from '../../../lib/build-cache.ts'
import { profiled } from '../../../lib/build-profile.ts'
import { getCatalog } from '../../../lib/catalog.ts'
import { workOutCatalogPaths } from '../../../lib/catalog-paths.ts'
import { renderSearchCard, getSearchIndex } from '../../../lib/search-build.ts'
import { packedFileText, type SearchIndexEntry } from '../../../lib/search-index.ts'

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
  const made = await profiled('search index (pages)', () => index)
  const { v } = made.manifest
  const paths: Array<{ params: { file: string }; props: FileProps; cacheKey: string }> = []
  if ('names' in made) {
    // Packed by the catalog reader, each file's cacheKey with it: a file's text is read only when
    // the file is written.
    made.names.forEach((name, n) => {
      const text = () => packedFileText(made, n)
      const props: FileProps =
        n < made.firstCardFile ? { text } : { cards: () => JSON.parse(text()) as SearchIndexEntry[] }
      paths.push({ params: { file: `${v}/${name}` }, props, cacheKey: made.keys[n]! })
    })
    return paths
  }
  // A card without a description says the town's name: its files are written again when that changes.
  const { town } = catalog
  for (const [name, json] of made.files)
    paths.push({ params: { file: `${v}/${name}` }, props: { json }, cacheKey: pageCacheKey(json) })
  for (const [name, cards] of made.cardFiles)
    paths.push({ params: { file: `${v}/${name}` }, props: { cards }, cacheKey: pageCacheKey(cards, town) })
  return paths
}) satisfies GetStaticPaths

/**
 * A file's JSON (made here), or how to read it (packed), or the businesses whose cards it holds (or
 * how to read them).
 */
type FileProps = {
  json?: string
  text?: () => string
  cards?: SearchIndexEntry[] | (() => SearchIndexEntry[])
}

/** Writes one file of the search index. */
export const GET: APIRoute<FileProps> = async ({ props }) => {
  if (props.json !== undefined) return jsonResponse(props.json)
  if (props.text) return jsonResponse(props.text())
  const { town } = await getCatalog()
  const cards = typeof props.cards === 'function' ? props.cards() : props.cards!
  return jsonResponse(JSON.stringify(cards.map((entry) => renderSearchCard(entry, town))))
}

const jsonResponse = (body: string) =>
  new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } })
