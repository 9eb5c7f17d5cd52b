import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startFixtureSite, type FixtureSite } from '../../test/crawl-fixture-server.ts'
import { closedPort } from '../../test/support/free-port.ts'
import { CrawlError, crawlBusinessImages, normalizeWebsiteUrl, type CrawlProgress } from './crawl.ts'

async function failure(promise: Promise<unknown>): Promise<CrawlError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(CrawlError)
  return error as CrawlError
}

function crawl(
  businessName: string,
  websiteUrl: string,
  extra: Partial<Parameters<typeof crawlBusinessImages>[0]> = {},
) {
  return crawlBusinessImages({ businessName, websiteUrl, engine: 'builtin', allowPrivateNetwork: true, ...extra })
}

describe('normalizeWebsiteUrl', () => {
  test('adds https:// to an address typed without it, as the migration does for www.', () => {
    expect(normalizeWebsiteUrl('www.rolandbait.example')).toBe('https://www.rolandbait.example/')
  })

  test('refuses something that is no website address', () => {
    expect(() => normalizeWebsiteUrl('Main Street Bakery')).toThrow(/not a website address|not a web address/)
    expect(() => normalizeWebsiteUrl('  ')).toThrow('Website URL is required')
  })
})

describe('crawlBusinessImages with the built-in engine', () => {
  const sites: Record<string, FixtureSite> = {}

  beforeAll(async () => {
    for (const name of ['wordpress-bakery', 'sitebuilder-salon', 'onepage-smokehouse', 'favicon-only']) {
      sites[name] = await startFixtureSite(name)
    }
    sites['broken'] = await startFixtureSite(undefined, {
      '/': (_request, response) =>
        void response
          .writeHead(500, { 'content-type': 'text/html' })
          .end(
            '<html><head><title>Database Error</title></head><body><h1>Error establishing a database connection</h1></body></html>',
          ),
      '/loop': (_request, response) => void response.writeHead(301, { location: '/loop/' }).end(),
      '/loop/': (_request, response) => void response.writeHead(302, { location: '/loop' }).end(),
      '/huge': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        response.write('<!DOCTYPE html><html><head><meta property="og:image" content="/hero.jpg"></head><body>')
        const chunk = `<div class="product"><img src="/p.jpg" alt="Widget"></div>\n`.repeat(2000)
        let sent = 0
        const pump = (): void => {
          while (sent < 20 * 1024 * 1024) {
            sent += chunk.length
            if (!response.write(chunk)) return void response.once('drain', pump)
          }
          response.end('</body></html>')
        }
        response.on('close', () => (sent = Infinity))
        pump()
      },
      '/brochure.pdf': (_request, response) =>
        void response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4'),
    })
  })

  afterAll(async () => {
    await Promise.all(Object.values(sites).map((site) => site.close()))
  })

  test('finds the og:image hero, a lazy-loaded thumbnail and the JSON-LD logo of a WordPress site', async () => {
    const site = sites['wordpress-bakery']!
    const result = await crawl('Main Street Bakery', site.url('/'))
    expect(result).toMatchObject({
      businessName: 'Main Street Bakery',
      websiteUrl: site.url('/'),
      engine: 'builtin',
      heroUrl: site.url('/wp-content/uploads/2024/03/bakery-storefront.jpg'),
      thumbnailUrl: site.url('/wp-content/uploads/2024/03/sourdough-counter.jpg'),
      logoUrl: site.url('/wp-content/uploads/2024/01/main-street-bakery-logo.png'),
    })
  })

  test('visits the about and gallery pages of a WordPress site and notes the missing menu page', async () => {
    const site = sites['wordpress-bakery']!
    const result = await crawl('Main Street Bakery', site.url('/'))
    expect(result.pagesVisited).toEqual([site.url('/'), site.url('/about-us/'), site.url('/gallery/')])
    expect(result.pagesFailed).toEqual([{ url: site.url('/our-menu/'), reason: expect.stringContaining('HTTP 404') }])
    const urls = result.images.map((image) => image.url)
    expect(urls).toContain(site.url('/wp-content/uploads/2024/02/the-hendersons-1024x768.jpg'))
    expect(urls).toContain(site.url('/wp-content/uploads/2024/03/croissants.jpg'))
  })

  test('takes the real address of lazy-loaded WordPress images from their srcset', async () => {
    const site = sites['wordpress-bakery']!
    const result = await crawl('Main Street Bakery', site.url('/'))
    const urls = result.images.map((image) => image.url)
    expect(urls).toContain(site.url('/wp-content/uploads/2024/03/cinnamon-rolls.jpg'))
    expect(urls).toContain(site.url('/wp-content/uploads/2024/03/sausage-kolaches-768x512.jpg'))
    expect(urls.some((url) => url.includes('cinnamon-rolls-300x200'))).toBe(false)
  })

  test('drops the Meta pixel, the Jetpack stats pixel and the 32-pixel favicon of a WordPress site, saying why', async () => {
    const site = sites['wordpress-bakery']!
    const result = await crawl('Main Street Bakery', site.url('/'))
    const favicon = site.url('/wp-content/uploads/2024/01/cropped-bakery-icon-32x32.png')
    expect(
      result.rejected.map(({ url, reason }) => [url === favicon ? 'favicon' : new URL(url).hostname, reason]),
    ).toEqual([
      ['favicon', 'icon or badge (32×32, under 64 px)'],
      ['www.facebook.com', 'tracking pixel (1×1)'],
      ['pixel.wp.com', 'tracking pixel (pixel.wp.com)'],
      // The about and gallery pages link the same favicon.
      ['favicon', 'icon or badge (32×32, under 64 px)'],
      ['favicon', 'icon or badge (32×32, under 64 px)'],
    ])
  })

  test('never accepts the placeholders lazy loaders show before the real picture', async () => {
    const site = sites['wordpress-bakery']!
    const result = await crawl('Main Street Bakery', site.url('/'))
    const urls = [...result.images.map((image) => image.url), ...result.rejected.map((rejected) => rejected.url)]
    expect(urls.filter((url) => url.startsWith('data:') || url.includes('lazy-placeholder'))).toEqual([])
  })

  test('prefers the full-size picture a gallery thumbnail links to', async () => {
    const site = sites['wordpress-bakery']!
    const result = await crawl('Main Street Bakery', site.url('/'))
    const croissants = result.images.find((image) => image.url.includes('croissants'))
    expect(croissants).toMatchObject({
      url: site.url('/wp-content/uploads/2024/03/croissants.jpg'),
      sources: ['img', 'linked-image'],
    })
  })

  test('takes CDN images of a site-builder page, skipping the logo it shares as og:image', async () => {
    const site = sites['sitebuilder-salon']!
    const result = await crawl('Lakeview Hair Studio', site.url('/'))
    const cdn = 'https://images.squarespace-cdn.com/content/v1/5f3a2b1c9d8e7f0012345678'
    expect(result.heroUrl).toMatch(new RegExp(`^${cdn}/1598712399999-ASDFGHJKLZ/salon-chairs-window\\.jpg`))
    expect(result.thumbnailUrl).toBe(`${cdn}/1600895432123-ABCDEFGHIJ/image-asset.jpeg`)
    // The header shows it at ?format=1500w; the unresized original is the copy worth keeping.
    expect(result.logoUrl).toBe(
      'http://images.squarespace-cdn.com/content/v1/5f3a2b1c9d8e7f0012345678/1598712345678-QWERTYUIOP/Lakeview+Logo.png',
    )
    expect(result.pagesVisited).toEqual([site.url('/'), site.url('/services')])
  })

  test('accepts an extensionless CDN image because its address says image', async () => {
    const site = sites['sitebuilder-salon']!
    const result = await crawl('Lakeview Hair Studio', site.url('/'))
    expect(result.images.map((image) => image.url)).toContain(
      'https://images.squarespace-cdn.com/content/v1/5f3a2b1c9d8e7f0012345678/1600895432999-ZXCVBNMQWE/IMG_4821',
    )
  })

  test('finds the CSS background hero, a protocol-relative thumbnail and the navbar logo of a one-page site', async () => {
    const site = sites['onepage-smokehouse']!
    const result = await crawl('Pinnacle Smokehouse', site.url('/'))
    expect(result).toMatchObject({
      heroUrl: site.url('/img/smoker-at-dawn.jpg'),
      thumbnailUrl: 'http://cdn.pinnaclesmokehouse.example/photos/brisket-plate.jpg',
      logoUrl: site.url('/img/pinnacle-smokehouse.svg'),
      pagesVisited: [site.url('/')],
    })
  })

  test('finds no images on a site with only a favicon', async () => {
    const site = sites['favicon-only']!
    const result = await crawl('Lakeside Bait & Tackle', site.url('/'))
    expect(result).toMatchObject({ heroUrl: null, thumbnailUrl: null, logoUrl: null })
    expect(result.rejected.map((rejected) => rejected.url)).toEqual([
      site.url('/favicon.ico'),
      site.url('/favicon-32x32.png'),
      site.url('/images/spacer.gif'),
    ])
  })

  test('reports real phases while it works', async () => {
    const site = sites['wordpress-bakery']!
    const progress: CrawlProgress[] = []
    await crawl('Main Street Bakery', site.url('/'), { onProgress: (report) => progress.push(report) })
    expect(progress).toEqual([
      { phase: 'fetching home page', done: 0, total: 1 },
      { phase: 'fetching home page', done: 1, total: 1 },
      { phase: 'fetching pages', done: 0, total: 3 },
      { phase: 'fetching pages', done: 1, total: 3 },
      { phase: 'fetching pages', done: 2, total: 3 },
      { phase: 'fetching pages', done: 3, total: 3 },
      { phase: 'choosing images', done: 0, total: 1 },
      { phase: 'choosing images', done: 1, total: 1 },
    ])
  })

  test('fetches no more pages than allowed', async () => {
    const site = sites['wordpress-bakery']!
    const result = await crawl('Main Street Bakery', site.url('/'), { limits: { maxPages: 2 } })
    expect(result.pagesVisited).toEqual([site.url('/'), site.url('/about-us/')])
  })

  test('refuses a local site unless private networks are allowed', async () => {
    const site = sites['wordpress-bakery']!
    const error = await failure(crawl('Main Street Bakery', site.url('/'), { allowPrivateNetwork: false }))
    expect(error.code).toBe('blocked-address')
    expect(error.message).toMatch(/^Failed to crawl business images: Refused to fetch/)
  })

  test('fails with a clear message on a dead site', async () => {
    const port = await closedPort()
    const error = await failure(crawl('Closed Diner', `http://127.0.0.1:${port}/`))
    expect(error.code).toBe('connection-failed')
    expect(error.message).toBe(
      `Failed to crawl business images: 127.0.0.1:${port} refused the connection: the website may be down`,
    )
  })

  test('fails with the status of a site whose home page answers 500', async () => {
    const error = await failure(crawl('Broken Site', sites['broken']!.url('/')))
    expect(error).toMatchObject({ code: 'http-status', status: 500 })
    expect(error.message).toContain('answered HTTP 500')
  })

  test('fails on a redirect loop', async () => {
    const error = await failure(crawl('Looping Site', sites['broken']!.url('/loop')))
    expect(error.code).toBe('too-many-redirects')
  })

  test('stops reading a huge page', async () => {
    const error = await failure(
      crawl('Huge Site', sites['broken']!.url('/huge'), { limits: { maxPageBytes: 512 * 1024 } }),
    )
    expect(error.code).toBe('too-large')
    expect(error.message).toContain('larger than 0.5 MB')
  })

  test('refuses an address that is not a web page', async () => {
    const error = await failure(crawl('PDF Only', sites['broken']!.url('/brochure.pdf')))
    expect(error.code).toBe('not-html')
  })

  test('requires a business name', async () => {
    const error = await failure(crawl('  ', sites['wordpress-bakery']!.url('/')))
    expect(error.code).toBe('invalid-input')
  })
})
