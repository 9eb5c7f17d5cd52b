// Reads the site's catalog on a thread of its own (catalog-read.ts, readCatalogOnThread), sends it
// to the main thread and ends: the embedded database's WebAssembly memory (hundreds of megabytes at
// 100,000 businesses) goes with the thread, which nothing else could free. When the rebuild hands
// the catalog over (@roland/scripts/rebuild/build-process), the main thread reads that file itself
// and this thread reads it only to make the search index; handed ahead, on standby
// (catalog-reader-ahead.ts), it makes that index before the build starts.
import { once } from 'node:events'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { parentPort, workerData } from 'node:worker_threads'
import { keepWasmInBaselineOnly } from '@roland/scripts/store/baseline-wasm'
import { allBusinesses } from '@roland/scripts/catalog/queries'
import type { Catalog } from '@roland/scripts/catalog/types'
import { WordKeys } from '@roland/scripts/search/text'
import { readCatalogFile } from '@roland/scripts/rebuild/build-process'
import { readSiteCatalog } from '../lib/catalog-source.ts'
import { processSlot } from '@roland/scripts/process-slot'
import { buildSearchIndex, manifestHoldsCards, packSearchIndex, toSearchIndexEntry } from '../lib/search-index.ts'
import { updateSearchIndex } from '../lib/search-index-update.ts'
import type { CatalogMessage, ReaderData, ReaderHandover } from './catalog-read.ts'
import { keepIndex, keptIndexFile, readKeptIndex } from './search-index-kept.ts'
import { threadError } from './thread-error.ts'

// PGlite in baseline code alone, as in every process of the project (baseline-wasm.ts; the build's
// process has the flags already, from its command line or astro.config.mjs: set again, they are the
// same). Reading the catalog alone (site/lib/catalog-source.ts, then waiting for V8's background
// compiles as a build does), at a budget of 130,000,000 and at the largest budget: 10,000 businesses
// in 2.1-2.2 s, 4.4 CPU-s and 800 MB at most, then 1.8-1.9 s, 2.6 CPU-s and 280 MB; 100,000 in
// 10.5 s, 13.7 CPU-s and 767 MB, then 10.8-11.0 s, 12.4 CPU-s and 630 MB. In baseline code alone,
// `pnpm bench site` at 10,000 built in 25.0 s against 26.6 s at the largest budget, one run after
// the other (rebuilds 2.4, 1.5, 1.2 s against 2.4, 1.3, 1.3).
keepWasmInBaselineOnly()
const send = (message: CatalogMessage, moved: ArrayBuffer[] = []) => parentPort!.postMessage(message, moved)

const { handedOver, ahead } = workerData as ReaderData
// Listened for from the start: the handover may come while this thread works on a catalog ahead.
const handover = handedOver ? (once(parentPort!, 'message') as Promise<[ReaderHandover]>) : null

if (ahead) {
  // Noted by catalog-reader-ahead.ts, under the same key.
  const loaded = processSlot<Set<string>>('roland.site.reader-modules').get()
  send({ type: 'loaded', urls: [...(loaded ?? [])] })
  await searchIndexAhead(ahead)
} else {
  // A catalog handed over is read from its file by the main thread too (catalog-read.ts), which
  // warns of what it leaves out: this thread reads it only for the search index.
  const made = await readAndIndex()
  made?.send()
}

/**
 * Reads the catalog, sends it to the build (unless it was handed over) and makes its index; null
 * when it cannot be read. The catalog goes with this function's end, before the index is kept (at
 * 100,000 businesses, a quarter of a gigabyte).
 */
async function readAndIndex(): Promise<MadeIndex | null> {
  const catalog = await (handedOver ? readSiteCatalog(() => {}, handedOverCatalog) : readSiteCatalog()).catch(
    (error: unknown) => {
      send({ type: 'catalog-failed', error: threadError(error) })
      return null
    },
  )
  if (!catalog) return null
  if (!handedOver) send({ type: 'catalog', catalog })
  return searchIndexOf(catalog)
}

/** The catalog as the rebuild read it (build-process.ts), or its failure to read it. */
async function handedOverCatalog(): Promise<Catalog> {
  const [message] = await handover!
  Object.assign(process.env, message.env)
  if (message.type === 'catalog-unread') throw new Error(message.message)
  return readCatalogFile(message.file)
}

