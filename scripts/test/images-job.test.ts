import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { categoryStyle } from '../src/images/category-style.ts'
import { isGeneratedImage } from '../src/images/generated.ts'
import { generateStoreImages, pngSize, storeImagePath } from '../src/images/job.ts'
import { localImageProvider, openAiImageProvider } from '../src/images/providers.ts'
import { renderStoreImage } from '../src/images/render-store.ts'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'
import { startImagesApiStandIn, type ImagesApiStandIn } from './images-api-stand-in.ts'

// The images job against the real embedded Postgres (migrations, seed, row-level security)
// and its files bucket: what is uploaded, what is recorded, what is skipped, what is undone.

let store: EmbeddedStore | undefined
let api: ImagesApiStandIn

beforeAll(async () => {
  api = await startImagesApiStandIn()
})

afterAll(async () => {
  await api.close()
})

afterEach(async () => {
  await store?.close()
  store = undefined
  api.answer = 'image'
  api.answerFor = null
})

const timestamp = 1_790_000_000_000

/** A fresh in-memory store with four businesses: two without images, one with, one inactive. */
async function openWithBusinesses(): Promise<{ store: EmbeddedStore; ids: Record<string, string> }> {
  store = await freshStore()
  const { rows } = await store.db.query<{ slug: string; id: string }>(`
    insert into businesses (slug, name, category, is_active) values
      ('big-rock-coffee', 'Big Rock Coffee', 'Dining & Refreshments', true),
      ('lakeview-marina', 'Lakeview Marina', 'Recreation', true),
      ('roland-hardware', 'Roland Hardware', 'Shopping & Convenience', true),
      ('closed-diner', 'Closed Diner', 'Dining & Refreshments', false)
    returning slug, id`)
  const ids = Object.fromEntries(rows.map((r) => [r.slug, r.id]))
  await store.addImage({
    business_id: ids['roland-hardware']!,
    image_url: '/files/crawled/roland-hardware-hero.jpg',
    alt_text: 'Roland Hardware',
    image_type: 'hero',
    is_primary: true,
    sort_order: 0,
    metadata: { sourceUrl: 'https://rolandhardware.example/hero.jpg' },
  })
  return { store, ids }
}

async function imagesOf(db: EmbeddedStore, businessId: string) {
  const { rows } = await db.db.query<{
    image_url: string
    alt_text: string
    image_type: string
    is_primary: boolean
    sort_order: number
    metadata: Record<string, unknown>
  }>(
    'select image_url, alt_text, image_type, is_primary, sort_order, metadata from business_images where business_id = $1',
    [businessId],
  )
  return rows
}

