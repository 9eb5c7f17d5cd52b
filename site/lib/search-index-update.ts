import { docKeys, docSurface, lowerBound } from '@roland/scripts/search/matcher'
import { WordKeys } from '@roland/scripts/search/text'
import {
  addMember,
  cardFilesOf,
  entryTexts,
  featuredOf,
  indexCategories,
  indexVersion,
  manifestHoldsCards,
  nextCharsOf,
  pairKey,
  searchDocOf,
  searchIndexDefaults,
  wordListEntry,
  type SearchIndexEntry,
  type SearchIndexFiles,
  type SearchIndexOptions,
} from './search-index.ts'
import {
  decodeSet,
  encodeSet,
  fileKey,
  fromFileKey,
  keyShard,
  lower,
  wordsAndPairs,
  type EncodedSet,
  type KeyPostings,
  type WordList,
  type WordPostings,
} from './search-shards.ts'

// A rebuild after a few businesses changed makes the search index from the last build's
// (buildSearchIndex's files, search-index.ts), rewriting only the files those businesses' words
// are in: at 100,000 businesses, a few dozen files of 15,600, where making the index anew took
// 5 to 9 s. The files come out exactly as buildSearchIndex would make them from the new entries
// (search-index-update.test.ts checks it on random catalogs and changes). Every file holds, for its
// string, the businesses that have it; which strings exist at all (n/, the manifest's characters)
// follows from which files there are.

/** The index a build made, and each of its entries as JSON (what tells a changed business). */
export interface LastSearchIndex {
  entries: readonly string[]
  index: SearchIndexFiles
}

/**
 * At most this many businesses changed (or one in ten of the catalog, if fewer) are updated in
 * place; more are made anew, which is then as quick.
 */
export const updateLimit = 2_000

/** For each string, the businesses that gain it (true) or lose it (false). */
type Changes = Map<string, Map<number, boolean>>

function noteChanges(changes: Changes, id: number, before: ReadonlySet<string>, after: ReadonlySet<string>): void {
  for (const [set, present] of [
    [before, false],
    [after, true],
  ] as const) {
    const other = present ? before : after
    for (const item of set) {
      if (other.has(item)) continue
      let byId = changes.get(item)
      if (!byId) changes.set(item, (byId = new Map<number, boolean>()))
      byId.set(id, present)
    }
  }
}

/** Ascending ids with some added and some taken out. */
function patchIds(ids: number[], changes: ReadonlyMap<number, boolean>): number[] {
  for (const [id, present] of changes) {
    const at = lowerBound(ids, id)
    const there = ids[at] === id
    if (present && !there) ids.splice(at, 0, id)
    if (!present && there) ids.splice(at, 1)
  }
  return ids
}

/** The words and pairs of words of a business's texts, as g/, t/ and p/ index them. */
function textParts(entry: SearchIndexEntry): { words: Set<string>; pairs: Set<string> } {
  const words = new Set<string>()
  const pairs = new Set<string>()
  for (const field of entryTexts(entry)) {
    if (field === null) continue
    const split = wordsAndPairs(lower(field))
    for (const word of split.words) words.add(word)
    for (const pair of split.pairs) pairs.add(pair)
  }
  return { words, pairs }
}

/** The strings of one and two characters in the words (g/). */
function gramsOf(words: Iterable<string>): Set<string> {
  const grams = new Set<string>()
  for (const word of words) {
    for (let i = 0; i < word.length; i++) {
      grams.add(word[i]!)
      if (i + 1 < word.length) grams.add(word.slice(i, i + 2))
    }
  }
  return grams
}

function trigramsOf(word: string): string[] {
  const found: string[] = []
  for (let i = 0; i + 2 < word.length; i++) found.push(word.slice(i, i + 3))
  return found
}

/** Orders [string, …] entries as the full build's sort() orders their strings: by UTF-16 code units. */
const byString = ([a]: readonly [string, ...unknown[]], [b]: readonly [string, ...unknown[]]) =>
  a < b ? -1 : a > b ? 1 : 0

/** Sorted [string, ids] lists (t/, p/) with some strings' businesses changed; empty strings leave. */
function patchPostings(list: WordPostings, changes: Changes, strings: Iterable<string>): WordPostings {
  const postings = new Map(list)
  for (const string of strings) {
    const ids = patchIds(decodeSet(postings.get(string) ?? []), changes.get(string)!)
    if (ids.length === 0) postings.delete(string)
    else postings.set(string, encodeSet(ids))
  }
  return [...postings].sort(byString)
}

/**
 * The index of `entries` made from the last build's (see above), or null when it cannot be: the
 * businesses were numbered anew (one added, removed or renamed), the categories or the split
 * changed, the catalog is small enough for its manifest to hold the index, or too many changed.
 * `entriesJson` is each entry as JSON (kept with the result for the next build).
 */
