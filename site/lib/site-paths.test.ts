import { describe, expect, test } from 'vitest'
import type { Attraction } from '@roland/scripts/catalog/types'
import { fixtureCatalog, makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import { textPagePaths } from './pages.ts'
import { sitePaths } from './site-paths.ts'

describe('sitePaths', () => {
  const attractions = [
    { id: 'pinnacle-mountain-state-park', is_featured: true },
    { id: 'lake-maumelle', is_featured: false },
  ] as Attraction[]
  // Every text page published, as the seed has them (a text page without its row is not built).
  const pages = textPagePaths.map((path) => ({ path, title: path, description: '', intro: '', body: '', items: [] }))
  const paths = sitePaths({ ...fixtureCatalog(), attractions, pages })

  test('lists the fixed pages, every category page and the recreation guides', () => {
    expect(paths).toEqual(
      expect.arrayContaining([
        '/',
        '/businesses',
        '/events',
        '/contact',
        '/dining-refreshments',
        '/history',
        '/nature',
        '/recreation/nature',
      ]),
    )
    expect(paths).not.toContain('/recreation/history')
  })

  test('lists each attraction once, the featured one at its own address', () => {
    expect(paths).toContain('/recreation/pinnacle-mountain')
    expect(paths).toContain('/attraction/lake-maumelle')
    expect(paths).not.toContain('/attraction/pinnacle-mountain-state-park')
  })

  test('lists the active businesses only', () => {
    expect(paths).toContain('/business/big-rock-coffee')
    expect(paths).not.toContain('/business/closed-diner')
  })

  test('lists the first page of a category that fits on one, and no other', () => {
    expect(paths.filter((p) => p.startsWith('/dining-refreshments'))).toEqual(['/dining-refreshments'])
  })

  test('lists every later page of a category, as of the businesses list', () => {
    const catalog = fixtureCatalog()
    const shops = Array.from({ length: 60 }, (_, i) =>
      makeBusiness({ name: `Shop ${i + 10}`, category: 'Shopping & Convenience' }),
    )
    const many = sitePaths({ ...catalog, businesses: [...catalog.businesses, ...shops] })
    // 61 shops, none featured: 24 + 24 + 13.
    expect(many.filter((p) => p.startsWith('/shopping-convenience'))).toEqual([
      '/shopping-convenience',
      '/shopping-convenience/page/2',
      '/shopping-convenience/page/3',
    ])
    expect(many).toContain('/businesses/page/3')
    expect(many.filter((p) => p.startsWith('/dining-refreshments'))).toEqual(['/dining-refreshments'])
    expect(new Set(many).size).toBe(many.length)
  })
})
