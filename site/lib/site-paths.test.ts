import { describe, expect, test } from 'vitest'
import type { Attraction } from '@roland/scripts/catalog/types'
import { fixtureCatalog } from '../../scripts/test/fixtures/catalog.ts'
import { sitePaths } from './site-paths.ts'

describe('sitePaths', () => {
  const attractions = [
    { id: 'pinnacle-mountain-state-park', is_featured: true },
    { id: 'lake-maumelle', is_featured: false },
  ] as Attraction[]
  const paths = sitePaths({ ...fixtureCatalog(), attractions })

  test('lists the fixed pages, every category page and the recreation guides', () => {
    expect(paths).toEqual(expect.arrayContaining(['/', '/businesses', '/events', '/contact', '/dining-refreshments', '/history', '/nature', '/recreation/nature']))
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
})
