import { describe, expect, test } from 'vitest'
import { allBusinesses } from '@roland/scripts/catalog/queries'
import { fixtureCatalog, makeCategory } from '../../scripts/test/fixtures/catalog.ts'
import { categoryStaticPaths } from './category-page.ts'
import {
  businessListPaths,
  businessPaths,
  categoryPaths,
  directoryPaths,
  workOutCatalogPaths,
} from './catalog-paths.ts'

const routes = [businessPaths, businessListPaths, categoryPaths, directoryPaths]

describe('the paths of the catalog’s routes', () => {
  test('worked out ahead are the very ones the routes get after', () => {
    const catalog = fixtureCatalog()
    workOutCatalogPaths(catalog)
    const ahead = routes.map((paths) => paths(catalog))
    for (const [index, paths] of routes.entries()) expect(paths(catalog)).toBe(ahead[index])
    expect(businessPaths(catalog).map((path) => path.params.slug)).toEqual(
      allBusinesses(catalog).map((business) => business.slug),
    )
    expect(ahead[2]).toEqual(categoryStaticPaths(catalog))
  })

  test('are worked out anew for another catalog, as a rebuild reads one', () => {
    const catalog = fixtureCatalog()
    workOutCatalogPaths(catalog)
    const next = fixtureCatalog()
    const renamed = allBusinesses(next)[0]!
    next.businesses = next.businesses.map((business) =>
      business === renamed ? { ...business, slug: `${business.slug}-renamed` } : business,
    )
    const paths = businessPaths(next)
    expect(paths).not.toBe(businessPaths(catalog))
    expect(paths.map((path) => path.params.slug)).toContain(`${renamed.slug}-renamed`)
    expect(paths.map((path) => path.params.slug)).not.toContain(renamed.slug)
  })

  test('a failure ahead is thrown again by the route, not kept', () => {
    const catalog = fixtureCatalog()
    catalog.categories = [...catalog.categories, makeCategory({ slug: 'businesses', name: 'Businesses' })]
    expect(() => workOutCatalogPaths(catalog)).toThrow(/use a slug the site needs/)
    expect(() => categoryPaths(catalog)).toThrow(/use a slug the site needs/)
  })
})