/**
 * For a catalog handed ahead, on standby (catalog-read.ts, readCatalogAhead): reads it and makes
 * its search index, then, handed over the same file once the build starts, sends that index. The
 * build's environment may leave out other images than the one on standby did (its data folder,
 * its storage files): the index is made again if it does.
 */
async function searchIndexAhead(file: string): Promise<void> {
  const read = readCatalogFile(file)
  const reread = () => read.catch(() => readCatalogFile(file))
  // What the catalog leaves out (readSiteCatalog's warnings), and its index, as made on standby.
  const madeWith = async () => {
    const warnings: string[] = []
    const catalog = await readSiteCatalog((warning) => warnings.push(warning), reread)
    return { warnings: warnings.join('\n'), catalog }
  }
  const guess = await madeWith().then(
    ({ warnings, catalog }) => ({ warnings, made: searchIndexOf(catalog) }),
    () => null,
  )
  const [message] = await handover!
  Object.assign(process.env, message.env)
  // Only ever handed over the file it was handed ahead (catalog-read.ts ends it otherwise).
  const index = await madeWith().then(
    ({ warnings, catalog }) => (guess?.warnings === warnings ? guess.made : searchIndexOf(catalog)),
    (error: unknown) => {
      send({ type: 'catalog-failed', error: threadError(error) })
      return null
    },
  )
  index?.send()
}

/** An index made (searchIndexOf), to send to the build: it is then kept for the next (search-index-kept.ts). */
interface MadeIndex {
  send(): void
}

/**
 * Collects this thread's garbage now: what a split index is made with (its strings' sets, the
 * catalog; at 100,000 businesses, half this thread's heap, 300 MB), which V8 would otherwise hold
 * while the index is kept.
 */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}

/**
 * The businesses page's search index, made while Astro is still bundling the site: on the main
 * thread it held up the pages (0.17 s of a 3.5 s rebuild at 10,000 businesses). A catalog small
 * enough for the index to hold its cards gets it there instead: the cards are drawn with React,
 * which only the site's bundle has (site/lib/search-build.ts).
 */
function searchIndexOf(catalog: Catalog): MadeIndex {
  try {
    const wordKeys = new WordKeys()
    const entries = allBusinesses(catalog).map((business) => toSearchIndexEntry(business, wordKeys))
    if (manifestHoldsCards(entries.length)) return { send: () => send({ type: 'search-index', index: null }) }
    // Updated from the index the last build kept, when it can be (search-index-update.ts).
    const file = keptIndexFile()
    const entriesJson = entries.map((entry) => JSON.stringify(entry))
    const last = readKeptIndex(file)
    const updated = last && updateSearchIndex(last, entries, entriesJson)
    const noCards = () => {
      throw new Error('The catalog reader draws no cards: a small index is made with the pages.')
    }
    const index = updated ? updated.index : buildSearchIndex(entries, noCards)
    const how = updated ? { changed: updated.changed, rewritten: updated.rewritten } : null
    // What is kept: not the cards' entries (their JSON is kept), which go once the index is sent.
    const kept = { manifest: index.manifest, files: index.files, cardFiles: new Map() }
    // Sent packed: its text moved to the build's thread, not copied (PackedSearchIndex).
    const packed = packSearchIndex(index, catalog.town)
    let message: CatalogMessage | null = { type: 'search-index', index: packed, updated: how }
    const keep = () => {
      collectGarbage()
      keepIndex(file, entriesJson, kept)
    }
    return {
      // An index made anew is kept before it is sent, and this thread ends as it goes: kept after,
      // this thread held it while the main thread took it in (at 100,000 businesses, the full
      // build's peak was 280 MB higher, at 1.75 GB). An index updated is sent first: a rebuild
      // waits for it, and what this thread holds then is small.
      send: () => {
        if (!updated) keep()
        send(message!, [packed.text.buffer])
        message = null
        if (updated) keep()
      },
    }
  } catch (error) {
    return { send: () => send({ type: 'search-index-failed', error: threadError(error) }) }
  }
}
