import { fc, test as property } from '@fast-check/vitest'
import { describe, expect, test } from 'vitest'
import {
  buildSearchIndex,
  indexCategories,
  indexVersion,
  type SearchIndexEntry,
  type SearchIndexFiles,
} from './search-index.ts'
import { updateLimit, updateSearchIndex, type LastSearchIndex } from './search-index-update.ts'

// The index updated from the last build's must be the index made anew, file for file, byte for
// byte: random catalogs, random changes to a few of their businesses.

const split = { inlineLimit: 0, cardsPerFile: 3, textsPerFile: 4 }
const renderCard = () => {
  throw new Error('A split index draws no card.')
}

// Words that share strings, stems and first letters, with case, accents, joiners and other spaces.
const vocabulary = [
  'coffee',
  'Coffee',
  'café',
  'Café',
  'caf',
  'bait',
  'tackle',
  'a',
  'b',
  'roast',
  'roasted',
  'roasting',
  'groomer',
  'grooming',
  'Groomers',
  'É',
  'x-ray',
  "o'neil",
  'shop',
  'shops',
  'the',
  'and',
  'ice',
  'hickory',
  'pit',
  '&',
  '24/7',
]
const gaps = [' ', ' ', ' ', '  ', '\t', ', ', '. ', ' \n ']
const text = (minLength = 0) =>
  fc
    .array(fc.tuple(fc.constantFrom(...vocabulary), fc.constantFrom(...gaps)), { minLength, maxLength: 6 })
    .map((parts) => parts.map(([word, gap]) => word + gap).join(''))
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined })

/** What a business's entry may say, but its slug (its number in the list). */
const fields = fc.record({
  name: text(1).map((name) => name.trim() || 'Shop'),
  category: fc.constantFrom('Dining & Refreshments', 'Shopping', 'Business'),
  short_description: optional(text(1)),
  full_description: optional(text(1)),
  is_featured: optional(fc.constant(true as const)),
  what: optional(fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 3 })),
  services: optional(fc.array(text(1), { minLength: 1, maxLength: 2 })),
})
type Fields = Omit<SearchIndexEntry, 'slug'>

/** An entry as toSearchIndexEntry makes it: its fields in one order, none undefined. */
function entryOf(index: number, chosen: Fields): SearchIndexEntry {
  const entry: Record<string, unknown> = { slug: `business-${index}` }
  for (const [key, value] of Object.entries(chosen)) if (value !== undefined) entry[key] = value
  return entry as unknown as SearchIndexEntry
}

const sameIndex = (actual: SearchIndexFiles, expected: SearchIndexFiles) => {
  expect(JSON.stringify(actual.manifest)).toBe(JSON.stringify(expected.manifest))
  expect([...actual.files].sort()).toEqual([...expected.files].sort())
  expect([...actual.cardFiles]).toEqual([...expected.cardFiles])
}

const lastOf = (entries: readonly SearchIndexEntry[], index: SearchIndexFiles): LastSearchIndex => ({
  entries: entries.map((entry) => JSON.stringify(entry)),
  index,
})

