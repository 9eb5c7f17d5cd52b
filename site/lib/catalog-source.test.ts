import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { BusinessImage, Catalog } from '@roland/scripts/catalog/types'
import { fixtureCatalog, makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import { renameBusiness } from '../../test/support/catalog-changes.ts'
import { provideDevCatalog, withoutMissingFiles } from './catalog-source.ts'
import { getCatalog } from './catalog.ts'

const image = (image_url: string): BusinessImage => ({
  id: '00000000-0000-4000-9000-000000000001',
  business_id: '00000000-0000-4000-8000-000000000001',
  image_url,
  alt_text: null,
  image_type: 'gallery',
  is_primary: false,
  sort_order: 0,
  metadata: {},
  width: null,
  height: null,
  placeholder: null,
  variants: [],
})

describe('withoutMissingFiles', () => {
  test('leaves out storage images whose file is gone, and says which', () => {
    const business = makeBusiness({ name: 'Cafe', images: [image('/files/a.png'), image('/files/gone.png')] })
    const { catalog, dropped } = withoutMissingFiles(
      { ...fixtureCatalog(), businesses: [business] },
      (url) => url !== '/files/gone.png',
    )
    expect(catalog.businesses[0]!.images.map((i) => i.image_url)).toEqual(['/files/a.png'])
    expect(dropped).toEqual([{ slug: 'cafe', url: '/files/gone.png' }])
  })

  test('serves an image without its derivatives when a derivative file is gone, and says which', () => {
    const variant = (url: string) => ({ format: 'avif' as const, width: 320, height: 180, url, bytes: 1000 })
    const whole = { ...image('/files/a.png'), variants: [variant('/files/a-320.avif')] }
    const broken = { ...image('/files/b.png'), variants: [variant('/files/b-320.avif')] }
    const business = makeBusiness({ name: 'Cafe', images: [whole, broken] })
    const { catalog, dropped } = withoutMissingFiles(
      { ...fixtureCatalog(), businesses: [business] },
      (url) => url !== '/files/b-320.avif',
    )
    expect(catalog.businesses[0]!.images.map((i) => [i.image_url, i.variants.length])).toEqual([
      ['/files/a.png', 1],
      ['/files/b.png', 0],
    ])
    expect(dropped).toEqual([{ slug: 'cafe', url: '/files/b-320.avif', derivative: true }])
  })

  test('keeps absolute image URLs, such as Supabase Storage, without looking for a file', () => {
    const url = 'https://abcd.supabase.co/storage/v1/object/public/files/business-images/a.png'
    const business = makeBusiness({ name: 'Cafe', images: [image(url)] })
    const { catalog, dropped } = withoutMissingFiles({ ...fixtureCatalog(), businesses: [business] }, () => false)
    expect(catalog.businesses[0]!.images.map((i) => i.image_url)).toEqual([url])
    expect(dropped).toEqual([])
  })
})

describe('the catalog the pages of astro dev read', () => {
  const nameIn = async (catalog: Promise<Catalog>) =>
    (await catalog).businesses.find((b) => b.slug === 'big-rock-coffee')?.name

  beforeEach(async () => {
    vi.stubEnv('SUPABASE_URL', '')
    dir = await mkdtemp(path.join(os.tmpdir(), 'roland-catalog-source-'))
    vi.stubEnv('ROLAND_DATA_DIR', dir)
  })
  let dir = ''
  afterEach(async () => {
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('roland.site.catalog')]
    vi.unstubAllEnvs()
    await rm(dir, { recursive: true, force: true })
  })

  test('astro dev reads it afresh for each request, its pages sharing the read under way', async () => {
    provideDevCatalog()
    const [page, header] = [getCatalog(), getCatalog()]
    expect(header).toBe(page)
    expect(await nameIn(page)).toBe('Big Rock Coffee')
    await renameBusiness(dir, 'big-rock-coffee', 'Big Rock Coffee & Bakery')
    expect(await nameIn(getCatalog())).toBe('Big Rock Coffee & Bakery')
  })
})
