import type { Business, Town } from '@roland/scripts/catalog/types'
import type { BusinessCardData } from './business-card.ts'
import { pageCacheKey, textCacheKey } from './build-cache.ts'
import { cardImage, type ShownImage } from './business-images.ts'
import { cardDescription, categoryBadgeLabel } from './business-text.ts'
import { telUrl } from './links.ts'
import { buildWordIndex, type SearchDoc } from '@roland/scripts/search/matcher'
import { presetTerms } from '@roland/scripts/search/presets'
import type { WordKeys } from '@roland/scripts/search/text'
import {
  encodeSet,
  fileKey,
  keyShard,
  lower,
  wordsAndPairs,
  type InlineDoc,
  type KeyPostings,
  type NextChars,
  type SearchManifest,
  type WordList,
  type WordPostings,
} from './search-shards.ts'

// The businesses page's search index (search-shards.ts says how it is split): every listed business
// with only what a card shows and what the filter reads, fetched when the visitor starts to search
// (never with the page itself).

/** One business of the index; empty fields are left out rather than written as null. */
export interface SearchIndexEntry {
  slug: string
  name: string
  category: string
  short_description?: string
  full_description?: string
  address?: string
  phone?: string
  hours?: string
  is_featured?: true
  image?: ShownImage
  /** What the business is, beyond its words: its presets' names and terms, and its search words. */
  what?: string[]
  /** Its services' names. */
  services?: string[]
}

const present = (text: string | null): string | undefined => (text === null || text === '' ? undefined : text)

/**
 * Makes the index entry of a business, its words keyed by `wordKeys` (one for the whole index). An
 * empty description is left out: the filter and the card treat "" and null alike (neither contains
 * a search, neither is shown).
 */
export function toSearchIndexEntry(business: Business, wordKeys: WordKeys): SearchIndexEntry {
  const image = cardImage(business)
  const services = business.services.map((service) => service.service_name).filter((name) => name !== '')
  const what = [
    ...presetTerms({ ...business, services }, wordKeys.of),
    ...business.search_words.filter((word) => word.trim() !== ''),
  ]
  return {
    slug: business.slug,
    name: business.name,
    category: business.category,
    short_description: present(business.short_description),
    full_description: present(business.full_description),
    address: present(business.address),
    phone: present(business.phone),
    hours: present(business.hours),
    is_featured: business.is_featured ? true : undefined,
    image: image ?? undefined,
    what: what.length > 0 ? what : undefined,
    services: services.length > 0 ? services : undefined,
  }
}

/** What the matcher reads of an index entry: its name, what it is (its category too), services, descriptions. */
export function searchDocOf(entry: SearchIndexEntry): SearchDoc {
  return {
    name: entry.name,
    what: [...(entry.what ?? []), entry.category],
    services: entry.services,
    descriptions: [entry.short_description, entry.full_description],
  }
}

/** How the index is split: the defaults suit a catalog of a few hundred to 100,000 businesses. */
export interface SearchIndexOptions {
  /** Up to this many businesses, the manifest holds the whole index (one small file). */
  inlineLimit: number
  cardsPerFile: number
  textsPerFile: number
}

/** Cards of 8 businesses a file: a first page of 24 scattered results costs at most 24 small files. */
export const searchIndexDefaults: SearchIndexOptions = { inlineLimit: 200, cardsPerFile: 8, textsPerFile: 250 }

/** Whether the manifest of an index of `count` businesses holds their cards (buildSearchIndex draws them). */
export function manifestHoldsCards(count: number, options: SearchIndexOptions = searchIndexDefaults): boolean {
  return count <= options.inlineLimit
}

/** The files of the index: its manifest, its other files (name to JSON), and the businesses of each card file. */
export interface SearchIndexFiles {
  manifest: SearchManifest
  files: Map<string, string>
  cardFiles: Map<string, SearchIndexEntry[]>
}

/**
 * The files of an index as the build's catalog reader sends them (site/integrations/catalog-reader.ts):
 * their text in one buffer, handed to the build's thread rather than copied, and each file's cacheKey
 * worked out beside it. A rebuild writes a few dozen of the files; the build's thread reads the text
 * of those only (packedFileText). At 100,000 businesses a copy of the index's files took 1.3 s of
 * the reader's time and the build's; packed, 0.3 s, and their keys 0.15 s, on the reader's thread.
 */
