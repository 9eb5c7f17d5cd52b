import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { addPhoto } from '../src/images/add-photo.ts'
import { optimizeImages, storagePathOf } from '../src/images/optimize.ts'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore, freshStoreIn } from './support/fresh-store.ts'
import { openSupabaseStore } from '../src/store/supabase.ts'
import { photoJpeg } from './support/image-fixtures.ts'
import { startSupabaseStandIn, type SupabaseStandIn } from './support/supabase-stand-in.ts'

// The derivatives backfill (`roland images optimize`): photos stored before the pipeline get their
// derivatives from the original in the files bucket, on the embedded store and on Supabase.

const run = promisify(execFile)
const cli = path.join(import.meta.dirname, '..', 'src', 'cli.ts')

let dir: string
let photo: Buffer

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'roland-optimize-'))
  photo = await photoJpeg(700, 500)
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A store holding what the site had before the pipeline: photos in storage, rows without derivatives. */
async function storeBeforeThePipeline(folder: string): Promise<EmbeddedStore> {
  const store = await freshStoreIn(path.join(dir, folder))
  const { rows } = await store.db.query<{ id: string }>(`
    insert into businesses (slug, name, category) values
      ('big-rock-coffee', 'Big Rock Coffee', 'Dining & Refreshments'),
      ('roland-hardware', 'Roland Hardware', 'Shopping & Convenience')
    returning id`)
  const [coffee, hardware] = rows.map((row) => row.id) as [string, string]
  const stored = async (business: string, objectPath: string, bytes: Uint8Array | null, type: 'hero' | 'logo') => {
    if (bytes) await store.files.put(objectPath, bytes, { contentType: 'application/octet-stream' })
    await store.addImage({
      business_id: business,
      image_url: objectPath.startsWith('https://') ? objectPath : store.files.publicUrl(objectPath),
      alt_text: null,
      image_type: type,
      is_primary: false,
      sort_order: 0,
      metadata: {},
    })
  }
  await stored(coffee, 'business-images/coffee-hero.jpg', photo, 'hero')
  await stored(
    coffee,
    'business-images/coffee-logo.svg',
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    'logo',
  )
  // Cut short by a crash long ago: its bytes are no complete JPEG.
  await stored(hardware, 'business-images/hardware-hero.jpg', photo.subarray(0, 2000), 'hero')
  await stored(hardware, 'https://hardware.example/logo.png', null, 'logo')
  return store
}

async function derivativesOf(store: EmbeddedStore) {
  const { rows } = await store.db.query<{ image_url: string; width: number | null; variants: unknown[] }>(
    'select image_url, width, variants from business_images order by image_url',
  )
  return rows
}

// Each run decodes and encodes photos: generous timeouts for a busy machine (no time is asserted).
describe('optimizeImages', { timeout: 300_000 }, () => {
  let store: EmbeddedStore | undefined
  afterEach(async () => {
    await store?.close()
    store = undefined
  })

  test('makes the missing derivatives, reports a failing photo by its URL and goes on', async () => {
    store = await storeBeforeThePipeline('missing')
    const result = await optimizeImages({ store })

    expect(result.summary).toEqual({ optimized: 1, unchanged: 0, skipped: 2, failed: 1 })
    expect(result.optimized).toEqual([
      expect.objectContaining({
        imageUrl: '/files/business-images/coffee-hero.jpg',
        width: 700,
        height: 500,
        variants: 9,
      }),
    ])
    expect(result.failed).toEqual([
      expect.objectContaining({
        businessName: 'Roland Hardware',
        error: expect.stringMatching(/^\/files\/business-images\/hardware-hero\.jpg is a damaged JPG file/),
      }),
    ])
    expect(result.skipped.map((skip) => skip.reason).sort()).toEqual(['not-in-storage', 'vector'])

    const rows = await derivativesOf(store)
    const hero = rows.find((row) => row.image_url.endsWith('coffee-hero.jpg'))!
    expect(hero.width).toBe(700)
    expect(hero.variants).toHaveLength(9)
    expect(rows.filter((row) => row.variants.length > 0)).toHaveLength(1)
    expect(await store.files.get('variants/business-images/coffee-hero-640.avif')).not.toBeNull()
    // Nothing was written for the photo that failed.
    expect(await store.files.get('variants/business-images/hardware-hero-320.avif')).toBeNull()

    const [job] = await store.jobs.list(1)
    expect(job).toMatchObject({
      kind: 'images',
      status: 'succeeded',
      params: { action: 'optimize', target: 'missing' },
    })
    expect(job!.log.map((line) => line.message)).toContain('Optimized 1, unchanged 0, skipped 2, failed 1.')
  })

  test('changes nothing the second time, and says so', async () => {
    store = await storeBeforeThePipeline('twice')
    await optimizeImages({ store })
    const before = await derivativesOf(store)
    const again = await optimizeImages({ store })
    expect(again.summary).toMatchObject({ optimized: 0, unchanged: 0 })
    expect(again.skipped.filter((skip) => skip.reason === 'has-derivatives')).toHaveLength(1)
    expect(await derivativesOf(store)).toEqual(before)

    // Made again for every photo, they come out the same, so no row changes either.
    const all = await optimizeImages({ store, missing: false })
    expect(all.summary).toMatchObject({ optimized: 0, unchanged: 1, failed: 1 })
    expect(await derivativesOf(store)).toEqual(before)
  })
})

describe('storagePathOf', () => {
  test('finds the bucket path of our own URLs only', async () => {
    const store = await freshStore()
    try {
      expect(storagePathOf(store.files, '/files/business-images/a.jpg')).toBe('business-images/a.jpg')
      expect(storagePathOf(store.files, 'https://cdn.example/files/a.jpg')).toBeNull()
    } finally {
      await store.close()
    }
  })
})

