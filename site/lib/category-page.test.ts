import { describe, expect, test } from 'vitest'
import { fixtureCatalog, fixtureTown, makeBusiness, makeCategory } from '../../scripts/test/fixtures/catalog.ts'
import {
  assertCategorySlugsFree,
  backLink,
  categoryListing,
  categoryPages,
  categoryPath,
  categoryStaticPaths,
  emptyState,
  guideLink,
  locationsFoundLabel,
  shownOn,
} from './category-page.ts'

const town = fixtureTown()

describe('backLink', () => {
  test('goes back to the section of the category type', () => {
    expect(backLink('business', town)).toEqual({ href: '/businesses', label: 'All Businesses' })
    expect(backLink('recreation', town)).toEqual({ href: '/recreation', label: 'Recreation' })
    expect(backLink('community', town)).toEqual({ href: '/community', label: 'Community' })
    expect(backLink('about', town)).toEqual({ href: '/about', label: 'About Roland' })
  })

  test('goes home for any other type', () => {
    expect(backLink('other', town)).toEqual({ href: '/', label: 'Home' })
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

describe('categoryPath', () => {
  test('is /{slug} for the first page and /{slug}/page/N for the others', () => {
    expect(categoryPath('dining-refreshments')).toBe('/dining-refreshments')
    expect(categoryPath('dining-refreshments', 1)).toBe('/dining-refreshments')
    expect(categoryPath('dining-refreshments', 3)).toBe('/dining-refreshments/page/3')
  })
})

describe('categoryPages', () => {
  const letters = (count: number) => Array.from({ length: count }, (_, i) => `b${String(i + 1).padStart(2, '0')}`)
  const positions = (pages: ReturnType<typeof categoryPages>) => pages.map((p) => [p.first, p.last])

  test('shows the featured location on the first page only, above 24 cards it is not counted among', () => {
    const pages = categoryPages({ featured: 'featured', others: letters(50), count: 51 })
    expect(pages.map((p) => [p.page, p.pageCount, p.total])).toEqual([
      [1, 3, 51],
      [2, 3, 51],
      [3, 3, 51],
    ])
    expect(pages.map((p) => p.featured)).toEqual(['featured', null, null])
    expect(pages.map((p) => p.items.length)).toEqual([24, 24, 2])
    expect(pages.flatMap(shownOn)).toEqual(['featured', ...letters(50)])
  })

  test('numbers the locations through the whole category, the featured one first', () => {
    expect(positions(categoryPages({ featured: 'featured', others: letters(50), count: 51 }))).toEqual([
      [1, 25],
      [26, 49],
      [50, 51],
    ])
    expect(positions(categoryPages({ featured: null, others: letters(50), count: 50 }))).toEqual([
      [1, 24],
      [25, 48],
      [49, 50],
    ])
  })

  test('keeps 24 cards and a featured location on one page', () => {
    const pages = categoryPages({ featured: 'featured', others: letters(24), count: 25 })
    expect(pages).toHaveLength(1)
    expect(pages[0]).toMatchObject({ pageCount: 1, first: 1, last: 25, featured: 'featured' })
  })

  test('gives a category with only its featured location, or none at all, one page', () => {
    expect(categoryPages({ featured: 'featured', others: [], count: 1 })).toEqual([
      { page: 1, pageCount: 1, total: 1, first: 1, last: 1, featured: 'featured', items: [] },
    ])
    expect(categoryPages({ featured: null, others: [], count: 0 })).toEqual([
      { page: 1, pageCount: 1, total: 0, first: 0, last: 0, featured: null, items: [] },
    ])
  })

  test("pages a catalog category's listing", () => {
    const catalog = {
      businesses: letters(30).map((name, i) =>
        makeBusiness({ name: `Shop ${name}`, category: 'Shopping & Convenience', is_featured: i === 7 }),
      ),
    }
    const shopping = makeCategory({ slug: 'shopping-convenience', name: 'Shopping & Convenience' })
    const pages = categoryPages(categoryListing(catalog, shopping))
    expect(pages.map((p) => [p.featured?.name ?? null, p.items.length])).toEqual([
      ['Shop b08', 24],
      [null, 5],
    ])
    expect(pages[1]!.items.map((b) => b.name)).toEqual(['Shop b26', 'Shop b27', 'Shop b28', 'Shop b29', 'Shop b30'])
  })
})

describe('categoryStaticPaths', () => {
  // The fixture catalog and 60 more shops: Shopping & Convenience takes three pages.
  const base = fixtureCatalog()
  const shops = Array.from({ length: 60 }, (_, i) =>
    makeBusiness({ name: `Shop ${String(i + 1).padStart(2, '0')}`, category: 'Shopping & Convenience' }),
  )
  const catalog = { ...base, businesses: [...base.businesses, ...shops] }
  const keys = (c: typeof catalog) =>
    new Map(
      categoryStaticPaths(c).map((path) => [categoryPath(path.params.category, path.props.page.page), path.cacheKey]),
    )
  const paths = categoryStaticPaths(catalog)

  test('makes every page of every category, the first at /{slug}', () => {
    expect(paths.map((p) => [p.params.category, p.params.page ?? null])).toEqual([
      ['dining-refreshments', null],
      ['shopping-convenience', null],
      ['shopping-convenience', 'page/2'],
      ['shopping-convenience', 'page/3'],
      ['nature', null],
      ['history', null],
    ])
  })

  test('gives each page only the category and its own locations', () => {
    const third = paths.find((p) => p.params.page === 'page/3')!
    expect(Object.keys(third.props).sort()).toEqual(['category', 'page'])
    expect(third.props.page).toMatchObject({ page: 3, pageCount: 3, total: 61, first: 49, last: 61, featured: null })
    expect(third.props.page.items.map((b) => b.name)).toEqual(shops.slice(47).map((b) => b.name))
  })

  test('changes the cacheKey of the one page that shows a changed business', () => {
    const before = keys(catalog)
    const edited = catalog.businesses.map((b) =>
      b.name === 'Shop 30' ? { ...b, short_description: 'Now open Sundays' } : b,
    )
    const after = keys({ ...catalog, businesses: edited })
    const changed = [...after].filter(([path, key]) => before.get(path) !== key).map(([path]) => path)
    expect(changed).toEqual(['/shopping-convenience/page/2'])
  })

  test('changes the cacheKey of every page of a category whose count changed, and only those', () => {
    const before = keys(catalog)
    const after = keys({
      ...catalog,
      businesses: [...catalog.businesses, makeBusiness({ name: 'Zed Shop', category: 'Shopping & Convenience' })],
    })
    const changed = [...after].filter(([path, key]) => before.get(path) !== key).map(([path]) => path)
    expect(changed).toEqual(['/shopping-convenience', '/shopping-convenience/page/2', '/shopping-convenience/page/3'])
  })

  test('changes every cacheKey when the categories the layout draws change', () => {
    const before = keys(catalog)
    const after = keys({
      ...catalog,
      categories: [
        ...catalog.categories,
        makeCategory({ slug: 'faith', name: 'Faith', category_type: 'community', sort_order: 90 }),
      ],
    })
    expect([...before].filter(([path, key]) => after.get(path) === key)).toEqual([])
  })

  test('refuses a category slug that would shadow a page of the site', () => {
    expect(() =>
      categoryStaticPaths({
        ...catalog,
        categories: [...catalog.categories, makeCategory({ slug: 'businesses', name: 'Businesses' })],
      }),
    ).toThrow(/Rename/)
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
