// Reads the site's catalog on a thread of its own (build-thread.ts, readCatalogOnThread), sends it
// to the main thread and ends: the embedded database's WebAssembly memory (hundreds of megabytes at
// 100,000 businesses) goes with the thread, which nothing else could free. When the rebuild hands
// the catalog over (@roland/scripts/rebuild/build-process), the main thread reads that file itself
// and this thread reads it only to make the search index.
import { once } from 'node:events'
import { parentPort, workerData } from 'node:worker_threads'
import { keepWasmInBaseline } from '@roland/scripts/store/baseline-wasm'
import { allBusinesses } from '@roland/scripts/catalog/queries'
import type { Catalog } from '@roland/scripts/catalog/types'
import { WordKeys } from '@roland/scripts/search/text'
import { readCatalogFile, type ToBuild } from '@roland/scripts/rebuild/build-process'
import { readSiteCatalog } from '../lib/catalog-source.ts'
import { buildSearchIndex, manifestHoldsCards, toSearchIndexEntry } from '../lib/search-index.ts'
import { threadError, type CatalogMessage, type ReaderData } from './build-thread.ts'

// Ten times V8's budget, not the CLI's 77: the same CPU time saved on a small catalog (a test site's
// build: 1.1 s instead of 1.7-2.7 s to open the database and read it, 2 s less CPU time), and at
// 10,000 businesses the same read time without the 300 MB more it peaked at in baseline code.
keepWasmInBaseline(130_000_000)
const send = (message: CatalogMessage) => parentPort!.postMessage(message)

const { handedOver } = workerData as ReaderData
// A catalog handed over is read from its file by the main thread too (build-thread.ts), which
// warns of what it leaves out: this thread reads it only for the search index.
const catalog = await (handedOver ? readSiteCatalog(() => {}, handedOverCatalog) : readSiteCatalog()).catch(
  (error: unknown) => {
    send({ type: 'catalog-failed', error: threadError(error) })
    return null
  },
)
if (catalog) {
  if (!handedOver) send({ type: 'catalog', catalog })
  send(searchIndexOf(catalog))
}

/** The catalog as the rebuild read it (build-process.ts), or its failure to read it. */
async function handedOverCatalog(): Promise<Catalog> {
  const [handover] = (await once(parentPort!, 'message')) as [ToBuild]
  if (handover.type === 'catalog-unread') throw new Error(handover.message)
  if (handover.type !== 'catalog-file')
    throw new Error(`The catalog reader was sent ${handover.type}, not the catalog.`)
  return readCatalogFile(handover.file)
}

/**
 * The businesses page's search index, made while Astro is still bundling the site: on the main
 * thread it held up the pages (0.17 s of a 3.5 s rebuild at 10,000 businesses). A catalog small
 * enough for the index to hold its cards gets it there instead: the cards are drawn with React,
 * which only the site's bundle has (site/lib/search-build.ts).
 */
function searchIndexOf(catalog: Catalog): CatalogMessage {
  try {
    const wordKeys = new WordKeys()
    const entries = allBusinesses(catalog).map((business) => toSearchIndexEntry(business, wordKeys))
    if (manifestHoldsCards(entries.length)) return { type: 'search-index', index: null }
    const noCards = () => {
      throw new Error('The catalog reader draws no cards: a small index is made with the pages.')
    }
    return { type: 'search-index', index: buildSearchIndex(entries, noCards) }
  } catch (error) {
    return { type: 'search-index-failed', error: threadError(error) }
  }
}