export interface PackedSearchIndex {
  manifest: SearchManifest
  names: string[]
  /** Each file's cacheKey: textCacheKey of its JSON, or pageCacheKey of a card file's businesses and the town. */
  keys: string[]
  /** The files from this one on are card files: their text is their businesses' entries, drawn by the pages. */
  firstCardFile: number
  /** Where each file's text ends in `text`, in bytes. */
  ends: Uint32Array
  /** The files' text, one after another, as UTF-8. */
  text: Uint8Array<ArrayBuffer>
  /** The `n`-th file's text, in place of `text`: an index updated on the build's own thread (search-index-held.ts). */
  textOf?: (n: number) => string
}

/**
 * The files of an index as a packed one lists them (PackedSearchIndex), the card files last: each
 * one's name, its cacheKey and what it holds, its JSON or a card file's businesses' entries.
 */
export function listIndexFiles(
  index: SearchIndexFiles,
  keyOfText: (json: string, name: string) => string,
  keyOfCards: (cards: readonly SearchIndexEntry[], name: string) => string,
): { names: string[]; keys: string[]; firstCardFile: number; held: Array<string | readonly SearchIndexEntry[]> } {
  const names: string[] = []
  const keys: string[] = []
  const held: Array<string | readonly SearchIndexEntry[]> = []
  for (const [name, json] of index.files) {
    names.push(name)
    keys.push(keyOfText(json, name))
    held.push(json)
  }
  const firstCardFile = names.length
  for (const [name, cards] of index.cardFiles) {
    names.push(name)
    keys.push(keyOfCards(cards, name))
    held.push(cards)
  }
  return { names, keys, firstCardFile, held }
}

/** A listed file's text (listIndexFiles): a card file's is its entries as JSON. */
export const listedFileText = (held: string | readonly SearchIndexEntry[]): string =>
  typeof held === 'string' ? held : JSON.stringify(held)

/** Packs an index for the build's thread (PackedSearchIndex); a card file's key covers the town its cards name. */
export function packSearchIndex(index: SearchIndexFiles, town: Town): PackedSearchIndex {
  const { names, keys, firstCardFile, held } = listIndexFiles(index, textCacheKey, (cards) => pageCacheKey(cards, town))
  const texts = held.map(listedFileText)
  let bytes = 0
  for (const json of texts) bytes += Buffer.byteLength(json)
  const text = Buffer.allocUnsafeSlow(bytes)
  const ends = new Uint32Array(texts.length)
  let at = 0
  texts.forEach((json, n) => {
    at += text.write(json, at)
    ends[n] = at
  })
  return { manifest: index.manifest, names, keys, firstCardFile, ends, text }
}

/** The text of the `n`-th file of a packed index. */
export function packedFileText(index: PackedSearchIndex, n: number): string {
  if (index.textOf) return index.textOf(n)
  const { text, ends } = index
  return Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8', n === 0 ? 0 : ends[n - 1], ends[n])
}

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/** The texts of a business that the filter reads (x/, and a manifest's docs): its name, short and full description. */
export const entryTexts = (entry: SearchIndexEntry): InlineDoc['t'] => [
  entry.name,
  entry.short_description ?? null,
  entry.full_description ?? null,
]

/** The categories of the listed businesses, sorted: c/{n}.json is the n-th. */
export const indexCategories = (entries: readonly SearchIndexEntry[]): string[] =>
  [...new Set(entries.map((entry) => entry.category))].sort((a, b) => a.localeCompare(b, 'en'))

/** The manifest's numbering (SearchManifest.v): which business each number is, which category, how many a file holds. */
export const indexVersion = (
  entries: readonly SearchIndexEntry[],
  categories: readonly string[],
  options: SearchIndexOptions,
): string =>
  pageCacheKey(
    entries.map((entry) => entry.slug),
    categories,
    options,
  ).slice(0, 12)

/** The p/ file of a pair of words: the three characters around its space. */
export function pairKey(pair: string): string {
  const space = pair.indexOf(' ')
  return pair.slice(space - 1, space + 2)
}

/**
 * What n/{char}.json says, from the strings found that begin with that character: the second
 * characters of its two-character strings, the third of its three-character ones (by the second),
 * and the characters after it and a space in pairs of words. Each in code-unit order.
 */
export function nextCharsOf(
  seconds: Iterable<string>,
  thirdsAfter: (second: string) => Iterable<string>,
  afterSpace: Iterable<string>,
): NextChars {
  const sorted = [...seconds].sort()
  return {
    g: sorted.join(''),
    t: Object.fromEntries(
      sorted.flatMap((second) => {
        const third = [...thirdsAfter(second)].sort().join('')
        return third === '' ? [] : [[second, third]]
      }),
    ),
    p: [...afterSpace].sort().join(''),
  }
}