describe('roland images optimize', { timeout: 300_000 }, () => {
  test('prints what it made, then that nothing is left to do', async () => {
    const dataDir = path.join(dir, 'cli')
    const store = await storeBeforeThePipeline('cli')
    await store.close()
    const roland = async (args: string[]) => {
      const env = { ...process.env, ROLAND_DATA_DIR: dataDir, SUPABASE_URL: '' }
      try {
        const { stdout, stderr } = await run(process.execPath, [cli, 'images', 'optimize', ...args], {
          env,
          timeout: 120_000,
        })
        return { code: 0, stdout, stderr }
      } catch (error) {
        return error as { code: number; stdout: string; stderr: string }
      }
    }
    const first = await roland([])
    expect(first.code).toBe(1)
    expect(first.stdout).toMatch(
      /^Made the derivatives of 1 photo; skipped 2 \(SVG logos, pictures outside our storage\); 1 failed\.\n/,
    )
    expect(first.stdout).toContain(
      '  failed: Roland Hardware: /files/business-images/hardware-hero.jpg is a damaged JPG file',
    )

    const second = await roland(['--missing', '--json'])
    const json = JSON.parse(second.stdout) as { summary: Record<string, number> }
    expect(json.summary).toEqual({ optimized: 0, unchanged: 0, skipped: 3, failed: 1 })
  })
})

describe('the Supabase store', { timeout: 300_000 }, () => {
  let standIn: SupabaseStandIn | undefined
  afterEach(async () => {
    await standIn?.close()
    standIn = undefined
  })

  const keys = { publicKey: 'sb_publishable_test', secretKey: 'sb_secret_test' }
  const businessId = '00000000-0000-4000-8000-0000000000b1'

  async function start() {
    standIn = await startSupabaseStandIn({
      publishableKey: keys.publicKey,
      secretKey: keys.secretKey,
      tables: {
        businesses: [{ id: businessId, slug: 'big-rock-coffee', name: 'Big Rock Coffee' }],
        business_images: [],
        jobs: [],
      },
    })
    return { standIn, store: openSupabaseStore({ url: standIn.url, ...keys }) }
  }

  test('adds a photo with its derivatives in the files bucket and in the row, in one insert', async () => {
    const { standIn, store } = await start()
    const added = await addPhoto(store, {
      businessId,
      bytes: photo,
      name: 'storefront.jpg',
      altText: null,
      imageType: 'hero',
      isPrimary: true,
      sortOrder: 0,
    })
    await store.close()
    expect(added.variants).toBe(9)
    const [row] = standIn.tables.business_images!
    expect(row).toMatchObject({
      width: 700,
      height: 500,
      image_url: expect.stringContaining('/storage/v1/object/public/files/business-images/'),
    })
    const variants = row!.variants as Array<{ url: string; format: string }>
    expect(variants).toHaveLength(9)
    expect(variants[0]!.url).toMatch(/\/storage\/v1\/object\/public\/files\/variants\/business-images\/.+-320\.avif$/)
    expect([...standIn.objects.keys()].filter((key) => key.startsWith('files/variants/'))).toHaveLength(9)
    const inserts = standIn.requests.filter((r) => r.method === 'POST' && r.path === '/rest/v1/business_images')
    expect(inserts).toHaveLength(1)
  })

  test('backfills a photo stored before the pipeline, through PostgREST and Storage', async () => {
    const { standIn, store } = await start()
    standIn.objects.set('files/business-images/old-hero.jpg', { bytes: photo, contentType: 'image/jpeg' })
    standIn.tables.business_images!.push({
      id: '00000000-0000-4000-8000-0000000000c1',
      business_id: businessId,
      image_url: store.files.publicUrl('business-images/old-hero.jpg'),
      image_type: 'hero',
      metadata: {},
      width: null,
      height: null,
      placeholder: null,
      variants: [],
    })
    const result = await optimizeImages({ store })
    const again = await optimizeImages({ store })
    await store.close()
    expect(result.summary).toEqual({ optimized: 1, unchanged: 0, skipped: 0, failed: 0 })
    expect(again.summary).toEqual({ optimized: 0, unchanged: 0, skipped: 1, failed: 0 })
    const row = standIn.tables.business_images![0]!
    expect(row).toMatchObject({ width: 700, height: 500, placeholder: expect.any(String) })
    expect(row.variants).toHaveLength(9)
    const patches = standIn.requests.filter((r) => r.method === 'PATCH' && r.path === '/rest/v1/business_images')
    expect(patches).toHaveLength(1)
    expect(patches[0]!.headers.apikey).toBe(keys.secretKey)
  })

  test('removes the derivatives it wrote when the bucket refuses one part-way', async () => {
    const { standIn, store } = await start()
    // The bucket fails on the fourth upload (a quota, a network cut).
    const originalPut = store.files.put.bind(store.files)
    let puts = 0
    store.files.put = async (objectPath, bytes, options) => {
      if (++puts === 4) throw new Error('Storage answered 413 Payload too large')
      return originalPut(objectPath, bytes, options)
    }
    const error = await addPhoto(store, {
      businessId,
      bytes: photo,
      name: 'storefront.jpg',
      altText: null,
      imageType: 'hero',
      isPrimary: true,
      sortOrder: 0,
    }).catch((caught: unknown) => caught)
    await store.close()
    expect((error as Error).message).toContain('413')
    expect([...standIn.objects.keys()]).toEqual([])
    expect(standIn.tables.business_images).toEqual([])
  })
})
