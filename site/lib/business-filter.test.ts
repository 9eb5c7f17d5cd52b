import { describe, expect, test } from 'vitest'
import { allBusinesses } from '@roland/scripts/catalog/queries'
import { fixtureCatalog } from '../../scripts/test/fixtures/catalog.ts'
import { filterBusinesses, filtersQuery, noFilters, readFilters } from './business-filter.ts'

const businesses = allBusinesses(fixtureCatalog())
const names = (list: { name: string }[]) => list.map((b) => b.name)

describe('filterBusinesses', () => {
  test('keeps every business without filters', () => {
    expect(filterBusinesses(businesses, noFilters)).toHaveLength(businesses.length)
  })

  test('keeps the businesses of the chosen category only', () => {
    expect(names(filterBusinesses(businesses, { q: '', category: 'Dining & Refreshments' }))).toEqual(['big rock coffee', 'Pinnacle Pizza'])
  })

  test('matches the search text in the name and both descriptions, ignoring case', () => {
    expect(names(filterBusinesses(businesses, { q: 'COFFEE', category: '' }))).toEqual(['big rock coffee', 'Pinnacle Pizza'])
    expect(names(filterBusinesses(businesses, { q: 'boat rentals', category: '' }))).toEqual(['Lakeview Marina'])
  })

  test('applies search and category together', () => {
    expect(names(filterBusinesses(businesses, { q: 'coffee', category: 'Shopping & Convenience' }))).toEqual([])
  })
})

describe('readFilters and filtersQuery', () => {
  test('read the filters from the URL', () => {
    expect(readFilters('?q=pizza&category=Dining+%26+Refreshments')).toEqual({ q: 'pizza', category: 'Dining & Refreshments' })
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
