import { describe, expect, test } from 'vitest'
import type { Page } from '../../scripts/src/catalog/types.ts'
import { fixtureCatalog, makeBusiness, makeCategory } from '../../scripts/test/fixtures/catalog.ts'
import {
  businessPageCacheKey,
  catalogPageCacheKey,
  globalCatalogParts,
  layoutCacheData,
  pageCacheKey,
  textCacheKey,
} from './build-cache.ts'

describe('pageCacheKey', () => {
  test('is the same for the same data and differs when any of it changes', () => {
    expect(pageCacheKey({ a: 1 }, [2])).toBe(pageCacheKey({ a: 1 }, [2]))
    expect(pageCacheKey({ a: 1 }, [2])).not.toBe(pageCacheKey({ a: 1 }, [3]))
    expect(pageCacheKey({ a: 1 }, [2])).not.toBe(pageCacheKey({ a: 2 }, [2]))
  })
})

describe('textCacheKey (a file written as it is)', () => {
  test('is the same for the same text and differs when any of it changes, as short as a page key', () => {
    const json = JSON.stringify({ w: ['tea', 'cafe'] })
    expect(textCacheKey(json)).toBe(textCacheKey(JSON.stringify({ w: ['tea', 'cafe'] })))
    expect(textCacheKey(json)).not.toBe(textCacheKey(JSON.stringify({ w: ['tea', 'cafes'] })))
    expect(textCacheKey(json)).toHaveLength(pageCacheKey(json).length)
  })
})

describe('businessPageCacheKey (a business page)', () => {
  const catalog = fixtureCatalog()
  const business = catalog.businesses[0]!

  test('changes when the business changes', () => {
    expect(businessPageCacheKey({ ...business, phone: '(501) 555-0199' }, catalog)).not.toBe(
      businessPageCacheKey(business, catalog),
    )
  })

  test('changes when the categories the layout draws change', () => {
    const renamed = { ...catalog, categories: [...catalog.categories, makeCategory({ slug: 'faith', name: 'Faith' })] }
    expect(businessPageCacheKey(business, renamed)).not.toBe(businessPageCacheKey(business, catalog))
  })

  test('changes when an event or an attraction changes', () => {
    const event = {
      id: '00000000-0000-4000-8000-000000000990',
      slug: 'potluck',
      title: 'Potluck',
      description: null,
      starts_at: '2099-01-01T18:00:00-06:00',
      ends_at: null,
      location: 'Community Center',
      event_type: 'Community',
    }
    expect(businessPageCacheKey(business, { ...catalog, events: [event] })).not.toBe(
      businessPageCacheKey(business, catalog),
    )
  })

  test('stays the same when another business changes', () => {
    const other = { ...catalog, businesses: [...catalog.businesses, makeBusiness({ name: 'New Shop' })] }
    expect(businessPageCacheKey(business, other)).toBe(businessPageCacheKey(business, catalog))
  })
})

describe('globalCatalogParts (what every page draws)', () => {
  const catalog = fixtureCatalog()

  test("are in every page's layout data, so a change to them gives every page a new key", () => {
    const town = { ...catalog, town: { ...catalog.town, name: 'Roland Village' } }
    expect(layoutCacheData(catalog).slice(0, globalCatalogParts(catalog).length)).toEqual(globalCatalogParts(catalog))
    expect(globalCatalogParts(town)).not.toEqual(globalCatalogParts(catalog))
    expect(pageCacheKey({ list: 1 }, layoutCacheData(town))).not.toBe(
      pageCacheKey({ list: 1 }, layoutCacheData(catalog)),
    )
    expect(catalogPageCacheKey({ page: 1 }, town)).not.toBe(catalogPageCacheKey({ page: 1 }, catalog))
  })

  test("take the pages' rows: the footer quotes the home page's intro, the header and footer leave out unpublished pages", () => {
    const home: Page = {
      path: '/',
      title: 'Welcome',
      description: null,
      intro: 'Roland, on the lake.',
      body: '',
      items: [],
    }
    const edited: Page = { ...home, intro: 'Roland, between the river and the lake.' }
    const keyWith = (page: Page) => pageCacheKey({ list: 1 }, layoutCacheData({ ...catalog, pages: [page] }))
    expect(keyWith(edited)).not.toBe(keyWith(home))
  })
})