export function updateSearchIndex(
  last: LastSearchIndex,
  entries: readonly SearchIndexEntry[],
  entriesJson: readonly string[],
  options: SearchIndexOptions = searchIndexDefaults,
): { index: SearchIndexFiles; changed: number; rewritten: number } | null {
  const previous = last.index
  if (manifestHoldsCards(entries.length, options) || previous.manifest.docs || last.entries.length !== entries.length)
    return null
  const categories = indexCategories(entries)
  if (indexVersion(entries, categories, options) !== previous.manifest.v) return null
  const changedIds = entriesJson.flatMap((json, id) => (json === last.entries[id] ? [] : [id]))
  if (changedIds.length > Math.min(updateLimit, Math.ceil(entries.length / 10))) return null

  const files = new Map(previous.files)
  const rewritten = new Set<string>()
  const put = (name: string, data: unknown) => {
    files.set(name, JSON.stringify(data))
    rewritten.add(name)
  }
  const remove = (name: string) => {
    if (files.delete(name)) rewritten.add(name)
  }
  const read = <T>(name: string): T | undefined => {
    const json = files.get(name)
    return json === undefined ? undefined : (JSON.parse(json) as T)
  }
  // The first characters whose n/ file may change: a string beginning with them came or went.
  const nextChanged = new Set<string>()

  const wordChanges: Changes = new Map()
  const pairChanges: Changes = new Map()
  const gramChanges: Changes = new Map()
  const keyRanks = new Map<string, Map<number, number | null>>()
  const keysSeen = new Set<string>()
  const wordKeys = new WordKeys()
  const chunksChanged = new Set<number>()
  const categoriesChanged = new Set<string>()
  for (const id of changedIds) {
    const before = JSON.parse(last.entries[id]!) as SearchIndexEntry
    const after = entries[id]!
    const [was, is] = [textParts(before), textParts(after)]
    noteChanges(wordChanges, id, was.words, is.words)
    noteChanges(pairChanges, id, was.pairs, is.pairs)
    noteChanges(gramChanges, id, gramsOf(was.words), gramsOf(is.words))
    const [keysBefore, keysAfter] = [
      docKeys(searchDocOf(before), wordKeys.of),
      docKeys(searchDocOf(after), wordKeys.of),
    ]
    for (const key of new Set([...keysBefore.keys(), ...keysAfter.keys()])) {
      keysSeen.add(key)
      const rank = keysAfter.get(key) ?? null
      if (rank === (keysBefore.get(key) ?? null)) continue
      let byId = keyRanks.get(key)
      if (!byId) keyRanks.set(key, (byId = new Map<number, number | null>()))
      byId.set(id, rank)
    }
    chunksChanged.add(Math.floor(id / options.textsPerFile))
    if (before.category !== after.category) categoriesChanged.add(before.category).add(after.category)
  }

  // g/: the businesses having each string of one or two characters.
  for (const [gram, changes] of gramChanges) {
    const name = `g/${fileKey(gram)}.json`
    const existed = files.has(name)
    const ids = patchIds(decodeSet(read<EncodedSet>(name) ?? []), changes)
    if (ids.length > 0) put(name, encodeSet(ids))
    else remove(name)
    if (existed !== ids.length > 0) nextChanged.add(gram[0]!)
  }

  // t/ and p/: the words having each string of three characters, the pairs around each space.
  const patchFamily = (folder: 't' | 'p', changes: Changes, keysOf: (string: string) => string[]) => {
    const byFile = new Map<string, string[]>()
    for (const string of changes.keys()) {
      for (const key of keysOf(string)) {
        const strings = byFile.get(key)
        if (strings) strings.push(string)
        else byFile.set(key, [string])
      }
    }
    for (const [key, strings] of byFile) {
      const name = `${folder}/${fileKey(key)}.json`
      const existed = files.has(name)
      const list = patchPostings(read<WordPostings>(name) ?? [], changes, strings)
      if (list.length > 0) put(name, list)
      else remove(name)
      if (existed !== list.length > 0) nextChanged.add(key[0]!)
    }
  }
  patchFamily('t', wordChanges, trigramsOf)
  patchFamily('p', pairChanges, (pair) => [pairKey(pair)])

  // n/ and the manifest's characters: which strings exist, read from the files there are.
  let chars = previous.manifest.chars
  if (nextChanged.size > 0) {
    const seconds = new Map<string, Set<string>>()
    const thirds = new Map<string, Set<string>>()
    const afterSpace = new Map<string, Set<string>>()
    const singles: string[] = []
    for (const name of files.keys()) {
      const folder = name[0]
      if (name[1] !== '/' || (folder !== 'g' && folder !== 't' && folder !== 'p')) continue
      const string = fromFileKey(name.slice(2, -'.json'.length))
      if (folder === 'g' && string.length === 1) singles.push(string)
      if (!nextChanged.has(string[0]!)) continue
      if (folder === 'g' && string.length === 2) addMember(seconds, string[0]!, string[1]!)
      if (folder === 't') addMember(thirds, string.slice(0, 2), string[2]!)
      if (folder === 'p') addMember(afterSpace, string[0]!, string[2]!)
    }
    chars = singles.sort().join('')
    const none = new Set<string>()
    for (const char of nextChanged) {
      const name = `n/${fileKey(char)}.json`
      if (!chars.includes(char)) remove(name)
      else
        put(
          name,
          nextCharsOf(
            seconds.get(char) ?? none,
            (second) => thirds.get(char + second) ?? none,
            afterSpace.get(char) ?? none,
          ),
        )
    }
  }

  // k/ and w/: the matcher's keys, their businesses and ranks, and the word each stands for.
  const shards = new Map<string, Map<string, { ids: number[]; ranks: string[] }>>()
  const shardOf = (key: string) => {
    const shard = keyShard(key)
    let postings = shards.get(shard)
    if (!postings) {
      const list = read<KeyPostings>(`k/${fileKey(shard)}.json`) ?? []
      postings = new Map(list.map(([key, ids, ranks]) => [key, { ids: decodeSet(ids), ranks: [...ranks] }]))
      shards.set(shard, postings)
    }
    return postings
  }
  const shardsChanged = new Set<string>()
  for (const [key, changes] of keyRanks) {
    const postings = shardOf(key)
    const posting = postings.get(key) ?? { ids: [], ranks: [] }
    for (const [id, rank] of changes) {
      const at = lowerBound(posting.ids, id)
      if (posting.ids[at] === id) {
        posting.ids.splice(at, 1)
        posting.ranks.splice(at, 1)
      }
      if (rank !== null) {
        posting.ids.splice(at, 0, id)
        posting.ranks.splice(at, 0, String(rank))
      }
    }
    if (posting.ids.length > 0) postings.set(key, posting)
    else postings.delete(key)
    shardsChanged.add(keyShard(key))
  }
  for (const shard of shardsChanged) {
    const name = `k/${fileKey(shard)}.json`
    const list: KeyPostings = [...shards.get(shard)!]
      .sort(byString)
      .map(([key, { ids, ranks }]) => [key, encodeSet(ids), ranks.join('')])
    if (list.length > 0) put(name, list)
    else remove(name)
  }
  // The word a key stands for is the first met in the first business having it: for a key of a
  // changed business, that business may now be another, or say it with another word.
  const lists = new Map<string, Map<string, string>>()
  for (const key of keysSeen) {
    const char = key[0]!
    let list = lists.get(char)
    if (!list) {
      const words = read<WordList>(`w/${fileKey(char)}.json`) ?? []
      list = new Map(words.map((word) => (typeof word === 'string' ? [word, word] : word)))
      lists.set(char, list)
    }
    const first = shardOf(key).get(key)?.ids[0]
    if (first === undefined) list.delete(key)
    else list.set(key, docSurface(searchDocOf(entries[first]!), key, wordKeys.of) ?? key)
  }
  let keyChars = previous.manifest.keyChars
  for (const [char, list] of lists) {
    const name = `w/${fileKey(char)}.json`
    const existed = files.has(name)
    if (list.size === 0) remove(name)
    else
      put(
        name,
        [...list].sort(byString).map(([key, surface]) => wordListEntry(key, surface)),
      )
    if (existed !== list.size > 0) keyChars = undefined
  }
  keyChars ??= [...files.keys()]
    .filter((name) => name.startsWith('w/'))
    .map((name) => fromFileKey(name.slice(2, -'.json'.length)))
    .sort()
    .join('')

  // c/ and x/: the businesses of a category whose businesses changed, the texts of changed ones.
  categoriesChanged.forEach((category) => {
    const index = categories.indexOf(category)
    put(`c/${index}.json`, encodeSet(entries.flatMap((entry, id) => (entry.category === category ? [id] : []))))
  })
  for (const chunk of chunksChanged) {
    const from = chunk * options.textsPerFile
    put(`x/${chunk}.json`, entries.slice(from, from + options.textsPerFile).map(entryTexts))
  }

  const cardFiles = cardFilesOf(entries, options)
  const manifest = { ...previous.manifest, chars, featured: featuredOf(entries), keyChars }
  return { index: { manifest, files, cardFiles }, changed: changedIds.length, rewritten: rewritten.size }
}
