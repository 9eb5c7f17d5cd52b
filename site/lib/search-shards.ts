import {
  buildWordIndex,
  matchScores,
  queryChars,
  queryMatches,
  queryWords,
  rankingOf,
  rankSearch,
  suggestQuery,
  type Posting,
  type Ranking,
  type WordSource,
} from '@roland/scripts/search/matcher'
import { filtersActive, prepareSearch, searchPrepared, type BusinessFilters } from './business-filter.ts'

// The businesses search, split into small static files so that a search downloads only what it
// needs, whatever the size of the catalog. The rule stays SPEC §7's (business-filter.ts): the
// category equals the choice, and the search text, trimmed and lowercased, is a substring of the
// lowercased name, short or full description. The files make that rule exact without the texts:
//
// - A search without spaces can only occur inside one word of a field (a run of non-spaces), so
//   the businesses it finds are those having a word that contains it. g/ holds, for each string of
//   one or two characters found in a word, the businesses that have it; t/ holds, for each string
//   of three, the words that contain it and the businesses having each word.
// - A search with one space between two words can only occur across two words of a field written
//   with one space between them: p/ holds those pairs of words, under the three characters around
//   their space, and the businesses having each pair.
// - Any other search (three words or more, two spaces, a tab) takes the businesses having all of its
//   words, then checks the phrase in their texts (x/).
//
// Every file is small; which ones exist is listed in n/ (one per first character), so a search never
// asks for a file that is not there. A catalog of a few hundred businesses is searched as one file.
//
// Those results come first. The search also finds what a visitor means (scripts/src/search/matcher.ts):
// w/ lists, for each first character, the keys (stems) of the businesses' words, names and what
// they are (presets, search words, category), services and descriptions; k/ holds, for each first
// three characters of a key, its businesses and where in each it was found. A search fetches the
// w/ file of each word's first letter, then the k/ files of the keys its words match, and ranks.

/** Where the businesses page fetches the index's manifest; the other files are beside it in search/. */
export const searchIndexPath = '/businesses/search-index.json'

/** The folder of the index's files. */
export const searchFilesPath = '/businesses/search/'

/** A business of a manifest that holds the whole index (a small catalog). */
export interface InlineDoc {
  /** Its category, an index into the manifest's categories. */
  c: number
  /** Its name, short and full description. */
  t: [string, string | null, string | null]
  /** Its card, as HTML. */
  h: string
  /** What it is (presets' names and terms, search words), when anything. */
  w?: string[]
  /** Its services' names, when it has any. */
  s?: string[]
}

/** The index's manifest: what the page fetches first. */
export interface SearchManifest {
  /**
   * The numbering of the files: they are under search/{v}/. It changes when the businesses' numbers
   * or the categories' do (a business added, removed or renamed), so a page holding the manifest of
   * an older build never reads another build's numbers: its files are gone (404), and it fetches the
   * manifest again.
   */
  v: string
  /** How many businesses are listed, numbered 0… in list order. */
  count: number
  /** The categories of the listed businesses; c/{n}.json lists the businesses of the n-th. */
  categories: string[]
  /** How many cards each d/{n}.json holds, and texts each x/{n}.json. */
  cardsPerFile: number
  textsPerFile: number
  /** The characters found in the words of the texts: each has an n/ file. */
  chars: string
  /** The whole index, when the catalog is small enough to be searched in one file. */
  docs?: InlineDoc[]
  /** The featured businesses: first among equals in a ranking. */
  featured: EncodedSet
  /** The first characters of the matcher's keys: each has a w/ file (not in a manifest that holds docs). */
  keyChars?: string
}

/** What w/{char}.json lists: the keys beginning with that character, sorted, each with the word it stands for when that differs. */
export type WordList = Array<string | [key: string, surface: string]>

/** What k/{three characters}.json holds: each key beginning with them, its businesses, and the rank of the key in each (a digit). */
export type KeyPostings = Array<[key: string, ids: EncodedSet, ranks: string]>

/** The k/ file of a key: its first three characters (a shorter key is its own). */
export const keyShard = (key: string) => key.slice(0, 3)

/** What n/{char}.json lists of the strings starting with that character. */
export interface NextChars {
  /** The second characters of the two-character strings found in words (each has a g/ file). */
  g: string
  /** For each second character, the third characters of the three-character strings found in words (t/). */
  t: Record<string, string>
  /** The characters found after this one and a space in pairs of words (each pair has a p/ file). */
  p: string
}

