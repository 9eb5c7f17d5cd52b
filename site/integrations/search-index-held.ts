import { allBusinesses } from '@roland/scripts/catalog/queries'
import type { Business, Catalog } from '@roland/scripts/catalog/types'
import { processMemo, processSlot } from '@roland/scripts/process-slot'
import { sameElements } from '@roland/scripts/same-elements'
import { WordKeys } from '@roland/scripts/search/text'
import { pageCacheKey, textCacheKey } from '../lib/build-cache.ts'
import {
  listIndexFiles,
  listedFileText,
  manifestHoldsCards,
  toSearchIndexEntry,
  type PackedSearchIndex,
  type SearchIndexEntry,
} from '../lib/search-index.ts'
import { updateSearchIndex, type LastSearchIndex } from '../lib/search-index-update.ts'
import { keptIndexFile, readKeptIndex } from './search-index-kept.ts'

// A build's process that builds again (build-server.ts) holds the search index it made last, and
// updates it on its own thread from the catalog it reads: where a catalog reader (catalog-reader.ts)
// read the catalog again, made every business's entry, read the index kept on disk and packed it
// anew (at 100,000 businesses about 5 CPU-s, and the rebuild waited 2.4 s for it), the build looks
// up the entries of the businesses it read last (readCatalogFile's reuse keeps them the same
// objects), makes only the changed ones', and writes only the files they are in. When the index
// cannot be updated (a business added, removed or renamed numbers them anew), a reader makes it.

/** The index this process made or read last, for the site whose kept index is `file`, and each file's cacheKey. */
interface HeldIndex {
  file: string
  last: LastSearchIndex
  keys: Map<string, { json: string; key: string }>
  /** A card file's key covers its cards and the town they name (JSON): kept while both are the same. */
  cardKeys: Map<string, { cards: readonly SearchIndexEntry[]; key: string }>
  town: string
  /**
   * The update made for a catalog handed ahead (updateHeldIndexAhead), for the next build to take,
   * and what it was made from: the active businesses in order (the same objects) and the town (JSON).
   */
  ahead?: { businesses: readonly Business[]; town: string; result: ReturnType<typeof updateHeldIndex> }
}

const heldSlot = processSlot<HeldIndex | null>('roland.site.search-index-held')
/** The words' keys of the entries made in one call of entriesOf (one WordKeys for an index, as a reader uses). */
let wordKeys = new WordKeys()
/** Each business's entry and its JSON, by the business as read (a changed business is a new object). */
const entryOf = processMemo('roland.site.search-index-entries', (business: Business) => {
  const entry = toSearchIndexEntry(business, wordKeys)
  return { entry, json: JSON.stringify(entry) }
})

/** Whether this process holds an index it can update for the site this environment builds. */
export function holdsSearchIndex(env: NodeJS.ProcessEnv = process.env): boolean {
  return heldSlot.get()?.file === keptIndexFile(env)
}

/**
 * Takes up the index the last build kept on disk (search-index-kept.ts), once its reader has kept
 * it, and makes the entries of the businesses of the catalog it was made from: done while the
 * process waits on standby, so that its next build updates it here, making only the changed ones.
 */
export function holdKeptIndex(catalog?: Catalog, env: NodeJS.ProcessEnv = process.env): boolean {
  const file = keptIndexFile(env)
  const last = readKeptIndex(file)
  heldSlot.set(last && { file, last, keys: new Map(), cardKeys: new Map(), town: '' })
  if (last && catalog) makeEntries(catalog)
  return last !== null
}

/** Makes the entries of the catalog's businesses that have none yet (while the process waits). */
export function makeEntries(catalog: Catalog): void {
  entriesOf(allBusinesses(catalog))
}

/**
 * Updates the index held for a catalog handed ahead, while the process waits: a build handed the
 * same businesses (the same objects, readCatalogFile's reuse) and town takes that update as it is
 * (at 100,000 businesses, 0.3 s of its main thread before Astro could start). A failure is the
 * build's to say, which updates it again.
 */
export function updateHeldIndexAhead(catalog: Catalog): void {
  try {
    const held = heldSlot.get()
    if (!held || held.file !== keptIndexFile()) return makeEntries(catalog)
    const businesses = allBusinesses(catalog)
    const town = JSON.stringify(catalog.town)
    held.ahead = undefined
    held.ahead = { businesses, town, result: updateHeld(held, catalog, businesses, town) }
  } catch {
    // The build tries again, and a reader makes the index if it cannot.
  }
}

/** The businesses' entries and their JSON, each made once for the business as read. */
function entriesOf(businesses: readonly Business[]): { entries: SearchIndexEntry[]; entriesJson: string[] } {
  wordKeys = new WordKeys()
  const entries: SearchIndexEntry[] = []
  const entriesJson: string[] = []
  for (const business of businesses) {
    const made = entryOf(business)
    entries.push(made.entry)
    entriesJson.push(made.json)
  }
  return { entries, entriesJson }
}

/**
 * The catalog's search index, updated from the one held: null when none is held for this site, the
 * catalog is small enough for the pages to make it (its cards inline), or it cannot be updated.
 */
export function updateHeldIndex(
  catalog: Catalog,
): { index: PackedSearchIndex; changed: number; rewritten: number } | null {
  const held = heldSlot.get()
  if (!held || held.file !== keptIndexFile()) return null
  const businesses = allBusinesses(catalog)
  const town = JSON.stringify(catalog.town)
  // The catalog handed ahead was read as it came; the build's is that one checked and ordered
  // (readSiteCatalog), its businesses the same objects when nothing was left out.
  const ahead = held.ahead
  held.ahead = undefined
  if (ahead && ahead.town === town && sameElements(ahead.businesses, businesses)) return ahead.result
  return updateHeld(held, catalog, businesses, town)
}

function updateHeld(
  held: HeldIndex,
  catalog: Catalog,
  businesses: readonly Business[],
  town: string,
): { index: PackedSearchIndex; changed: number; rewritten: number } | null {
  if (manifestHoldsCards(businesses.length)) return null
  const { entries, entriesJson } = entriesOf(businesses)
  const updated = updateSearchIndex(held.last, entries, entriesJson)
  if (!updated) return null
  const { manifest, files } = updated.index
  held.last = { entries: entriesJson, index: { manifest, files, cardFiles: new Map() } }
  if (town !== held.town) held.cardKeys.clear()
  held.town = town
  const fileKeys = new Map<string, { json: string; key: string }>()
  const cardKeys = new Map<string, { cards: readonly SearchIndexEntry[]; key: string }>()
  const listed = listIndexFiles(
    updated.index,
    (json, name) => {
      // A file not written again is the same string as last time, and keeps its key.
      let known = held.keys.get(name)
      if (known?.json !== json) known = { json, key: textCacheKey(json) }
      fileKeys.set(name, known)
      return known.key
    },
    (cards, name) => {
      // The same entries (the same objects: the same businesses, unchanged) keep their key.
      let known = held.cardKeys.get(name)
      if (!known || known.cards.length !== cards.length || known.cards.some((entry, n) => entry !== cards[n]))
        known = { cards, key: pageCacheKey(cards, catalog.town) }
      cardKeys.set(name, known)
      return known.key
    },
  )
  held.keys = fileKeys
  held.cardKeys = cardKeys
  const { names, keys, firstCardFile } = listed
  const index: PackedSearchIndex = {
    manifest,
    names,
    keys,
    firstCardFile,
    ends: new Uint32Array(0),
    text: new Uint8Array(0),
    textOf: (n) => listedFileText(listed.held[n]!),
  }
  return { index, changed: updated.changed, rewritten: updated.rewritten }
}
