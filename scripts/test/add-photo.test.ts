import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { addPhoto } from '../src/images/add-photo.ts'
import { BadImageError } from '../src/images/bad-image-error.ts'
import { IngestError } from '../src/images/ingest.ts'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStoreIn } from './support/fresh-store.ts'
import { htmlPage, photoJpeg, pixelBombPng, svgWithScript } from './support/image-fixtures.ts'

// Adding a photo (what the console's upload calls) against the embedded Postgres with its files in a
// temporary folder: everything is written and recorded, or nothing is.

let dir: string
let store: EmbeddedStore
let businessId: string

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'roland-add-photo-'))
  store = await freshStoreIn(dir)
  const { rows } = await store.db.query<{ id: string }>(
    `insert into businesses (slug, name, category, is_active) values ('big-rock-coffee', 'Big Rock Coffee', 'Dining & Refreshments', true) returning id`,
  )
  businessId = rows[0]!.id
})

afterAll(async () => {
  await store?.close()
  await rm(dir, { recursive: true, force: true })
})

beforeEach(async () => {
  await store.db.exec(`
    drop trigger if exists refuse_images on business_images;
    delete from business_images;`)
  await rm(path.join(dir, 'storage'), { recursive: true, force: true })
})

/** Every file in the files bucket, by path. */
async function bucket(): Promise<string[]> {
  const root = path.join(dir, 'storage', 'files')
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort()
}

async function images() {
  const { rows } = await store.db.query<{
    image_url: string
    width: number | null
    height: number | null
    placeholder: string | null
    variants: Array<{ format: string; width: number; url: string }>
    metadata: Record<string, unknown>
  }>('select image_url, width, height, placeholder, variants, metadata from business_images order by created_at')
  return rows
}

const photo = (bytes: Uint8Array, name = 'storefront.jpg') => ({
  businessId,
  bytes,
  name,
  altText: 'The storefront of Big Rock Coffee',
  imageType: 'hero' as const,
  isPrimary: true,
})

describe('addPhoto', () => {
  test('stores a 2400×1600 JPEG with its derivatives and records them in its row', async () => {
    const added = await addPhoto(store, photo(await photoJpeg(2400, 1600)))
    expect(added).toMatchObject({ created: true, width: 2400, height: 1600, variants: 15 })

    const [row] = await images()
    expect(row!.image_url).toBe(`/files/${added.path}`)
    expect([row!.width, row!.height]).toEqual([2400, 1600])
    expect(row!.placeholder).toMatch(/^[A-Za-z0-9+/]+=*$/)
    expect(row!.variants.map((v) => `${v.format}@${v.width}`)).toEqual(
      [320, 640, 720, 960, 1440].flatMap((w) => [`avif@${w}`, `webp@${w}`, `jpeg@${w}`]),
    )
    expect(row!.metadata).toMatchObject({ source: 'upload', fileName: 'storefront.jpg' })
    const files = await bucket()
    expect(files).toHaveLength(16)
    for (const variant of row!.variants) expect(files).toContain(variant.url.replace(/^\/files\//, ''))

    // The site reads the derivatives with the catalog, as the anon role.
    const catalog = await store.loadCatalog()
    const image = catalog.businesses.find((b) => b.slug === 'big-rock-coffee')!.images[0]!
    expect(image.variants).toHaveLength(15)
    expect(image.placeholder).toBe(row!.placeholder)
  })

  test('adds nothing the second time the same photo comes', async () => {
    const bytes = await photoJpeg(800, 600)
    await addPhoto(store, photo(bytes))
    const files = await bucket()
    const again = await addPhoto(store, photo(bytes))
    expect(again.created).toBe(false)
    expect(await images()).toHaveLength(1)
    expect(await bucket()).toEqual(files)
  })

  test('refuses an HTML page named .jpg, writing no file and no row', async () => {
    const error = await addPhoto(store, photo(htmlPage, 'menu.jpg')).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(BadImageError)
    expect((error as Error).message).toMatch(/^menu\.jpg is an HTML page, not a photo/)
    expect(await bucket()).toEqual([])
    expect(await images()).toEqual([])
  })

  test('refuses a decompression bomb, writing no file and no row', async () => {
    const error = await addPhoto(store, photo(pixelBombPng(30_000, 30_000), 'bomb.png')).catch(
      (caught: unknown) => caught,
    )
    expect((error as BadImageError).code).toBe('too-many-pixels')
    expect(await bucket()).toEqual([])
    expect(await images()).toEqual([])
  })

  test('keeps an SVG logo cleaned of its script, without raster derivatives', async () => {
    const added = await addPhoto(store, { ...photo(svgWithScript, 'logo.svg'), imageType: 'logo' })
    expect(added).toMatchObject({ variants: 0, placeholder: null, width: 200, height: 100 })
    const [row] = await images()
    expect(row!.variants).toEqual([])
    expect(row!.metadata.sanitized).toEqual(['script element'])
    expect(await bucket()).toEqual([added.path])
    const stored = Buffer.from((await store.files.get(added.path))!).toString()
    expect(stored).not.toContain('script')
  })

  test('refuses an SVG as a hero photo', async () => {
    const error = await addPhoto(store, photo(svgWithScript, 'hero.svg')).catch((caught: unknown) => caught)
    expect((error as BadImageError).code).toBe('svg-photo')
    expect(await bucket()).toEqual([])
  })

  test('removes the photo and every derivative when its row cannot be recorded', async () => {
    await store.db.exec(`
      create or replace function refuse_images() returns trigger language plpgsql as
        $$ begin raise exception 'business_images is read-only in this test'; end $$;
      create trigger refuse_images before insert on business_images for each row execute function refuse_images();`)
    const error = await addPhoto(store, photo(await photoJpeg(1000, 700))).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(IngestError)
    expect((error as IngestError).step).toBe('record')
    expect((error as Error).message).toMatch(
      /^Failed to record storefront\.jpg: .*read-only in this test.*\. The files written for it were removed$/,
    )
    expect(await bucket()).toEqual([])
    expect(await images()).toEqual([])
  })
})