describe('generateStoreImages for one business', () => {
  test('uploads the PNG under business-images/{id}-hero-{timestamp}.png and records a generated hero row', async () => {
    const { store, ids } = await openWithBusinesses()
    const id = ids['big-rock-coffee']!
    const result = await generateStoreImages({
      store,
      target: { slug: 'big-rock-coffee' },
      provider: localImageProvider(),
      now: () => timestamp,
    })

    const path = `business-images/${id}-hero-${timestamp}.png`
    expect(storeImagePath(id, timestamp)).toBe(path)
    expect(result.generated).toEqual([
      expect.objectContaining({
        slug: 'big-rock-coffee',
        path,
        imageUrl: `/files/${path}`,
        provider: 'local',
        width: 1024,
        height: 1024,
      }),
    ])
    const stored = await store.files.get(path)
    const expected = renderStoreImage({
      name: 'Big Rock Coffee',
      slug: 'big-rock-coffee',
      place: 'Roland, Arkansas',
      style: { category: 'Dining & Refreshments', color: '#b45309', iconName: 'utensils' },
    })
    expect(Buffer.from(stored!).equals(Buffer.from(expected))).toBe(true)

    const [row, ...others] = await imagesOf(store, id)
    expect(others).toHaveLength(0)
    expect(row).toMatchObject({ image_url: `/files/${path}`, image_type: 'hero', is_primary: false, sort_order: 0 })
    expect(row!.alt_text).toMatch(/generated image/)
    expect(row!.metadata).toMatchObject({
      generated: true,
      provider: 'local',
      model: 'roland-storefront-2',
      width: 1024,
      height: 1024,
    })
  })

  test('draws the business in its category colours from the seeded location categories', async () => {
    const { store } = await openWithBusinesses()
    const { categories } = await store.loadCatalog()
    expect(categoryStyle('Dining & Refreshments', categories)).toMatchObject({ color: '#b45309', iconName: 'utensils' })
  })

  test('makes the image visible to the site as a generated image of the business', async () => {
    const { store } = await openWithBusinesses()
    await generateStoreImages({ store, target: { slug: 'lakeview-marina' }, provider: localImageProvider() })
    const catalog = await store.loadCatalog()
    const marina = catalog.businesses.find((b) => b.slug === 'lakeview-marina')!
    expect(marina.images).toHaveLength(1)
    expect(isGeneratedImage(marina.images[0]!)).toBe(true)
  })

  test('records the run in the job history with its result', async () => {
    const { store } = await openWithBusinesses()
    await generateStoreImages({
      store,
      target: { slug: 'big-rock-coffee' },
      provider: localImageProvider(),
      startedBy: 'test',
    })
    const [job] = await store.jobs.list(1)
    expect(job).toMatchObject({
      kind: 'images',
      status: 'succeeded',
      started_by: 'test',
      params: { target: 'big-rock-coffee', provider: 'local' },
      progress: { phase: 'done', done: 1, total: 1 },
    })
    expect((job!.result as { summary: unknown }).summary).toEqual({ generated: 1, skipped: 0, failed: 0 })
  })

  test('generates for a business that already has photos when asked by slug, after its other images', async () => {
    const { store, ids } = await openWithBusinesses()
    await generateStoreImages({ store, target: { slug: 'roland-hardware' }, provider: localImageProvider() })
    const rows = await imagesOf(store, ids['roland-hardware']!)
    expect(rows).toHaveLength(2)
    // The crawled photo stays the primary hero.
    expect(rows.find((r) => r.metadata.generated)).toMatchObject({ is_primary: false, sort_order: 1 })
    expect(rows.find((r) => !r.metadata.generated)).toMatchObject({ is_primary: true })
  })

  test('stores what the images API made, labelled with its provider and model', async () => {
    const { store, ids } = await openWithBusinesses()
    const provider = openAiImageProvider({ apiKey: api.apiKey, apiUrl: api.apiUrl, model: 'gpt-image-1' })
    const result = await generateStoreImages({ store, target: { slug: 'big-rock-coffee' }, provider })
    const [row] = await imagesOf(store, ids['big-rock-coffee']!)
    expect(row!.alt_text).toMatch(/^AI-generated image of the storefront of Big Rock Coffee/)
    expect(row!.metadata).toMatchObject({
      generated: true,
      provider: 'openai',
      model: 'gpt-image-1',
      width: 8,
      height: 8,
    })
    expect(row!.metadata.prompt).toMatch(/"Big Rock Coffee", a local place to eat and drink in Roland, Arkansas/)
    expect(Buffer.from((await store.files.get(result.generated[0]!.path))!).equals(Buffer.from(api.png))).toBe(true)
  })

  test('says which slugs come close when there is no business with the slug', async () => {
    const { store } = await openWithBusinesses()
    await expect(
      generateStoreImages({ store, target: { slug: 'big-rock' }, provider: localImageProvider() }),
    ).rejects.toThrow('No business has the slug "big-rock". Did you mean big-rock-coffee?')
    const [job] = await store.jobs.list(1)
    expect(job).toMatchObject({ status: 'failed', error: expect.stringContaining('No business has the slug') })
  })
})

describe('failures leave the data as it was', () => {
  test("an upload that fails says 'Failed to upload image' and records no row", async () => {
    const { store, ids } = await openWithBusinesses()
    const id = ids['big-rock-coffee']!
    const path = storeImagePath(id, timestamp)
    const occupant = new TextEncoder().encode('already here')
    await store.files.put(path, occupant, { contentType: 'text/plain' })

    await expect(
      generateStoreImages({
        store,
        target: { slug: 'big-rock-coffee' },
        provider: localImageProvider(),
        now: () => timestamp,
      }),
    ).rejects.toThrow(`Failed to upload image: The file ${path} already exists`)
    expect(await imagesOf(store, id)).toEqual([])
    // No upsert: the file that was there is untouched.
    expect(Buffer.from((await store.files.get(path))!).toString()).toBe('already here')
  })

  test('a row that cannot be recorded removes the uploaded file', async () => {
    const { store, ids } = await openWithBusinesses()
    await store.db.exec(`
      create function test_refuse_images() returns trigger language plpgsql as $$
      begin raise exception 'business_images is read-only in this test'; end $$;
      create trigger test_refuse_images before insert on business_images
        for each row execute function test_refuse_images();`)
    const id = ids['big-rock-coffee']!

    await expect(
      generateStoreImages({
        store,
        target: { slug: 'big-rock-coffee' },
        provider: localImageProvider(),
        now: () => timestamp,
      }),
    ).rejects.toThrow(
      /^Failed to record the store image of Big Rock Coffee: .*read-only in this test.*The uploaded file was removed/,
    )
    expect(await store.files.get(storeImagePath(id, timestamp))).toBeNull()
  })

  test('an image that is not a PNG is refused before anything is stored', async () => {
    const { store, ids } = await openWithBusinesses()
    const notPng = {
      name: 'local' as const,
      label: 'a provider that answers JPEG',
      generate: async () => ({
        bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]),
        mimeType: 'image/jpeg',
        prompt: 'p',
        model: 'm',
      }),
    }
    await expect(generateStoreImages({ store, target: { slug: 'big-rock-coffee' }, provider: notPng })).rejects.toThrow(
      /^No image data received: a provider that answers JPEG answered 7 bytes of image\/jpeg, not a PNG image/,
    )
    expect(await imagesOf(store, ids['big-rock-coffee']!)).toEqual([])
  })
})

describe('generateStoreImages for every business missing an image', () => {
  test('skips a business that already has an image, and inactive ones', async () => {
    const { store, ids } = await openWithBusinesses()
    const result = await generateStoreImages({ store, target: { missing: true }, provider: localImageProvider() })

    expect(result.generated.map((g) => g.slug).sort()).toEqual(['big-rock-coffee', 'lakeview-marina'])
    expect(result.skipped).toEqual(
      expect.arrayContaining([
        { slug: 'roland-hardware', businessName: 'Roland Hardware', reason: 'has-image' },
        { slug: 'closed-diner', businessName: 'Closed Diner', reason: 'inactive' },
      ]),
    )
    expect(result.summary).toEqual({ generated: 2, skipped: 2, failed: 0 })
    expect(await imagesOf(store, ids['roland-hardware']!)).toHaveLength(1)
    expect(await imagesOf(store, ids['closed-diner']!)).toHaveLength(0)
  })

  test('has nothing to do the second time', async () => {
    const { store } = await openWithBusinesses()
    await generateStoreImages({ store, target: { missing: true }, provider: localImageProvider() })
    const again = await generateStoreImages({ store, target: { missing: true }, provider: localImageProvider() })
    expect(again.summary).toEqual({ generated: 0, skipped: 4, failed: 0 })
  })

  test('reports a business whose image could not be made and goes on with the others', async () => {
    const { store, ids } = await openWithBusinesses()
    api.answerFor = (prompt) => (prompt.includes('Lakeview Marina') ? 'no-data' : undefined)
    const provider = openAiImageProvider({ apiKey: api.apiKey, apiUrl: api.apiUrl, model: 'gpt-image-1' })
    const result = await generateStoreImages({ store, target: { missing: true }, provider })

    expect(result.generated.map((g) => g.slug)).toEqual(['big-rock-coffee'])
    expect(result.failed).toEqual([
      {
        slug: 'lakeview-marina',
        businessName: 'Lakeview Marina',
        error: expect.stringMatching(/^No image data received/),
      },
    ])
    expect(await imagesOf(store, ids['lakeview-marina']!)).toEqual([])
    const [job] = await store.jobs.list(1)
    expect(job?.status).toBe('succeeded')
  })

  test('stops at the first error that would repeat for every business, such as a wrong key', async () => {
    const { store } = await openWithBusinesses()
    const provider = openAiImageProvider({ apiKey: 'sk-wrong', apiUrl: api.apiUrl, model: 'gpt-image-1' })
    await expect(generateStoreImages({ store, target: { missing: true }, provider })).rejects.toThrow(
      /^Failed to generate image: .*HTTP 401.*Stopped after 0 of 2 store images/,
    )
    const { rows } = await store.db.query<{ n: number }>(
      "select count(*)::int as n from business_images where metadata ? 'generated'",
    )
    expect(rows[0]?.n).toBe(0)
  })
})

describe('pngSize', () => {
  test('reads the size of a valid PNG and refuses anything else', () => {
    expect(pngSize(api.png)).toEqual({ width: 8, height: 8 })
    expect(pngSize(api.png.subarray(0, 40))).toBeNull()
    expect(pngSize(new TextEncoder().encode('not a png at all, not at all'))).toBeNull()
  })
})
