import { describe, expect, test } from 'vitest'
import { fixtureTown, makeCategory } from '../../scripts/test/fixtures/catalog.ts'
import { footerGroups, isCurrent, navigation } from './navigation.ts'

const town = fixtureTown()

const seeded = [
  ['dining-refreshments', 'Dining & Refreshments'],
  ['shopping-convenience', 'Shopping & Convenience'],
  ['professional-services', 'Professional Services'],
  ['sports', 'Sports & Recreation'],
  ['nature', 'Natural Attractions'],
  ['premium', 'Premium Destinations'],
  ['centers', 'Community Centers'],
  ['emergency', 'Emergency Services'],
  ['faith', 'Faith Communities'],
  ['education', 'Education'],
  ['history', 'History'],
].map(([slug, name]) => makeCategory({ slug: slug!, name: name! }))

const hrefs = (items: { href: string; children?: { href: string }[] }[]) =>
  items.flatMap((item) => [item.href, ...(item.children ?? []).map((c) => c.href)])

describe('navigation', () => {
  test('links every page of SPEC §2, in order', () => {
    expect([...new Set(hrefs(navigation(seeded, town)))]).toEqual([
      '/',
      '/businesses',
      '/dining-refreshments',
      '/shopping-convenience',
      '/professional-services',
      '/recreation',
      '/sports',
      '/nature',
      '/premium',
      '/community',
      '/centers',
      '/emergency',
      '/faith',
      '/about',
      '/education',
      '/history',
      '/nearby',
      '/events',
      '/contact',
    ])
  })

  test('labels category links with the category names', () => {
    const businesses = navigation(seeded, town).find((item) => item.label === 'Businesses')
    expect(businesses?.children?.map((c) => c.label)).toEqual([
      'All Businesses',
      'Dining & Refreshments',
      'Shopping & Convenience',
      'Professional Services',
    ])
  })

  test('leaves out links to categories the catalog does not have', () => {
    expect(
      hrefs(
        navigation(
          seeded.filter((c) => c.slug !== 'premium'),
          town,
        ),
      ),
    ).not.toContain('/premium')
  })
})

describe('footerGroups', () => {
  test('links every footer target of SPEC §2', () => {
    expect(footerGroups(seeded).flatMap((group) => group.links.map((l) => l.href))).toEqual([
      '/businesses/dining',
      '/businesses/shopping',
      '/businesses/services',
      '/recreation/sports',
      '/recreation/nature',
      '/recreation/premium',
      '/community/centers',
      '/community/emergency',
      '/community/faith',
      '/community/garden',
      '/about/education',
      '/about/history',
      '/contact',
    ])
  })

  test('leaves out a business or recreation link whose category is missing', () => {
    const links = footerGroups(seeded.filter((c) => !['nature', 'dining-refreshments'].includes(c.slug))).flatMap((g) =>
      g.links.map((l) => l.href),
    )
    expect(links).not.toContain('/recreation/nature')
    expect(links).not.toContain('/businesses/dining')
  })
})

describe('isCurrent', () => {
  test('matches the page with or without a trailing slash', () => {
    expect(isCurrent('/businesses', '/businesses/')).toBe(true)
    expect(isCurrent('/', '/')).toBe(true)
    expect(isCurrent('/businesses', '/business/roland-coffee-house')).toBe(false)
  })
})
