import type { APIRoute, GetStaticPaths } from 'astro'
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
  // Each file's cacheKey comes with it (search-index.ts, packSearchIndex): a file's text is read only
  // when the file is written.
  return made.names.map((name, n) => {
    const text = () => packedFileText(made, n)
    const props: FileProps =
      n < made.firstCardFile ? { text } : { cards: () => JSON.parse(text()) as SearchIndexEntry[] }
    return { params: { file: `${made.manifest.v}/${name}` }, props, cacheKey: made.keys[n]! }
  })
}) satisfies GetStaticPaths

/**
 * A file's text, or the businesses whose cards it holds. A card without a description says the
 * town's name: a card file's cacheKey covers the town.
 */
type FileProps = { text: () => string; cards?: never } | { text?: never; cards: () => SearchIndexEntry[] }

/** Writes one file of the search index. */
export const GET: APIRoute<FileProps> = async ({ props }) => {
  if (props.text) return jsonResponse(props.text())
  const { town } = await getCatalog()
  return jsonResponse(JSON.stringify(props.cards().map((entry) => renderSearchCard(entry, town))))
}

const jsonResponse = (body: string) =>
  new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } })
