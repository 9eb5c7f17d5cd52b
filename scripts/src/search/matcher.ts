import { distance } from 'fastest-levenshtein'
import { wordKey, WordKeys, words } from './text.ts'

// The businesses search that finds what a visitor means, one module for the site and the console.
// A business is indexed by the keys (stems, text.ts) of its words, each with the best place it was
// found (its rank: the name, what the business is, its services, its descriptions). A query matches
// a business when every one of its words matches a key of the business, in any field and any
// order: the word's own key; the keys the last word begins, while it is being typed; else, for a
// word of four letters or more, a key one edit away (two from eight letters), never on its first
// letter. The results are ranked: the businesses SPEC's "contains" finds first (the caller finds
// them), then by where the words matched, typo matches last, featured first among equals, then the
// list order (by name).
//
// Where the search's parts live: text.ts reads text into words and keys (wordKey; a WordKeys stems
// each distinct word once for whoever keys many texts, and goes with it), presets.ts says what a
// business is, this module indexes, matches and ranks. No memo is kept at module level: an index
// build has its own WordKeys, a query's few words are stemmed as they come.

/** Where a word of a business was found: the lower, the higher the business ranks. */
export const fieldRank = {
  /** The name is the query (found with the names at hand: the console, a small catalog). */
  exactName: 0,
  /** The name begins with the query; in the index, the name's first word. */
  namePrefix: 1,
  name: 2,
  /** What the business is: its presets' names and terms, its search words, its category. */
  what: 3,
  services: 4,
  descriptions: 5,
} as const

// A typo match ranks after every match without one: its rank is the field's plus this.
const typoRank = 8

/** What the index reads of a business. */
export interface SearchDoc {
  name: string
  /** What the business is: preset names and terms, an operator's search words, its category. */
  what?: readonly string[]
  services?: readonly string[]
  descriptions?: ReadonlyArray<string | null | undefined>
}

/** The businesses having a key (numbers ascending), and the rank of the key in each. */
export interface Posting {
  ids: number[]
  ranks: number[]
}

/** Where the matcher reads an index: the keys beginning with a character, and each key's businesses. */
export interface WordSource {
  /** How many businesses the index numbers (0…count-1). */
  readonly count: number
  /** The keys beginning with this character, sorted; undefined when there are none. */
  keysFrom(char: string): readonly string[] | undefined
  /** The businesses having this key (among keysFrom's). */
  posting(key: string): Posting | undefined
  /** A word of the texts this key stands for, to suggest ('hardwar' → 'hardware'). */
  surface(key: string): string
}

/** An index held in memory: every key, its businesses, and a word it stands for. */
export interface WordIndex extends WordSource {
  readonly postings: ReadonlyMap<string, Posting>
  readonly surfaces: ReadonlyMap<string, string>
}

/**
 * Visits each word of a business with its key (worked out by `keyOf`) and the rank of the place it
 * was found: the name, what the business is, its services, its descriptions, in that order.
 */
function eachKeyedWord(
  doc: SearchDoc,
  keyOf: (word: string) => string,
  visit: (word: string, key: string, rank: number) => void,
): void {
  const add = (text: string | null | undefined, rank: number, first = rank) => {
    if (!text) return
    words(text).forEach((word, i) => visit(word, keyOf(word), i === 0 ? first : rank))
  }
  add(doc.name, fieldRank.name, fieldRank.namePrefix)
  for (const text of doc.what ?? []) add(text, fieldRank.what)
  for (const text of doc.services ?? []) add(text, fieldRank.services)
  for (const text of doc.descriptions ?? []) add(text, fieldRank.descriptions)
}

/** Records a key of a business at the rank it was found, unless it was found at a better one. */
function addKey(found: Map<string, number>, key: string, rank: number): void {
  if ((found.get(key) ?? 99) > rank) found.set(key, rank)
}

/** The keys of a business (each worked out by `keyOf`), each with the best rank it was found at. */
export function docKeys(doc: SearchDoc, keyOf: (word: string) => string = wordKey): Map<string, number> {
  const found = new Map<string, number>()
  eachKeyedWord(doc, keyOf, (_, key, rank) => addKey(found, key, rank))
  return found
}

/**
 * The word of a business that stands for `key` as buildWordIndex would show it (surface): the first
 * of its words with that key, in the order the index reads them; undefined when none has it.
 */
export function docSurface(doc: SearchDoc, key: string, keyOf: (word: string) => string = wordKey): string | undefined {
  let surface: string | undefined
  eachKeyedWord(doc, keyOf, (word, keyOfWord) => {
    if (surface === undefined && keyOfWord === key) surface = word
  })
  return surface
}

/** Indexes businesses (numbered in the order given) in memory: the console, and a small catalog on the site. */
export function buildWordIndex(docs: readonly SearchDoc[]): WordIndex {
  const postings = new Map<string, Posting>()
  const surfaces = new Map<string, string>()
  // Each distinct word is stemmed once for this index, and the stems go with it.
  const keys = new WordKeys()
  docs.forEach((doc, id) => {
    // One reading of the texts gives both the keys and the word each key stands for: the first met.
    const found = new Map<string, number>()
    eachKeyedWord(doc, keys.of, (word, key, rank) => {
      addKey(found, key, rank)
      if (!surfaces.has(key)) surfaces.set(key, word)
    })
    for (const [key, rank] of found) {
      const posting = postings.get(key)
      if (posting) {
        posting.ids.push(id)
        posting.ranks.push(rank)
      } else postings.set(key, { ids: [id], ranks: [rank] })
    }
  })
  const byChar = new Map<string, string[]>()
  for (const key of [...postings.keys()].sort()) {
    const list = byChar.get(key[0]!)
    if (list) list.push(key)
    else byChar.set(key[0]!, [key])
  }
  return {
    count: docs.length,
    postings,
    surfaces,
    keysFrom: (char) => byChar.get(char),
    posting: (key) => postings.get(key),
    surface: (key) => surfaces.get(key) ?? key,
  }
}

/** A word of a query: folded, its key, and whether it may still be being typed (the last word). */
export interface QueryWord {
  word: string
  key: string
  prefix: boolean
}

/** Reads a query into its words; the last is taken as a beginning unless a space follows it. */
export function queryWords(query: string): QueryWord[] {
  const found = words(query)
  const typing = !/\s$/.test(query)
  return found.map((word, i) => ({ word, key: wordKey(word), prefix: typing && i === found.length - 1 }))
}

/** The characters whose keys a query needs (keysFrom): the first of each word. */
export const queryChars = (query: readonly QueryWord[]): string[] => [...new Set(query.map((word) => word.word[0]!))]

// Beginnings shorter than this match too many keys to help ("contains" finds them already).
const shortestPrefix = 3

/** How many edits a query word of this length may have to match: 1 from 4 letters, 2 from 8. */
export function typoBudget(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0
}

/** A key a query word matches, and whether only through a typo. */
export interface KeyMatch {
  key: string
  typo: boolean
}

/** The first index of a sorted list (of words, or of numbers) at which `value` could be, by binary search. */
export function lowerBound<T extends string | number>(list: readonly T[], value: T): number {
  let [low, high] = [0, list.length]
  while (low < high) {
    const middle = (low + high) >>> 1
    if (list[middle]! < value) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * The keys a query word matches among those beginning with its first letter: its own key and, for
 * the word being typed, the keys it begins; only when there are none, the keys within its typo
 * budget, the first letter kept.
 */
export function matchingKeys(word: QueryWord, keys: readonly string[] | undefined): KeyMatch[] {
  if (!keys) return []
  const found: KeyMatch[] = []
  const exact = lowerBound(keys, word.key)
  if (keys[exact] === word.key) found.push({ key: word.key, typo: false })
  if (word.prefix && word.word.length >= shortestPrefix) {
    for (let i = lowerBound(keys, word.word); i < keys.length && keys[i]!.startsWith(word.word); i++)
      if (keys[i] !== word.key) found.push({ key: keys[i]!, typo: false })
  }
  if (found.length > 0) return found
  const budget = typoBudget(word.word.length)
  if (budget === 0) return found
  for (const key of keys) {
    // Keys are stems: a word is as near as its own spelling or its stem is.
    if (Math.abs(key.length - word.key.length) > budget && Math.abs(key.length - word.word.length) > budget) continue
    if (Math.min(distance(key, word.key), distance(key, word.word)) <= budget) found.push({ key, typo: true })
  }
  return found
}

/** The keys each query word matches (what a sharded index fetches the postings of). */
export function queryMatches(query: readonly QueryWord[], source: Pick<WordSource, 'keysFrom'>): KeyMatch[][] {
  return query.map((word) => matchingKeys(word, source.keysFrom(word.word[0]!)))
}

/**
 * The businesses every query word matches, as a score per business (0: not found; else 1 + the
 * rank of its weakest word, typo matches ranking after all others).
 */
export function matchScores(matches: readonly KeyMatch[][], source: Pick<WordSource, 'count' | 'posting'>): Uint8Array {
  const { count } = source
  let scores: Uint8Array | null = null
  for (const keys of matches) {
    // Per business, the best this word found (0: nothing).
    const best = new Uint8Array(count)
    for (const { key, typo } of keys) {
      const posting = source.posting(key)
      if (!posting) continue
      const extra = typo ? typoRank + 1 : 1
      for (let i = 0; i < posting.ids.length; i++) {
        const id = posting.ids[i]!
        const score = posting.ranks[i]! + extra
        if (best[id] === 0 || best[id]! > score) best[id] = score
      }
    }
    if (scores === null) scores = best
    else
      for (let id = 0; id < count; id++)
        scores[id] = scores[id] === 0 || best[id] === 0 ? 0 : Math.max(scores[id]!, best[id]!)
  }
  return scores ?? new Uint8Array(count)
}

/** What ranks a search's results besides the scores: "contains" results, featured businesses, names. */
export interface RankInputs {
  /** The businesses SPEC's "contains" finds (ascending): they come first. */
  contains: readonly number[]
  /** Whether a business is featured. */
  featured: (id: number) => boolean
  /** The names, folded, where they are at hand: an exact name or one the query begins ranks first. */
  names?: readonly string[]
  /** The query, when names are given. */
  query?: string
  /** Businesses left out (another filter): false to leave out. */
  keep?: (id: number) => boolean
}

// The buckets a ranking sorts into: (contains or not) × rank (below 16) × (featured or not).
const bucketCount = 2 * 16 * 2

/** The businesses a search found, in rank order: how many, and the first of them, written out when asked. */
export interface Ranking {
  readonly count: number
  /** The first `n` businesses in rank order (every one when n is count or more). */
  first(n: number): number[]
}

/** A ranking of these businesses, already in rank order. */
export const rankingOf = (ids: readonly number[]): Ranking => ({
  count: ids.length,
  first: (n) => ids.slice(0, n),
})

/**
 * Ranks the businesses found: "contains" results first, then by score (where the words matched,
 * typos last), featured first among equals, then by number (the list is by name). Linear, a counting
 * sort: one pass finds each business's bucket; `first(n)` writes out, in one more pass, only the
 * buckets the first n fill, in number order: at 100,000 businesses a keystroke may find nearly all
 * of them, and a page shows 24.
 */
export function rankSearch(scores: Uint8Array, inputs: RankInputs): Ranking {
  const count = scores.length
  const contains = new Uint8Array(count)
  for (const id of inputs.contains) contains[id] = 1
  const folded = inputs.names && inputs.query !== undefined ? words(inputs.query).join(' ') : null
  // Per business, 1 + its bucket, or 0 when it is not a result.
  const bucketOf = new Uint8Array(count)
  const sizes = new Int32Array(bucketCount)
  let total = 0
  for (let id = 0; id < count; id++) {
    const score = scores[id]!
    if (score === 0 && contains[id] === 0) continue
    if (inputs.keep && !inputs.keep(id)) continue
    let rank = score === 0 ? fieldRank.descriptions : score - 1
    if (contains[id] === 1 && rank >= typoRank) rank = fieldRank.descriptions
    if (folded !== null && folded !== '') {
      const name = words(inputs.names![id]!).join(' ')
      if (name === folded) rank = fieldRank.exactName
      else if (name.startsWith(folded) && rank > fieldRank.namePrefix) rank = fieldRank.namePrefix
    }
    const bucket = ((contains[id] === 1 ? 0 : 1) * 16 + rank) * 2 + (inputs.featured(id) ? 0 : 1)
    bucketOf[id] = bucket + 1
    sizes[bucket]!++
    total++
  }
  return {
    count: total,
    first(n) {
      const wanted = Math.max(0, Math.min(n, total))
      // Where each bucket starts in the results, up to the last bucket the first `wanted` reach.
      const next = new Int32Array(bucketCount)
      let last = 0
      for (let at = 0; last < bucketCount - 1 && at + sizes[last]! < wanted; last++) {
        at += sizes[last]!
        next[last + 1] = at
      }
      const ranked = new Array<number>(wanted)
      for (let id = 0, written = 0; id < count && written < wanted; id++) {
        const bucket = bucketOf[id]! - 1
        if (bucket < 0 || bucket > last || next[bucket]! >= wanted) continue
        ranked[next[bucket]!++] = id
        written++
      }
      return ranked
    },
  }
}

/** Orders the businesses found, every one of them (rankSearch). */
export function rankResults(scores: Uint8Array, inputs: RankInputs): number[] {
  const ranking = rankSearch(scores, inputs)
  return ranking.first(ranking.count)
}

/**
 * A query to suggest when nothing matches: each word that matches no key, or only through a typo,
 * replaced by the nearest word of the index beginning with its letter (two edits at most, one for a
 * word of three letters or fewer); null when a word has none, or every word matched as typed.
 */
export function suggestQuery(query: readonly QueryWord[], source: WordSource): string | null {
  let changed = false
  const suggested = query.map((word) => {
    const keys = source.keysFrom(word.word[0]!) ?? []
    if (matchingKeys({ ...word, prefix: false }, keys).some((match) => !match.typo)) return word.word
    const budget = word.word.length <= 3 ? 1 : 2
    let best: { surface: string; edits: number } | null = null
    for (const key of keys) {
      const surface = source.surface(key)
      // Near the word as written in the texts, or near its stem ('bsicuit' is two edits from 'biscuit', the key of 'biscuits').
      if (Math.min(Math.abs(surface.length - word.word.length), Math.abs(key.length - word.word.length)) > budget)
        continue
      const edits = Math.min(distance(surface, word.word), distance(key, word.word))
      if (edits <= budget && (best === null || edits < best.edits)) best = { surface, edits }
    }
    if (best === null) return null
    changed = true
    return best.surface
  })
  if (!changed || suggested.includes(null)) return null
  return suggested.join(' ')
}

/** Whether a field contains the query as SPEC §2 says: lowercased, trimmed, a substring. */
export function containsQuery(fields: ReadonlyArray<string | null | undefined>, query: string): boolean {
  const needle = query.trim().toLocaleLowerCase('en')
  return needle === '' || fields.some((field) => field != null && field.toLocaleLowerCase('en').includes(needle))
}

/**
 * Searches businesses held in memory (the console's list, a small catalog): "contains" on the
 * fields given first, then every other match, ranked (rankResults). Returns their numbers.
 */
export function searchInMemory(
  index: WordSource,
  docs: ReadonlyArray<{ name: string; contains: ReadonlyArray<string | null | undefined>; featured?: boolean }>,
  query: string,
  keep?: (id: number) => boolean,
): number[] {
  const contains: number[] = []
  docs.forEach((doc, id) => {
    if (containsQuery(doc.contains, query)) contains.push(id)
  })
  const parsed = queryWords(query)
  const scores = parsed.length === 0 ? new Uint8Array(docs.length) : matchScores(queryMatches(parsed, index), index)
  return rankResults(scores, {
    contains,
    featured: (id) => docs[id]!.featured === true,
    names: docs.map((doc) => doc.name),
    query,
    keep,
  })
}