/** A sorted set of business numbers, as gaps: [first, second - first, …] (small numbers compress well). */
export type EncodedSet = number[]

/** Words (or pairs of words) and the businesses having each. */
export type WordPostings = Array<[string, EncodedSet]>

/** Writes a string as a file name: each UTF-16 unit as four hex digits (any character is safe). */
export function fileKey(text: string): string {
  let key = ''
  for (let i = 0; i < text.length; i++) key += text.charCodeAt(i).toString(16).padStart(4, '0')
  return key
}

/** Reads a file name's string back (fileKey's inverse). */
export function fromFileKey(key: string): string {
  let text = ''
  for (let i = 0; i < key.length; i += 4) text += String.fromCharCode(Number.parseInt(key.slice(i, i + 4), 16))
  return text
}

/** Encodes ascending business numbers as gaps. */
export function encodeSet(ids: readonly number[]): EncodedSet {
  return ids.map((id, i) => (i === 0 ? id : id - ids[i - 1]!))
}

/** Decodes gaps into ascending business numbers. */
export function decodeSet(gaps: EncodedSet): number[] {
  const ids = new Array<number>(gaps.length)
  let id = 0
  for (let i = 0; i < gaps.length; i++) ids[i] = id += gaps[i]!
  return ids
}

/** Lowercases a text as the filter does. */
export const lower = (text: string) => text.toLocaleLowerCase('en')

/**
 * Splits a lowercased field into its words (runs of non-spaces) and its pairs of words written with
 * one space between them ("fresh coffee"): what g/, t/ and p/ index.
 */
export function wordsAndPairs(field: string): { words: string[]; pairs: string[] } {
  // Split on a captured gap: words at even places, the gaps between them at odd ones.
  const parts = field.split(/(\s+)/)
  const words: string[] = []
  const pairs: string[] = []
  for (let i = 0; i < parts.length; i += 2) {
    const word = parts[i]!
    if (word === '') continue
    words.push(word)
    const next = parts[i + 2]
    if (parts[i + 1] === ' ' && next) pairs.push(`${word} ${next}`)
  }
  return { words, pairs }
}

/** Reads a fetched manifest, failing with a message when it is not one (a stale or broken file). */
export function parseSearchManifest(json: unknown): SearchManifest {
  const manifest = json as Partial<SearchManifest> | null
  const valid =
    typeof manifest === 'object' &&
    manifest !== null &&
    typeof manifest.v === 'string' &&
    /^[\w-]+$/.test(manifest.v) &&
    typeof manifest.count === 'number' &&
    Array.isArray(manifest.categories) &&
    typeof manifest.chars === 'string' &&
    typeof manifest.cardsPerFile === 'number' &&
    typeof manifest.textsPerFile === 'number' &&
    Array.isArray(manifest.featured)
  if (!valid) throw new Error(`${searchIndexPath} is not a search index: rebuild the site.`)
  return manifest as SearchManifest
}

/** Where one file of the index is: under searchFilesPath, in the folder of the manifest's numbering. */
export const searchFileUrl = (manifest: SearchManifest, name: string) => `${searchFilesPath}${manifest.v}/${name}`

/** Fetches one file of the index (named relative to its folder, searchFileUrl), once. */
export type LoadFile = (name: string) => Promise<unknown>

/** The businesses found by a search, and the cards of some of them. */
export interface ShardedSearch {
  readonly manifest: SearchManifest
  /**
   * The numbers of the businesses the filters find: in list order without a search; with one, what
   * SPEC's "contains" finds first, then what the matcher finds, ranked.
   */
  find(filters: BusinessFilters): Promise<number[]>
  /**
   * What find finds, as a ranking: how many, and the first of them in the same order, written out
   * only as far as asked (a page of results needs 24 of up to 100,000 businesses).
   */
  rank(filters: BusinessFilters): Promise<Ranking>
  /** A search to offer when this one finds nothing but a close word would ("Did you mean"); null when none. */
  suggest(filters: BusinessFilters): Promise<string | null>
  /** The cards of these businesses, as HTML, in the same order. */
  cards(ids: readonly number[]): Promise<string[]>
}