describe('updateSearchIndex', () => {
  property.prop(
    [
      fc.array(fields, { minLength: 10, maxLength: 40 }),
      fc.array(fc.tuple(fc.nat(), fields), { minLength: 1, maxLength: 4 }),
    ],
    { numRuns: 300 },
  )('gives the index made anew, after any change to a few businesses', (catalog, changes) => {
    const before = catalog.map((chosen, index) => entryOf(index, chosen))
    const after = [...before]
    for (const [at, chosen] of changes) after[at % after.length] = entryOf(at % after.length, chosen)
    const made = buildSearchIndex(after, renderCard, split)
    const updated = updateSearchIndex(
      lastOf(before, buildSearchIndex(before, renderCard, split)),
      after,
      after.map((entry) => JSON.stringify(entry)),
      split,
    )
    const changed = after.filter((entry, id) => JSON.stringify(entry) !== JSON.stringify(before[id])).length
    const numberedAnew =
      indexVersion(after, indexCategories(after), split) !== indexVersion(before, indexCategories(before), split)
    if (numberedAnew || changed > Math.ceil(after.length / 10)) {
      expect(updated).toBeNull()
      return
    }
    expect(updated).not.toBeNull()
    expect(updated!.changed).toBe(changed)
    sameIndex(updated!.index, made)
  })

  property.prop(
    [
      fc.array(fields, { minLength: 20, maxLength: 30 }),
      fc.array(fc.tuple(fc.nat(), fields), { minLength: 4, maxLength: 8 }),
    ],
    {
      numRuns: 100,
    },
  )(
    'gives the index made anew after one change after another, each from the index the last one left',
    (catalog, changes) => {
      let entries = catalog.map((chosen, index) => entryOf(index, chosen))
      let last = lastOf(entries, buildSearchIndex(entries, renderCard, split))
      for (const [at, chosen] of changes) {
        const next = [...entries]
        next[at % next.length] = entryOf(at % next.length, { ...chosen, category: entries[at % next.length]!.category })
        const updated = updateSearchIndex(
          last,
          next,
          next.map((entry) => JSON.stringify(entry)),
          split,
        )
        sameIndex(updated!.index, buildSearchIndex(next, renderCard, split))
        entries = next
        last = lastOf(entries, updated!.index)
      }
    },
  )

  test('rewrites only the files of what changed, and nothing when nothing did', () => {
    const entries = Array.from({ length: 40 }, (_, index) =>
      entryOf(index, { name: `Shop ${index}`, category: 'Shopping', short_description: 'Fresh coffee and bait.' }),
    )
    const last = lastOf(entries, buildSearchIndex(entries, renderCard, split))
    const json = entries.map((entry) => JSON.stringify(entry))
    expect(updateSearchIndex(last, entries, json, split)).toMatchObject({ changed: 0, rewritten: 0 })
    const next = [...entries]
    next[5] = { ...entries[5]!, short_description: 'Fresh coffee and tackle.' }
    const updated = updateSearchIndex(
      last,
      next,
      next.map((entry) => JSON.stringify(entry)),
      split,
    )!
    expect(updated.changed).toBe(1)
    // Of the index's files, those of the words and strings "bait" had and "tackle" has, and the texts' file.
    expect(updated.rewritten).toBeGreaterThan(0)
    expect(updated.rewritten).toBeLessThan(last.index.files.size / 4)
    sameIndex(updated.index, buildSearchIndex(next, renderCard, split))
  })

  test('makes nothing when the businesses were numbered anew, the manifest holds the index, or too many changed', () => {
    const entries = Array.from({ length: 40 }, (_, index) =>
      entryOf(index, { name: `Shop ${index}`, category: index % 2 ? 'Shopping' : 'Business' }),
    )
    const last = lastOf(entries, buildSearchIndex(entries, renderCard, split))
    const update = (next: SearchIndexEntry[], options = split) =>
      updateSearchIndex(
        last,
        next,
        next.map((entry) => JSON.stringify(entry)),
        options,
      )
    // Added, removed, renamed (a new slug), a category gone.
    expect(update([...entries, entryOf(40, { name: 'New', category: 'Shopping' })])).toBeNull()
    expect(update(entries.slice(1))).toBeNull()
    expect(update(entries.map((entry, id) => (id === 3 ? { ...entry, slug: 'renamed' } : entry)))).toBeNull()
    expect(update(entries.map((entry) => ({ ...entry, category: 'Shopping' })))).toBeNull()
    // Small enough for the manifest to hold it.
    expect(update(entries, { ...split, inlineLimit: 1000 })).toBeNull()
    // More than one in ten changed.
    expect(
      update(entries.map((entry, id) => (id < 5 ? { ...entry, name: `${entry.name} and Sons` } : entry))),
    ).toBeNull()
    expect(
      update(entries.map((entry, id) => (id < 4 ? { ...entry, name: `${entry.name} and Sons` } : entry))),
    ).not.toBeNull()
    expect(updateLimit).toBeGreaterThan(0)
  })
})
