import { afterEach, describe, expect, test, vi } from 'vitest'
import { allBusinesses } from '@roland/scripts/catalog/queries'
import { fixtureCatalog, makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import {
  filterBusinesses,
  filtersActive,
  filtersQuery,
  noFilters,
  prepareSearch,
  readFilters,
  searchPrepared,
  type BusinessFilters,
} from './business-filter.ts'

const businesses = allBusinesses(fixtureCatalog())
const names = (list: { name: string }[]) => list.map((b) => b.name)

describe('filterBusinesses', () => {
  test('keeps every business without filters', () => {
    expect(filterBusinesses(businesses, noFilters)).toHaveLength(businesses.length)
  })

  test('keeps the businesses of the chosen category only', () => {
    expect(names(filterBusinesses(businesses, { q: '', category: 'Dining & Refreshments' }))).toEqual([
      'big rock coffee',
      'Pinnacle Pizza',
    ])
  })

  test('matches the search text in the name and both descriptions, ignoring case', () => {
    expect(names(filterBusinesses(businesses, { q: 'COFFEE', category: '' }))).toEqual([
      'big rock coffee',
      'Pinnacle Pizza',
    ])
    expect(names(filterBusinesses(businesses, { q: 'boat rentals', category: '' }))).toEqual(['Lakeview Marina'])
  })

  test('applies search and category together', () => {
    expect(names(filterBusinesses(businesses, { q: 'coffee', category: 'Shopping & Convenience' }))).toEqual([])
  })
})

// Businesses whose texts make lowercasing and matching hard: letters that change length or
// depend on their neighbours when lowercased, empty and missing descriptions, and spaces.
const awkward = [
  makeBusiness({ name: 'İstanbul Kebab', short_description: 'DÖNER and İskender', category: 'Dining & Refreshments' }),
  makeBusiness({
    name: 'Straße Motors',
    full_description: 'GROSSE Werkstatt, STRASSE 5',
    category: 'Professional Services',
  }),
  makeBusiness({ name: 'ΟΔΟΣ Greek Grill', short_description: 'ΣΟΥΒΛΑΚΙ ΚΑΙ ΓΥΡΟΣ', full_description: 'ΟΔΥΣΣΕΥΣ' }),
  makeBusiness({ name: 'Café Crème', short_description: '', full_description: '  spaced   out  ' }),
  makeBusiness({ name: 'ǅemal Tailoring', short_description: 'ǄEMAL', category: 'Shopping & Convenience' }),
  makeBusiness({ name: 'Kelvin K Sign Shop', short_description: 'K signs (Kelvin sign)' }),
  ...businesses,
]

const queries = [
  '',
  '   ',
  'coffee',
  'COFFEE',
  '  coffee  ',
  'i̇stanbul',
  'istanbul',
  'İSKENDER',
  'straße',
  'strasse',
  'grosse',
  'οδος',
  'οδοσ',
  'σουβλακι',
  'οδυσσευς',
  'café',
  'cafe',
  'spaced   out',
  'ǆemal',
  'ǅemal',
  'k sign',
  'k',
  'e',
  'xyz',
  '.',
  '\u0000',
]
const categories = ['', 'Business', 'Dining & Refreshments', 'Shopping & Convenience', 'Professional Services', 'Nope']

describe('prepareSearch and searchPrepared', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  test('give exactly what filterBusinesses gives, for every query and category', () => {
    const prepared = prepareSearch(awkward)
    for (const q of queries) {
      for (const category of categories) {
        const filters: BusinessFilters = { q, category }
        expect(names(searchPrepared(prepared, filters)), JSON.stringify(filters)).toEqual(
          names(filterBusinesses(awkward, filters)),
        )
      }
    }
  })

  test('treat a description left out like a missing one', () => {
    const withNulls = [makeBusiness({ name: 'Odd Jobs', short_description: null, full_description: 'Decks' })]
    const leftOut = [{ name: 'Odd Jobs', category: 'Business', full_description: 'Decks' }]
    for (const q of ['decks', 'odd', 'null', 'undefined']) {
      expect(names(searchPrepared(prepareSearch(leftOut), { q, category: '' }))).toEqual(
        names(filterBusinesses(withNulls, { q, category: '' })),
      )
    }
  })

  test('lowercase every searched field once, when the list is prepared', () => {
    const lower = vi.spyOn(String.prototype, 'toLocaleLowerCase')
    prepareSearch(businesses)
    const fields = businesses.flatMap((b) => [b.name, b.short_description, b.full_description]).filter((f) => f != null)
    expect(lower).toHaveBeenCalledTimes(fields.length)
  })

  test('lowercase only the query on a keystroke, however many businesses there are', () => {
    const many = Array.from({ length: 2_000 }, (_, i) =>
      makeBusiness({ name: `Shop ${i}`, short_description: 'Bait and tackle', full_description: 'Open daily' }),
    )
    const prepared = prepareSearch(many)
    const lower = vi.spyOn(String.prototype, 'toLocaleLowerCase')
    expect(searchPrepared(prepared, { q: 'TACKLE', category: '' })).toHaveLength(2_000)
    expect(lower).toHaveBeenCalledTimes(1)
  })

  test('test each business at most once per searched field, in one pass', () => {
    const many = Array.from({ length: 2_000 }, (_, i) =>
      makeBusiness({ name: `Shop ${i}`, short_description: 'Bait and tackle', full_description: 'Open daily' }),
    )
    const prepared = prepareSearch(many)
    const includes = vi.spyOn(String.prototype, 'includes')
    expect(searchPrepared(prepared, { q: 'nowhere', category: '' })).toEqual([])
    expect(includes).toHaveBeenCalledTimes(3 * 2_000)
  })

  test('skip the text test for a business of another category', () => {
    const prepared = prepareSearch(awkward)
    const includes = vi.spyOn(String.prototype, 'includes')
    searchPrepared(prepared, { q: 'e', category: 'Nope' })
    expect(includes).not.toHaveBeenCalled()
  })
})

describe('filtersActive', () => {
  test('is false without a search or with a search of spaces, true with either filter', () => {
    expect(filtersActive(noFilters)).toBe(false)
    expect(filtersActive({ q: '   ', category: '' })).toBe(false)
    expect(filtersActive({ q: 'bait', category: '' })).toBe(true)
    expect(filtersActive({ q: '', category: 'Recreation' })).toBe(true)
  })
})

describe('readFilters and filtersQuery', () => {
  test('read the filters from the URL', () => {
    expect(readFilters('?q=pizza&category=Dining+%26+Refreshments')).toEqual({
      q: 'pizza',
      category: 'Dining & Refreshments',
    })
    expect(readFilters('')).toEqual(noFilters)
  })

  test('write only the filters that are set', () => {
    expect(filtersQuery(noFilters)).toBe('')
    expect(filtersQuery({ q: 'bait', category: '' })).toBe('?q=bait')
    expect(filtersQuery({ q: '', category: 'Dining & Refreshments' })).toBe('?category=Dining+%26+Refreshments')
  })

  test('round-trip', () => {
    const filters = { q: 'fish & chips', category: 'Recreation' }
    expect(readFilters(filtersQuery(filters))).toEqual(filters)
  })
})