function union(count: number, lists: ReadonlyArray<readonly number[]>): readonly number[] {
  // One list is its own union (the usual case as a word is typed out); none is empty.
  if (lists.length <= 1) return lists[0] ?? []
  const marks = new Uint8Array(count)
  for (const list of lists) for (const id of list) marks[id] = 1
  const ids: number[] = []
  for (let id = 0; id < count; id++) if (marks[id] === 1) ids.push(id)
  return ids
}

function intersect(a: readonly number[], b: readonly number[]): number[] {
  const found: number[] = []
  let j = 0
  for (const id of a) {
    while (j < b.length && b[j]! < id) j++
    if (j < b.length && b[j] === id) found.push(id)
  }
  return found
}

/** Every business of a ranking, in its order. */
const everyOne = (ranking: Ranking) => ranking.first(ranking.count)

/** Searches an index through its manifest, fetching its files with `load` as searches need them. */
export function shardedSearch(manifest: SearchManifest, load: LoadFile): ShardedSearch {
  const { count, categories, cardsPerFile, textsPerFile, chars, docs } = manifest
  const featured = new Uint8Array(count)
  for (const id of decodeSet(manifest.featured)) featured[id] = 1
  const isFeatured = (id: number) => featured[id] === 1
  /** The businesses of the filters' category as marks, or undefined for every category. */
  const categoryMarks = (ids: readonly number[] | null) => {
    if (ids === null) return undefined
    const marks = new Uint8Array(count)
    for (const id of ids) marks[id] = 1
    return (id: number) => marks[id] === 1
  }

  if (docs) {
    const prepared = prepareSearch(
      docs.map((doc, id) => ({
        id,
        category: categories[doc.c]!,
        name: doc.t[0],
        short_description: doc.t[1],
        full_description: doc.t[2],
      })),
    )
    const names = docs.map((doc) => doc.t[0])
    // The matcher's index is made in the page, once, from the docs: a few hundred businesses.
    let index: WordSource | undefined
    const wordIndex = () =>
      (index ??= buildWordIndex(
        docs.map((doc) => ({
          name: doc.t[0],
          what: [...(doc.w ?? []), categories[doc.c]!],
          services: doc.s,
          descriptions: [doc.t[1], doc.t[2]],
        })),
      ))
    const rank = async (filters: BusinessFilters): Promise<Ranking> => {
      if (filters.q.trim() === '') return rankingOf(searchPrepared(prepared, filters).map((doc) => doc.id))
      const contains = searchPrepared(prepared, { q: filters.q, category: '' }).map((doc) => doc.id)
      const query = queryWords(filters.q)
      const source = wordIndex()
      const scores = query.length > 0 ? matchScores(queryMatches(query, source), source) : new Uint8Array(count)
      const inCategory = filters.category === '' ? null : categoryIds(filters.category)
      return rankSearch(scores, {
        contains,
        featured: isFeatured,
        names,
        query: filters.q,
        keep: categoryMarks(inCategory),
      })
    }
    const categoryIds = (category: string) => docs.flatMap((doc, id) => (categories[doc.c] === category ? [id] : []))
    const find = async (filters: BusinessFilters) => everyOne(await rank(filters))
    return {
      manifest,
      find,
      rank,
      suggest: async (filters) => {
        const suggestion = suggestQuery(queryWords(filters.q), wordIndex())
        return suggestion !== null && (await find({ ...filters, q: suggestion })).length > 0 ? suggestion : null
      },
      cards: async (ids) => ids.map((id) => docs[id]!.h),
    }
  }

  const decoded = new Map<string, Promise<number[]>>()
  const idsIn = (name: string) => {
    let ids = decoded.get(name)
    if (!ids) decoded.set(name, (ids = load(name).then((gaps) => decodeSet(gaps as EncodedSet))))
    return ids
  }
  const nextChars = async (char: string) =>
    chars.includes(char) ? ((await load(`n/${fileKey(char)}.json`)) as NextChars) : null
  // A t/ or p/ file's words, each decoded once, when a search first needs its businesses.
  const wordFiles = new Map<string, Promise<Array<{ word: string; gaps: EncodedSet; ids?: number[] }>>>()
  const postings = async (name: string, match: string) => {
    let file = wordFiles.get(name)
    if (!file) {
      file = load(name).then((entries) => (entries as WordPostings).map(([word, gaps]) => ({ word, gaps })))
      wordFiles.set(name, file)
    }
    const lists: number[][] = []
    for (const entry of await file) if (entry.word.includes(match)) lists.push((entry.ids ??= decodeSet(entry.gaps)))
    return union(count, lists)
  }

  /** The businesses having a word that contains `word` (no spaces). */
  const containing = async (word: string): Promise<readonly number[]> => {
    const next = await nextChars(word[0]!)
    if (!next) return []
    if (word.length === 1) return idsIn(`g/${fileKey(word)}.json`)
    if (!next.g.includes(word[1]!)) return []
    if (word.length === 2) return idsIn(`g/${fileKey(word)}.json`)
    if (!next.t[word[1]!]?.includes(word[2]!)) return []
    return postings(`t/${fileKey(word.slice(0, 3))}.json`, word)
  }

  /** The businesses having two words written with one space between them that contain `phrase`. */
  const pairing = async (phrase: string): Promise<readonly number[]> => {
    const space = phrase.indexOf(' ')
    const [before, after] = [phrase[space - 1]!, phrase[space + 1]!]
    const next = await nextChars(before)
    if (!next?.p.includes(after)) return []
    return postings(`p/${fileKey(`${before} ${after}`)}.json`, phrase)
  }

  const texts = new Map<number, Promise<Array<InlineDoc['t']>>>()
  const textsOf = (file: number) => {
    let loaded = texts.get(file)
    if (!loaded) texts.set(file, (loaded = load(`x/${file}.json`) as Promise<Array<InlineDoc['t']>>))
    return loaded
  }

  /** The businesses whose texts contain `needle`, checked in the texts themselves. */
  const phrase = async (needle: string): Promise<readonly number[]> => {
    let candidates: readonly number[] | null = null
    for (const word of needle.split(/\s+/)) {
      const having = await containing(word)
      candidates = candidates === null ? having : intersect(candidates, having)
      if (candidates.length === 0) return []
    }
    const found: number[] = []
    for (const id of candidates ?? []) {
      const fields = (await textsOf(Math.floor(id / textsPerFile)))[id % textsPerFile]!
      if (fields.some((field) => field !== null && lower(field).includes(needle))) found.push(id)
    }
    return found
  }

  const matching = (needle: string) => {
    if (!/\s/.test(needle)) return containing(needle)
    if (/^\S+ \S+$/.test(needle)) return pairing(needle)
    return phrase(needle)
  }

  const cardFiles = new Map<number, Promise<string[]>>()
  const cardsIn = (file: number) => {
    let loaded = cardFiles.get(file)
    if (!loaded) cardFiles.set(file, (loaded = load(`d/${file}.json`) as Promise<string[]>))
    return loaded
  }

  // The matcher's files: each w/ and k/ file read once, into what the matcher reads synchronously.
  const keyChars = manifest.keyChars ?? ''
  const wordLists = new Map<string, { keys: string[]; surfaces: Map<string, string> }>()
  const wordsLoading = new Map<string, Promise<void>>()
  const keyPostings = new Map<string, Posting>()
  const shardsLoading = new Map<string, Promise<void>>()
  const source: WordSource = {
    count,
    keysFrom: (char) => wordLists.get(char)?.keys,
    posting: (key) => keyPostings.get(key),
    surface: (key) => wordLists.get(key[0]!)?.surfaces.get(key) ?? key,
  }
  const loadWords = (char: string): Promise<void> => {
    if (!keyChars.includes(char)) return Promise.resolve()
    let loading = wordsLoading.get(char)
    if (!loading) {
      loading = load(`w/${fileKey(char)}.json`).then((list) => {
        const keys: string[] = []
        const surfaces = new Map<string, string>()
        for (const entry of list as WordList) {
          if (typeof entry === 'string') keys.push(entry)
          else {
            keys.push(entry[0])
            surfaces.set(entry[0], entry[1])
          }
        }
        wordLists.set(char, { keys, surfaces })
      })
      wordsLoading.set(char, loading)
    }
    return loading
  }
  const loadShard = (shard: string): Promise<void> => {
    let loading = shardsLoading.get(shard)
    if (!loading) {
      loading = load(`k/${fileKey(shard)}.json`).then((entries) => {
        for (const [key, gaps, ranks] of entries as KeyPostings) {
          const ranked = new Array<number>(ranks.length)
          for (let i = 0; i < ranks.length; i++) ranked[i] = ranks.charCodeAt(i) - 48
          keyPostings.set(key, { ids: decodeSet(gaps), ranks: ranked })
        }
      })
      shardsLoading.set(shard, loading)
    }
    return loading
  }
  /** The keys a query's words match, once their w/ and k/ files are read. */
  const matchQuery = async (q: string) => {
    const query = queryWords(q)
    await Promise.all(queryChars(query).map(loadWords))
    const matches = queryMatches(query, source)
    await Promise.all([...new Set(matches.flat().map(({ key }) => keyShard(key)))].map(loadShard))
    return { query, matches }
  }

  const rank = async (filters: BusinessFilters): Promise<Ranking> => {
    if (!filtersActive(filters))
      return { count, first: (n) => Array.from({ length: Math.min(n, count) }, (_, id) => id) }
    const needle = lower(filters.q.trim())
    let inCategory: number[] | null = null
    if (filters.category !== '') {
      const category = categories.indexOf(filters.category)
      if (category === -1) return rankingOf([])
      inCategory = await idsIn(`c/${category}.json`)
    }
    if (needle === '') return rankingOf(inCategory ?? [])
    const [contains, { matches }] = await Promise.all([matching(needle), matchQuery(filters.q)])
    const scores = matches.length > 0 ? matchScores(matches, source) : new Uint8Array(count)
    return rankSearch(scores, { contains, featured: isFeatured, keep: categoryMarks(inCategory) })
  }

  const find = async (filters: BusinessFilters) => everyOne(await rank(filters))

  return {
    manifest,
    find,
    rank,
    async suggest(filters) {
      const { query } = await matchQuery(filters.q)
      const suggestion = suggestQuery(query, source)
      return suggestion !== null && (await find({ ...filters, q: suggestion })).length > 0 ? suggestion : null
    },
    async cards(ids) {
      const files = await Promise.all(ids.map((id) => cardsIn(Math.floor(id / cardsPerFile))))
      return ids.map((id, i) => files[i]![id % cardsPerFile]!)
    },
  }
}

