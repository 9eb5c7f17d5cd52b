import { afterEach, describe, expect, test } from 'vitest'
import { loadPublicCatalog } from '../src/catalog/load.ts'
import { openStore, supabaseSettings } from '../src/store/index.ts'
import { openSupabaseStore } from '../src/store/supabase.ts'
import { fixtureCatalog, makeBusiness } from './fixtures/catalog.ts'
import { startSupabaseStandIn, type SupabaseStandIn } from './support/supabase-stand-in.ts'

const publishableKey = 'sb_publishable_test-public-key'
const secretKey = 'sb_secret_test-secret-key'
let standIn: SupabaseStandIn | undefined

afterEach(async () => {
  await standIn?.close()
  standIn = undefined
})

async function start(extra: Partial<Parameters<typeof startSupabaseStandIn>[0]> = {}) {
  const catalog = fixtureCatalog()
  standIn = await startSupabaseStandIn({
    publishableKey,
    secretKey,
    privateTables: ['jobs'],
    tables: {
      town_settings: [{ id: 1, ...catalog.town }],
      businesses: catalog.businesses.filter((b) => b.is_active),
      location_categories: catalog.categories,
      attractions: [
        {
          id: 'lake-maumelle',
          name: 'Lake Maumelle',
          category: 'Natural Attractions',
          description: 'A lake.',
          badge: null,
          rating: 4.8,
          distance: '3 miles',
          image_url: null,
          address: null,
          website: null,
          is_featured: false,
          is_active: true,
          sort_order: 1,
        },
      ],
      community_events: [],
      pages: [],
      alerts: [],
      jobs: [],
    },
    ...extra,
  })
  return standIn
}

const env = (url: string, extra: Record<string, string> = {}) => ({
  SUPABASE_URL: url,
  SUPABASE_PUBLISHABLE_KEY: publishableKey,
  SUPABASE_SECRET_KEY: secretKey,
  ...extra,
})