/** The card files of the index (d/): the businesses of each, drawn as the files are written. */
export function cardFilesOf(
  entries: readonly SearchIndexEntry[],
  options: SearchIndexOptions,
): Map<string, SearchIndexEntry[]> {
  return new Map(chunks(entries, options.cardsPerFile).map((chunk, index) => [`d/${index}.json`, chunk]))
}

/** An entry of a w/ file: a key, with the word it stands for when that differs. */
export const wordListEntry = (key: string, surface: string): WordList[number] =>
  surface === key ? key : [key, surface]

/** The featured businesses of the manifest. */
export const featuredOf = (entries: readonly SearchIndexEntry[]) =>
  encodeSet(entries.flatMap((entry, id) => (entry.is_featured ? [id] : [])))

/**
 * Adds a business (numbered in ascending order) to the set of a key. Returns how many businesses
 * the key now has (1: it was first met), or 0 when the business was there already.
 */
function addTo(sets: Map<string, number[]>, key: string, id: number): number {
  const ids = sets.get(key)
  if (!ids) {
    sets.set(key, [id])
    return 1
  }
  return ids.at(-1) === id ? 0 : ids.push(id)
}

/** Adds a member to the set of a key, making the set the first time. */
export function addMember(sets: Map<string, Set<string>>, key: string, member: string): void {
  const set = sets.get(key)
  if (set) set.add(member)
  else sets.set(key, new Set([member]))
}

/**
 * Makes the index of the listed businesses (in list order, numbered from 0): the manifest the page
 * fetches, and the files it fetches as searches need them. `renderCard` draws a card as HTML; it is
 * called here only for a catalog small enough to be inlined (the card files are drawn when written).
 */
export function buildSearchIndex(
  entries: readonly SearchIndexEntry[],
  renderCard: (entry: SearchIndexEntry) => string,
  options: SearchIndexOptions = searchIndexDefaults,
): SearchIndexFiles {
  const categories = indexCategories(entries)
  const categoryOf = new Map(categories.map((category, index) => [category, index]))
  const texts = entries.map(entryTexts)
  const words = new Map<string, number[]>()
  const pairs = new Map<string, number[]>()
  const wordsOfTrigram = new Map<string, Set<string>>()
  const pairsOfKey = new Map<string, Set<string>>()
  const next = new Map<string, Set<string>>()
  const thirds = new Map<string, Set<string>>()
  const afterSpace = new Map<string, Set<string>>()
  // The strings of one and two characters the words hold, numbered as first met, with each one's
  // businesses: a business's words share most of their strings, and a look-up by number, not by the
  // string, tells that one is there already (the whole index 10% faster at 100,000 businesses).
  const gramNames: string[] = []
  const gramIds: number[][] = []
  const gramNumbers = new Map<string, number>()
  // What a word adds to the files is worked out once per distinct word (its strings' numbers, and
  // what the n/ and t/ files learn of it); a business then adds its number to their sets.
  const gramsOfWord = new Map<string, number[]>()
  const gramsOf = (word: string): number[] => {
    let known = gramsOfWord.get(word)
    if (known) return known
    const found = new Set<string>()
    for (let i = 0; i < word.length; i++) {
      found.add(word[i]!)
      if (i + 1 >= word.length) continue
      found.add(word.slice(i, i + 2))
      addMember(next, word[i]!, word[i + 1]!)
      if (i + 2 >= word.length) continue
      addMember(wordsOfTrigram, word.slice(i, i + 3), word)
      addMember(thirds, word.slice(i, i + 2), word[i + 2]!)
    }
    known = [...found].map((gram) => {
      let number = gramNumbers.get(gram)
      if (number === undefined) {
        number = gramNames.push(gram) - 1
        gramNumbers.set(gram, number)
        gramIds.push([])
      }
      return number
    })
    gramsOfWord.set(word, known)
    return known
  }
  for (const [id, fields] of texts.entries()) {
    for (const field of fields) {
      if (field === null) continue
      const split = wordsAndPairs(lower(field))
      for (const word of split.words) {
        if (addTo(words, word, id) === 0) continue
        for (const gram of gramsOf(word)) {
          const ids = gramIds[gram]!
          if (ids.at(-1) !== id) ids.push(id)
        }
      }
      for (const pair of split.pairs) {
        // What the p/ and n/ files learn of a pair, the first time it is met.
        if (addTo(pairs, pair, id) !== 1) continue
        const key = pairKey(pair)
        addMember(pairsOfKey, key, pair)
        addMember(afterSpace, key[0]!, key[2]!)
      }
    }
  }
  const chars = gramNames.filter((gram) => gram.length === 1).sort()
  const manifest: SearchManifest = {
    v: indexVersion(entries, categories, options),
    count: entries.length,
    categories,
    cardsPerFile: options.cardsPerFile,
    textsPerFile: options.textsPerFile,
    chars: chars.join(''),
    featured: featuredOf(entries),
  }
  const files = new Map<string, string>()
  const write = (name: string, data: unknown) => files.set(name, JSON.stringify(data))
  if (manifestHoldsCards(entries.length, options)) {
    manifest.docs = entries.map((entry, id) => ({
      c: categoryOf.get(entry.category)!,
      t: texts[id]!,
      h: renderCard(entry),
      ...(entry.what ? { w: entry.what } : {}),
      ...(entry.services ? { s: entry.services } : {}),
    }))
    return { manifest, files, cardFiles: new Map() }
  }
  manifest.keyChars = writeWordFiles(entries, write)
  const byCategory = categories.map(() => [] as number[])
  entries.forEach((entry, id) => byCategory[categoryOf.get(entry.category)!]!.push(id))
  byCategory.forEach((ids, index) => write(`c/${index}.json`, encodeSet(ids)))
  const none = new Set<string>()
  for (const char of chars) {
    const nextChars = nextCharsOf(
      next.get(char) ?? none,
      (second) => thirds.get(char + second) ?? none,
      afterSpace.get(char) ?? none,
    )
    write(`n/${fileKey(char)}.json`, nextChars)
  }
  gramNames.forEach((gram, number) => write(`g/${fileKey(gram)}.json`, encodeSet(gramIds[number]!)))
  const postings = (set: Set<string>, of: Map<string, number[]>): WordPostings =>
    [...set].sort().map((word) => [word, encodeSet(of.get(word)!)])
  for (const [trigram, set] of wordsOfTrigram) write(`t/${fileKey(trigram)}.json`, postings(set, words))
  for (const [key, set] of pairsOfKey) write(`p/${fileKey(key)}.json`, postings(set, pairs))
  chunks(texts, options.textsPerFile).forEach((chunk, index) => write(`x/${index}.json`, chunk))
  return { manifest, files, cardFiles: cardFilesOf(entries, options) }
}

