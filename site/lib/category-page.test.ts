import { describe, expect, test } from 'vitest'
import { fixtureCatalog, makeCategory } from '../../scripts/test/fixtures/catalog.ts'
import { assertCategorySlugsFree, backLink, categoryListing, emptyState, guideLink, locationsFoundLabel } from './category-page.ts'

describe('backLink', () => {
  test('goes back to the section of the category type', () => {
    expect(backLink('business')).toEqual({ href: '/businesses', label: 'All Businesses' })
    expect(backLink('recreation')).toEqual({ href: '/recreation', label: 'Recreation' })
    expect(backLink('community')).toEqual({ href: '/community', label: 'Community' })
    expect(backLink('about')).toEqual({ href: '/about', label: 'About Roland' })
  })

  test('goes home for any other type', () => {
    expect(backLink('other')).toEqual({ href: '/', label: 'Home' })
  })
})

describe('locationsFoundLabel', () => {
  test('says how many locations were found, singular or plural', () => {
    expect(locationsFoundLabel(0)).toBe('0 Locations Found')
    expect(locationsFoundLabel(1)).toBe('1 Location Found')
    expect(locationsFoundLabel(3)).toBe('3 Locations Found')
  })
})

describe('categoryListing', () => {
  const catalog = fixtureCatalog()

  test('sets the first featured business apart from the others', () => {
    const dining = makeCategory({ slug: 'dining-refreshments', name: 'Dining & Refreshments' })
    const listing = categoryListing(catalog, dining)
    expect(listing.featured?.name).toBe('big rock coffee')
    expect(listing.others.map((b) => b.name)).toEqual(['Pinnacle Pizza'])
    expect(listing.count).toBe(2)
  })

  test('has no featured business when none is featured', () => {
    const shopping = makeCategory({ slug: 'shopping-convenience', name: 'Shopping & Convenience' })
    expect(categoryListing(catalog, shopping)).toMatchObject({ featured: null, count: 1 })
  })

  test('lists nothing for a category that is not a business category', () => {
    const recreation = makeCategory({ slug: 'recreation', name: 'Recreation', category_type: 'recreation' })
    expect(categoryListing(catalog, recreation)).toEqual({ featured: null, others: [], count: 0 })
  })
})

describe('emptyState', () => {
  test("says 'No Businesses Yet' for a business category and 'Coming Soon' for the others", () => {
    expect(emptyState('business').title).toBe('No Businesses Yet')
    expect(emptyState('community').title).toBe('Coming Soon')
  })
})

describe('guideLink', () => {
  test('points recreation categories to their recreation guide', () => {
    expect(guideLink({ slug: 'nature', category_type: 'recreation' })).toBe('/recreation/nature')
  })

  test('points community and about categories to their written guide, when there is one', () => {
    expect(guideLink({ slug: 'faith', category_type: 'community' })).toBe('/community/faith')
    expect(guideLink({ slug: 'history', category_type: 'about' })).toBe('/about/history')
    expect(guideLink({ slug: 'parks', category_type: 'community' })).toBeNull()
  })

  test('gives business categories none: they list their businesses', () => {
    expect(guideLink({ slug: 'dining-refreshments', category_type: 'business' })).toBeNull()
  })
})

describe('assertCategorySlugsFree', () => {
  test('accepts the seeded slugs', () => {
    expect(() => assertCategorySlugsFree([{ slug: 'dining-refreshments' }, { slug: 'sports' }])).not.toThrow()
  })

  test('refuses a slug that would shadow a page of the site', () => {
    expect(() => assertCategorySlugsFree([{ slug: 'events' }])).toThrow(/events.*Rename/s)
  })
})