/**
 * Every file of an index, worked out from its manifest and its n/ files (fetched with `load`), so
 * that "Save for offline" (islands/save-offline.ts) can fetch them all with no list of its own: the
 * category files, then for each character its n/ file and the g/, t/ and p/ files it names, the
 * matcher's w/ files and the k/ files their keys name, then the text and card files. A manifest that holds the whole index has no other file.
 */
export async function searchFileNames(
  manifest: SearchManifest,
  load: (name: string) => Promise<unknown>,
): Promise<string[]> {
  if (manifest.docs) return []
  const names = manifest.categories.map((_, index) => `c/${index}.json`)
  // Characters one UTF-16 unit at a time, as the index names its files.
  const units = (text: string) => text.split('')
  const chars = units(manifest.chars)
  const nexts = await Promise.all(
    chars.map(async (char) => {
      const name = `n/${fileKey(char)}.json`
      return { char, name, next: (await load(name)) as NextChars }
    }),
  )
  for (const { char, name, next } of nexts) {
    names.push(name, `g/${fileKey(char)}.json`)
    for (const second of units(next.g)) names.push(`g/${fileKey(char + second)}.json`)
    for (const [second, thirds] of Object.entries(next.t))
      for (const third of units(thirds)) names.push(`t/${fileKey(char + second + third)}.json`)
    for (const after of units(next.p)) names.push(`p/${fileKey(`${char} ${after}`)}.json`)
  }
  const lists = await Promise.all(
    units(manifest.keyChars ?? '').map(async (char) => {
      const name = `w/${fileKey(char)}.json`
      return { name, list: (await load(name)) as WordList }
    }),
  )
  for (const { name, list } of lists) {
    names.push(name)
    const shards = new Set(list.map((entry) => keyShard(typeof entry === 'string' ? entry : entry[0])))
    for (const shard of shards) names.push(`k/${fileKey(shard)}.json`)
  }
  const files = (per: number) => Math.ceil(manifest.count / per)
  for (let i = 0; i < files(manifest.textsPerFile); i++) names.push(`x/${i}.json`)
  for (let i = 0; i < files(manifest.cardsPerFile); i++) names.push(`d/${i}.json`)
  return names
}