/**
 * Writes the matcher's part of the index (scripts/src/search/matcher.ts): for each first character,
 * the keys beginning with it and a word each stands for (w/), and for each first three characters,
 * the keys beginning with them and their businesses, with the rank of the key in each (k/). Returns
 * the characters that have a w/ file.
 */
function writeWordFiles(entries: readonly SearchIndexEntry[], write: (name: string, data: unknown) => void): string {
  const index = buildWordIndex(entries.map(searchDocOf))
  const byChar = new Map<string, WordList>()
  const byShard = new Map<string, KeyPostings>()
  for (const key of [...index.postings.keys()].sort()) {
    const surface = index.surface(key)
    const list = byChar.get(key[0]!) ?? []
    list.push(wordListEntry(key, surface))
    byChar.set(key[0]!, list)
    const posting = index.postings.get(key)!
    const shard = byShard.get(keyShard(key)) ?? []
    shard.push([key, encodeSet(posting.ids), posting.ranks.join('')])
    byShard.set(keyShard(key), shard)
  }
  for (const [char, list] of byChar) write(`w/${fileKey(char)}.json`, list)
  for (const [shard, postings] of byShard) write(`k/${fileKey(shard)}.json`, postings)
  return [...byChar.keys()].join('')
}

/** Makes the card of an index entry: the same card the static list shows for that business. */
export function searchIndexCard(
  entry: SearchIndexEntry,
  town: Pick<Town, 'name' | 'state' | 'country'>,
): BusinessCardData {
  const texts = {
    name: entry.name,
    short_description: entry.short_description ?? null,
    full_description: entry.full_description ?? null,
  }
  return {
    slug: entry.slug,
    category: entry.category,
    ...texts,
    address: entry.address ?? null,
    phone: entry.phone ?? null,
    hours: entry.hours ?? null,
    is_featured: entry.is_featured === true,
    badge: categoryBadgeLabel(entry.category),
    description: cardDescription(texts, town),
    tel: entry.phone ? telUrl(entry.phone, town.country) : null,
    image: entry.image ?? null,
  }
}