describe('the Supabase store', () => {
  test('reads the catalog with the publishable key, active rows only, each table ordered', async () => {
    const server = await start()
    const store = await openStore({ env: env(server.url) })
    const catalog = await store.loadCatalog()
    await store.close()

    expect(catalog.businesses.map((b) => b.name)).toContain('big rock coffee')
    expect(catalog.attractions[0]?.rating).toBe(4.8)
    expect(catalog.town).toMatchObject({ name: 'Roland', time_zone: 'America/Chicago' })
    const reads = Object.fromEntries(server.requests.map((r) => [r.path, r]))
    const businesses = reads['/rest/v1/businesses']!
    expect(businesses.method).toBe('GET')
    expect(businesses.headers.apikey).toBe(publishableKey)
    expect(businesses.query.get('is_active')).toBe('eq.true')
    expect(businesses.query.get('order')).toBe('name.asc')
    expect(businesses.query.get('select')).toBe(
      '*,website_hidden,services:business_services(*),images:business_images(*),hours_detail:business_hours(*)',
    )
    expect(reads['/rest/v1/location_categories']!.query.get('order')).toBe('sort_order.asc')
    expect(reads['/rest/v1/attractions']!.query.get('is_active')).toBe('eq.true')
    expect(reads['/rest/v1/community_events']!.query.get('order')).toBe('starts_at.asc')
    // Opening a store with the secret key set also marks the jobs of dead processes interrupted
    // (jobs/interrupted.ts); every read of the catalog itself goes with the publishable key.
    const catalogReads = server.requests.filter((r) => r.path !== '/rest/v1/jobs')
    expect(catalogReads.map((r) => [r.path, r.headers.apikey === publishableKey])).toEqual(
      catalogReads.map((r) => [r.path, true]),
    )
  })

  test('accepts the legacy anon and service_role key names', async () => {
    const server = await start()
    const store = await openStore({
      env: { SUPABASE_URL: server.url, SUPABASE_ANON_KEY: publishableKey, SUPABASE_SERVICE_ROLE_KEY: secretKey },
    })
    await store.loadCatalog()
    await store.call('import_businesses', { entries: [] }).catch(() => {})
    await store.close()
    expect(server.requests.find((r) => r.path === '/rest/v1/businesses')?.headers.apikey).toBe(publishableKey)
    expect(server.requests.find((r) => r.path.startsWith('/rest/v1/rpc/'))?.headers.apikey).toBe(secretKey)
  })

  test('calls SQL functions through /rpc with the secret key and named arguments', async () => {
    const server = await start({
      rpc: { migration_status: (_args, role) => ({ isComplete: role === 'service_role', businessCount: 6 }) },
    })
    const store = openSupabaseStore(supabaseSettings(env(server.url))!)
    expect(await store.call('migration_status', {})).toEqual({ isComplete: true, businessCount: 6 })
    const call = server.requests.at(-1)!
    expect(call.method).toBe('POST')
    expect(call.path).toBe('/rest/v1/rpc/migration_status')
    expect(call.headers.apikey).toBe(secretKey)
  })

  test('records jobs with the secret key', async () => {
    const server = await start()
    const store = openSupabaseStore(supabaseSettings(env(server.url))!)
    const job = await store.jobs.create('crawl', { slug: 'big-rock-coffee' }, 'console')
    const updated = await store.jobs.update(job.id, { status: 'running', appendLog: ['started'] })
    expect(updated.status).toBe('running')
    expect(updated.log.map((l) => l.message)).toEqual(['started'])
    expect(server.tables.jobs).toHaveLength(1)
    expect(server.requests.filter((r) => r.path === '/rest/v1/jobs').every((r) => r.headers.apikey === secretKey)).toBe(
      true,
    )
  })

  test('stores files in the files bucket and refuses to overwrite without upsert', async () => {
    const server = await start()
    const store = openSupabaseStore(supabaseSettings(env(server.url))!)
    await store.files.put('business-images/a-hero-1.png', new Uint8Array([137, 80, 78, 71]), {
      contentType: 'image/png',
    })
    expect(server.objects.get('files/business-images/a-hero-1.png')?.contentType).toBe('image/png')
    expect(Array.from((await store.files.get('business-images/a-hero-1.png'))!)).toEqual([137, 80, 78, 71])
    expect(await store.files.get('missing.txt')).toBeNull()
    await expect(
      store.files.put('business-images/a-hero-1.png', new Uint8Array([1]), { contentType: 'image/png' }),
    ).rejects.toThrow(/already exists/)
    expect(store.files.publicUrl('business-images/a-hero-1.png')).toBe(
      `${server.url}/storage/v1/object/public/files/business-images/a-hero-1.png`,
    )
  })

  test('turns an error response into a clear error naming the project', async () => {
    const server = await start({ failWith: { status: 500, body: { code: 'XX000', message: 'database is on fire' } } })
    const store = openSupabaseStore(supabaseSettings(env(server.url))!)
    await expect(store.loadCatalog()).rejects.toThrow(
      `Could not read businesses (Supabase at ${server.url}): database is on fire`,
    )
  })

  test('a wrong key fails with Supabase’s message', async () => {
    const server = await start()
    const store = openSupabaseStore(supabaseSettings(env(server.url, { SUPABASE_PUBLISHABLE_KEY: 'wrong' }))!)
    await expect(store.loadCatalog()).rejects.toThrow(/Invalid API key/)
  })

  test('writes without a secret key say which variable to set', async () => {
    const server = await start()
    const store = openSupabaseStore({ url: server.url, publicKey: publishableKey, secretKey: null })
    await expect(store.jobs.list()).rejects.toThrow(/SUPABASE_SECRET_KEY/)
  })

  test('a build refuses a catalog with no businesses', async () => {
    const server = await start()
    server.tables.businesses = []
    await expect(loadPublicCatalog({ env: env(server.url) })).rejects.toThrow(/has no active businesses/)
  })

  test('a build refuses an unreachable project with a clear message', async () => {
    await expect(loadPublicCatalog({ env: env('http://127.0.0.1:9') })).rejects.toThrow(
      /Could not read the catalog from Supabase at http:\/\/127.0.0.1:9/,
    )
  })

  test('a catalog that does not match the schema fails with the field that is wrong', async () => {
    const server = await start()
    server.tables.businesses = [{ ...makeBusiness({ name: 'Broken' }), is_featured: 'yes' }]
    const store = openSupabaseStore(supabaseSettings(env(server.url))!)
    await expect(store.loadCatalog()).rejects.toThrow(/businesses\.0\.is_featured/)
  })
})

describe('supabaseSettings', () => {
  test('chooses the embedded store when SUPABASE_URL is unset', () => {
    expect(supabaseSettings({})).toBeNull()
  })
  test('says which key is missing and where to put it', () => {
    expect(() => supabaseSettings({ SUPABASE_URL: 'https://abcd.supabase.co' })).toThrow(
      /SUPABASE_PUBLISHABLE_KEY \(or the legacy SUPABASE_ANON_KEY\) is missing: add it to \.env/,
    )
  })
  test('rejects a URL that is not one', () => {
    expect(() => supabaseSettings({ SUPABASE_URL: 'abcd.supabase', SUPABASE_ANON_KEY: 'k' })).toThrow(/is not a URL/)
  })
  test('prefers the new key names over the legacy ones', () => {
    expect(
      supabaseSettings({
        SUPABASE_URL: 'https://abcd.supabase.co/',
        SUPABASE_PUBLISHABLE_KEY: 'new',
        SUPABASE_ANON_KEY: 'old',
        SUPABASE_SECRET_KEY: 'new-secret',
        SUPABASE_SERVICE_ROLE_KEY: 'old-secret',
      }),
    ).toEqual({ url: 'https://abcd.supabase.co', publicKey: 'new', secretKey: 'new-secret' })
  })
})
