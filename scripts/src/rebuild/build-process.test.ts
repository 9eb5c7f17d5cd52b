import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { serialize } from 'node:v8'
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

describe('a catalog handed over again, one business changed', () => {
  test('is written as a file written afresh would be, its unchanged parts from the bytes written last', async () => {
    const catalog = catalogOf(2500)
    await writeCatalogFile(path.join(dir, 'first.v8'), catalog)
    const businesses = catalog.businesses.map((b, n) => (n === 1200 ? { ...b, name: 'Business renamed' } : b))
    const again = path.join(dir, 'again.v8')
    await writeCatalogFile(again, { ...catalog, businesses })
    // Another catalog's parts in between: the same catalog is then written afresh, every part serialized.
    await writeCatalogFile(path.join(dir, 'other.v8'), catalogOf(10))
    const fresh = path.join(dir, 'fresh.v8')
    await writeCatalogFile(fresh, { ...catalog, businesses })
    expect((await readFile(again)).equals(await readFile(fresh))).toBe(true)
    expect((await readCatalogFile(again)).businesses[1200]!.name).toBe('Business renamed')
  })

  test('read with reuse, gives the businesses of unchanged parts as the objects read last, and the changed part anew', async () => {
    const catalog = catalogOf(2500)
    const first = path.join(dir, 'reuse-first.v8')
    await writeCatalogFile(first, catalog)
    const before = await readCatalogFile(first, { reuse: true })
    const businesses = catalog.businesses.map((b, n) => (n === 1200 ? { ...b, name: 'Business renamed' } : b))
    const second = path.join(dir, 'reuse-second.v8')
    await writeCatalogFile(second, { ...catalog, businesses })
    const after = await readCatalogFile(second, { reuse: true })
    expect(after).toEqual({ ...catalog, businesses })
    expect(after.businesses[0]).toBe(before.businesses[0])
    expect(after.businesses[2400]).toBe(before.businesses[2400])
    // The part of the changed business (1000-1999) is read anew, all of it.
    expect(after.businesses[1200]!.name).toBe('Business renamed')
    expect(after.businesses[1000]).not.toBe(before.businesses[1000])
    // Without reuse (the catalog reader's thread, which reads once), every business is read anew.
    const plain = await readCatalogFile(second)
    expect(plain.businesses[0]).not.toBe(after.businesses[0])
    expect(plain).toEqual(after)
  })
})

describe('a catalog file written before its parts carried their digests (a console started before)', () => {
  test('reads back as written, and with reuse gives the businesses of parts it read last as those objects', async () => {
    const catalog = catalogOf(2500)
    const { businesses, ...rest } = catalog
    const parts = [serialize(rest), ...[0, 1000, 2000].map((at) => serialize(businesses.slice(at, at + 1000)))]
    const file = path.join(dir, 'before-digests.v8')
    await writeFile(
      file,
      parts.flatMap((part) => {
        const length = Buffer.alloc(4)
        length.writeUInt32LE(part.byteLength)
        return [length, part]
      }),
    )
    const first = await readCatalogFile(file, { reuse: true })
    expect(first).toEqual(catalog)
    const again = await readCatalogFile(file, { reuse: true })
    expect(again.businesses[1500]).toBe(first.businesses[1500])
    expect(await readCatalogFile(file)).toEqual(catalog)
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
