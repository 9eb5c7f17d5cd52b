import { fc, test as property } from '@fast-check/vitest'
import { describe, expect, test } from 'vitest'
import { fixtureCatalog, makeBusiness } from '../../test/fixtures/catalog.ts'
import {
  allBusinesses,
  businessBySlug,
  businessCategoryList,
  businessesByCategory,
  businessStats,
  categoryBySlug,
  distinctCategories,
  featuredBusinesses,
  homeBusinesses,
  matchesSearch,
  searchBusinesses,
} from './queries.ts'

const catalog = fixtureCatalog()
const names = (list: { name: string }[]) => list.map((b) => b.name)

describe('allBusinesses', () => {
  test('lists only active businesses, ordered by name regardless of case', () => {
    expect(names(allBusinesses(catalog))).toEqual([
      'Ace Insurance',
      'big rock coffee',
      'Lakeview Marina',
      'Odd Jobs',
      'Pinnacle Pizza',
      'Roland Hardware',
    ])
  })

  test('gives each caller a list of its own, and follows a list of businesses that changed', () => {
    const businesses = [...catalog.businesses]
    const mine = { businesses }
    allBusinesses(mine).reverse()
    expect(names(allBusinesses(mine))).toEqual(names(allBusinesses(catalog)))
    // The same array, a business in it replaced by a renamed one, as a caller could.
    const hardware = businesses.findIndex((b) => b.name === 'Roland Hardware')
    businesses[hardware] = { ...businesses[hardware]!, name: 'Anchor Hardware' }
    expect(names(allBusinesses(mine)).slice(0, 2)).toEqual(['Ace Insurance', 'Anchor Hardware'])
    businesses.push(makeBusiness({ name: 'Zephyr Kites', slug: 'zephyr-kites' }))
    expect(names(allBusinesses(mine)).at(-1)).toBe('Zephyr Kites')
  })
})

describe('businessBySlug', () => {
  test('finds an active business', () => {
    expect(businessBySlug(catalog, 'lakeview-marina')?.name).toBe('Lakeview Marina')
  })
  test('returns null for an inactive or unknown slug', () => {
    expect(businessBySlug(catalog, 'closed-diner')).toBeNull()
    expect(businessBySlug(catalog, 'nowhere')).toBeNull()
  })
})

describe('businessesByCategory', () => {
  test('lists the active businesses of that category by name', () => {
    expect(names(businessesByCategory(catalog, 'Dining & Refreshments'))).toEqual(['big rock coffee', 'Pinnacle Pizza'])
  })
})

describe('featuredBusinesses', () => {
  test('lists active featured businesses only', () => {
    expect(names(featuredBusinesses(catalog))).toEqual(['Ace Insurance', 'big rock coffee'])
  })
  test('stops at six', () => {
    const many = {
      businesses: Array.from({ length: 9 }, (_, i) => makeBusiness({ name: `Shop ${i}`, is_featured: true })),
    }
    expect(featuredBusinesses(many)).toHaveLength(6)
  })
})

describe('homeBusinesses', () => {
  test('shows the featured businesses when there are some', () => {
    expect(names(homeBusinesses(catalog))).toEqual(['Ace Insurance', 'big rock coffee'])
  })
  test('falls back to the first six of all businesses when none is featured', () => {
    const plain = { businesses: Array.from({ length: 8 }, (_, i) => makeBusiness({ name: `Shop ${8 - i}` })) }
    expect(names(homeBusinesses(plain))).toEqual(['Shop 1', 'Shop 2', 'Shop 3', 'Shop 4', 'Shop 5', 'Shop 6'])
  })
})

describe('searchBusinesses', () => {
  test('matches the name case-insensitively', () => {
    expect(names(searchBusinesses(catalog, 'BIG ROCK'))).toEqual(['big rock coffee'])
  })
  test('matches the short and the full description', () => {
    expect(names(searchBusinesses(catalog, 'coffee'))).toEqual(['big rock coffee', 'Pinnacle Pizza'])
    expect(names(searchBusinesses(catalog, 'maumelle'))).toEqual(['Lakeview Marina'])
  })
  test('never finds an inactive business', () => {
    expect(searchBusinesses(catalog, 'closed')).toEqual([])
  })
  test('an empty query matches everything', () => {
    expect(searchBusinesses(catalog, '  ')).toHaveLength(6)
  })
})

describe('businessCategoryList', () => {
  test('lists business categories by sort_order', () => {
    expect(businessCategoryList(catalog).map((c) => c.slug)).toEqual(['dining-refreshments', 'shopping-convenience'])
  })
})

describe('categoryBySlug', () => {
  test('finds any category type', () => {
    expect(categoryBySlug(catalog, 'nature')?.category_type).toBe('recreation')
    expect(categoryBySlug(catalog, 'nope')).toBeNull()
  })
})

describe('businessStats', () => {
  test('counts active businesses by category and featured', () => {
    expect(businessStats(catalog)).toEqual({
      total: 6,
      byCategory: {
        'Shopping & Convenience': 1,
        'Dining & Refreshments': 2,
        Recreation: 1,
        'Professional Services': 1,
        Business: 1,
      },
      featured: 2,
    })
  })
})

describe('distinctCategories', () => {
  test('keeps first-seen order without repeats', () => {
    expect(distinctCategories(allBusinesses(catalog))).toEqual([
      'Professional Services',
      'Dining & Refreshments',
      'Recreation',
      'Business',
      'Shopping & Convenience',
    ])
  })
})

describe('the lists of some businesses', () => {
  // Each is filtered, then sorted (only the businesses it keeps): the same list, in the same order,
  // as the whole list sorted, then filtered. Names repeat (in case and accents too); slugs do not.
  const business = fc.record({
    name: fc.constantFrom('Cafe', 'café', 'CAFE', 'Bait Shop', 'bait shop', 'Zed', 'Ábaco', 'abaco'),
    category: fc.constantFrom('Dining', 'Shopping', 'Recreation'),
    is_active: fc.boolean(),
    is_featured: fc.boolean(),
    full_description: fc.option(fc.constantFrom('fresh bait', 'coffee and pie', 'Bait and tackle'), { nil: null }),
  })
  const businesses = fc.array(business, { maxLength: 40 }).chain((list) =>
    fc
      .shuffledSubarray(
        list.map((_, index) => `b-${index}`),
        { minLength: list.length, maxLength: list.length },
      )
      .map((slugs) => list.map((fields, index) => makeBusiness({ ...fields, slug: slugs[index] }))),
  )

  property.prop([businesses])('are the whole list, filtered', (list) => {
    const catalog = { businesses: list }
    const all = allBusinesses(catalog)
    for (const category of ['Dining', 'Shopping', 'Recreation', 'Elsewhere']) {
      expect(businessesByCategory(catalog, category)).toEqual(all.filter((b) => b.category === category))
    }
    expect(featuredBusinesses(catalog, 3)).toEqual(all.filter((b) => b.is_featured).slice(0, 3))
    for (const query of ['bait', 'CAFE', 'pie', '']) {
      expect(searchBusinesses(catalog, query)).toEqual(all.filter((b) => matchesSearch(b, query)))
    }
  })
})
