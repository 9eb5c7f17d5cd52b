import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Business, Catalog } from '../catalog/types.ts'
import { sameCatalog } from './astro-build.ts'
import { readCatalogFile, writeCatalogFile } from './build-process.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'roland-handover-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const business = (n: number) =>
  ({ slug: `business-${n}`, name: `Business ${n}`, services: [{ service_name: 'Tea' }] }) as unknown as Business

const catalogOf = (count: number) =>
  ({
    town: { name: 'Roland' },
    businesses: Array.from({ length: count }, (_, n) => business(n)),
    categories: [{ name: 'Dining & Refreshments' }],
    attractions: [],
    events: [],
    pages: [],
    alerts: [],
  }) as unknown as Catalog

describe('the catalog a rebuild hands over', () => {
  test.each([0, 1, 999, 1000, 2501])('reads back as written, %i businesses in order', async (count) => {
    const file = path.join(dir, `catalog-${count}.v8`)
    const catalog = catalogOf(count)
    await writeCatalogFile(file, catalog)
    const read = await readCatalogFile(file)
    expect(read).toEqual(catalog)
    expect(read.businesses.map((b) => b.slug)).toEqual(catalog.businesses.map((b) => b.slug))
  })
})

describe('whether the catalog is still the one handed ahead (sameCatalog)', () => {
  const ahead = catalogOf(3)
  test('is when each business is the same one and the rest is equal', () => {
    expect(sameCatalog(ahead, { ...ahead, businesses: [...ahead.businesses], pages: [] })).toBe(true)
  })
  test('is not when a business was read again, even into an equal one', () => {
    const businesses = ahead.businesses.map((b, i) => (i === 1 ? structuredClone(b) : b))
    expect(sameCatalog(ahead, { ...ahead, businesses })).toBe(false)
  })
  test('is not when a business is added, or anything else in the catalog changed', () => {
    expect(sameCatalog(ahead, { ...ahead, businesses: [...ahead.businesses, business(3)] })).toBe(false)
    expect(sameCatalog(ahead, { ...ahead, town: { ...ahead.town, name: 'Roland, AR' } })).toBe(false)
    expect(sameCatalog(ahead, { ...ahead, events: [{ title: 'Potluck' }] as unknown as Catalog['events'] })).toBe(false)
  })
})
