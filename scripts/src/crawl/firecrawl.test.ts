import { afterEach, describe, expect, test } from 'vitest'
import { closedPort } from '../../test/support/free-port.ts'
import {
  FIRECRAWL_FAILURES,
  startFirecrawlStandIn,
  type FirecrawlStandIn,
  type StandInDocument,
  type StandInOptions,
} from '../../test/crawl-firecrawl-stand-in.ts'
import { CrawlError, crawlBusinessImages, type CrawlProgress } from './crawl.ts'
import { crawlWebsiteWithFirecrawl, validateFirecrawlKey } from './firecrawl.ts'

const KEY = 'fc-3f9a1c7e2b8d4e6fa0b1c2d3e4f5a6b7'
const SITE = 'https://rolandfeedandseed.example/'

// What Firecrawl returns for a small feed store's site crawled with formats markdown and html, include tags img and meta.
function feedStorePages(url: string): StandInDocument[] {
  const page = (
    path: string,
    fields: Omit<StandInDocument, 'metadata'>,
    metadata: Record<string, unknown> = {},
  ): StandInDocument => ({
    ...fields,
    metadata: {
      title: 'Roland Feed & Seed',
      language: 'en',
      favicon: `${SITE}favicon.png`,
      sourceURL: new URL(path, url).href,
      url: new URL(path, SITE).href,
      statusCode: 200,
      contentType: 'text/html; charset=UTF-8',
      scrapeId: `0b7f2c1e-${path.length}`,
      proxyUsed: 'basic',
      cacheState: 'miss',
      creditsUsed: 1,
      ...metadata,
    },
  })
  return [
    page(
      '/about/',
      {
        markdown:
          '# About us\n\n![The Dawson family](https://rolandfeedandseed.example/wp-content/uploads/dawson-family.jpg)',
        html: '<img src="/wp-content/uploads/dawson-family.jpg" alt="The Dawson family" width="900" height="600">',
      },
      { title: 'About – Roland Feed & Seed' },
    ),
    page(
      '/',
      {
        markdown:
          '![Roland Feed & Seed](https://rolandfeedandseed.example/wp-content/uploads/feed-seed-logo.png)\n\n# Feed, seed and farm supply since 1962',
        html: [
          '<meta property="og:image" content="https://rolandfeedandseed.example/wp-content/uploads/storefront.jpg">',
          '<img class="site-logo" src="/wp-content/uploads/feed-seed-logo.png" alt="Roland Feed &amp; Seed" width="320" height="120">',
          '<img src="/wp-content/uploads/baby-chicks.jpg" alt="Baby chicks are here" width="1200" height="800">',
          '<img src="/wp-content/uploads/hay-bales.jpg" alt="Square bales" width="800" height="600">',
          '<img height="1" width="1" src="https://www.facebook.com/tr?id=99&ev=PageView&noscript=1">',
        ].join(''),
      },
      { ogImage: 'https://rolandfeedandseed.example/wp-content/uploads/storefront.jpg', ogTitle: 'Roland Feed & Seed' },
    ),
    page(
      '/old-specials/',
      { markdown: '# Not found', html: '<p>Not found</p>' },
      { statusCode: 404, error: 'Not Found' },
    ),
    page('/garden-center/', { markdown: '![Tomato starts](/wp-content/uploads/tomato-starts.jpg)' }),
  ]
}

let standIn: FirecrawlStandIn | undefined

async function start(options: Partial<StandInOptions> = {}): Promise<FirecrawlStandIn> {
  standIn = await startFirecrawlStandIn({ apiKey: KEY, pages: feedStorePages, ...options })
  return standIn
}

afterEach(async () => {
  await standIn?.close()
  standIn = undefined
})

async function failure(promise: Promise<unknown>): Promise<CrawlError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(CrawlError)
  return error as CrawlError
}

function crawlFeedStore(server: FirecrawlStandIn, apiKey = KEY, onProgress?: (progress: CrawlProgress) => void) {
  return crawlBusinessImages({
    businessName: 'Roland Feed & Seed',
    websiteUrl: SITE,
    engine: 'firecrawl',
    firecrawl: { apiKey, apiUrl: server.apiUrl, pollIntervalMs: 5 },
    ...(onProgress ? { onProgress } : {}),
  })
}

describe('validateFirecrawlKey', () => {
  test('accepts a key Firecrawl accepts, crawling an example site with limit 1', async () => {
    const server = await start()
    expect(await validateFirecrawlKey(KEY, { apiUrl: server.apiUrl })).toEqual({
      valid: true,
      message: 'API key validated and saved',
    })
    expect(server.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v2/crawl',
        authorization: `Bearer ${KEY}`,
        body: expect.objectContaining({ url: 'https://example.com', limit: 1 }),
      }),
    ])
  })

  test('refuses a key Firecrawl refuses, with SPEC’s message', async () => {
    const server = await start()
    const check = await validateFirecrawlKey('fc-typo', { apiUrl: server.apiUrl })
    expect(check).toMatchObject({
      valid: false,
      reason: 'rejected',
      message: 'Invalid API key. Please check and try again.',
    })
  })

  test('refuses a key whose account has no credits, explaining why in the detail', async () => {
    const server = await start({ startFailure: FIRECRAWL_FAILURES.noCredits })
    const check = await validateFirecrawlKey(KEY, { apiUrl: server.apiUrl })
    expect(check).toMatchObject({ valid: false, message: 'Invalid API key. Please check and try again.' })
    expect(check.valid === false && check.detail).toContain('Status code: 402')
  })

  test('says it cannot connect rather than blaming the key when Firecrawl is unreachable', async () => {
    const port = await closedPort()
    const check = await validateFirecrawlKey(KEY, { apiUrl: `http://127.0.0.1:${port}` })
    expect(check).toMatchObject({ valid: false, reason: 'unreachable', message: 'Failed to connect to Firecrawl API' })
  })

  test('asks for a key before calling anything', async () => {
    expect(await validateFirecrawlKey('   ')).toEqual({
      valid: false,
      reason: 'empty',
      message: 'Please enter your Firecrawl API key',
    })
  })
})

describe('crawlBusinessImages with the Firecrawl engine', () => {
  test('asks Firecrawl for 5 pages as markdown and html, keeping img and meta tags', async () => {
    const server = await start()
    await crawlFeedStore(server)
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v2/crawl',
      authorization: `Bearer ${KEY}`,
      body: { url: SITE, limit: 5, scrapeOptions: { formats: ['markdown', 'html'], includeTags: ['img', 'meta'] } },
    })
  })

  test('chooses the og:image hero, a second photo and the marked logo from Firecrawl’s pages', async () => {
    const server = await start()
    const result = await crawlFeedStore(server)
    expect(result).toMatchObject({
      engine: 'firecrawl',
      heroUrl: 'https://rolandfeedandseed.example/wp-content/uploads/storefront.jpg',
      thumbnailUrl: 'https://rolandfeedandseed.example/wp-content/uploads/baby-chicks.jpg',
      logoUrl: 'https://rolandfeedandseed.example/wp-content/uploads/feed-seed-logo.png',
    })
    expect(result.rejected.map((rejected) => rejected.reason)).toContain('tracking pixel (1×1)')
  })

  test('lists the home page first, reads Markdown-only pages and notes pages that failed', async () => {
    const server = await start()
    const result = await crawlFeedStore(server)
    expect(result.pagesVisited).toEqual([SITE, `${SITE}about/`, `${SITE}garden-center/`])
    expect(result.pagesFailed).toEqual([{ url: `${SITE}old-specials/`, reason: 'answered HTTP 404: Not Found' }])
    expect(result.images.map((image) => image.url)).toContain(`${SITE}wp-content/uploads/tomato-starts.jpg`)
  })

  test('polls the crawl job until it completes, reporting Firecrawl’s progress', async () => {
    const server = await start({ pollsBeforeDone: 2 })
    const progress: CrawlProgress[] = []
    await crawlFeedStore(server, KEY, (report) => progress.push(report))
    expect(server.requests.filter((request) => request.method === 'GET')).toHaveLength(3)
    expect(progress.filter((report) => report.phase === 'crawling with Firecrawl')).toEqual([
      { phase: 'crawling with Firecrawl', done: 0, total: 4 },
      { phase: 'crawling with Firecrawl', done: 1, total: 4 },
      { phase: 'crawling with Firecrawl', done: 4, total: 4 },
    ])
    expect(progress.at(-1)).toEqual({ phase: 'choosing images', done: 1, total: 1 })
  })

  test('reads every page of a result Firecrawl splits with next', async () => {
    const server = await start({ pageSize: 1 })
    const result = await crawlFeedStore(server)
    expect(result.pagesVisited).toHaveLength(3)
    expect(server.requests.filter((request) => request.path.includes('?skip='))).toHaveLength(3)
  })

  test('maps a 402 to SPEC’s "Failed to … Status code" message', async () => {
    const server = await start({ startFailure: FIRECRAWL_FAILURES.noCredits })
    const error = await failure(crawlFeedStore(server))
    expect(error).toMatchObject({ code: 'firecrawl-failed', status: 402 })
    expect(error.message).toBe(
      'Failed to crawl business images: Failed to start crawl. Status code: 402. Error: Insufficient credits to perform this request. For more credits, you can upgrade your plan at https://firecrawl.dev/pricing.',
    )
  })

  test('maps a 500 while polling to SPEC’s "Failed to … Status code" message', async () => {
    const server = await start({ statusFailure: FIRECRAWL_FAILURES.serverError })
    const error = await failure(crawlFeedStore(server))
    expect(error.message).toMatch(
      /^Failed to crawl business images: Failed to check crawl status\. Status code: 500\. Error: An unexpected error/,
    )
  })

  test('maps a refused key (401) to SPEC’s "Unexpected error" message with a hint', async () => {
    const server = await start()
    const error = await failure(crawlFeedStore(server, 'fc-wrong'))
    expect(error).toMatchObject({ code: 'firecrawl-failed', status: 401 })
    expect(error.message).toBe(
      'Failed to crawl business images: Unexpected error occurred while trying to start crawl. Status code: 401: check the Firecrawl API key',
    )
  })

  test('reports a network error when Firecrawl cannot be reached', async () => {
    const port = await closedPort()
    const error = await failure(
      crawlBusinessImages({
        businessName: 'Roland Feed & Seed',
        websiteUrl: SITE,
        engine: 'firecrawl',
        firecrawl: { apiKey: KEY, apiUrl: `http://127.0.0.1:${port}` },
      }),
    )
    expect(error.code).toBe('firecrawl-unreachable')
    expect(error.message).toContain('Failed to connect to Firecrawl API')
  })

  test('fails when the crawl job fails', async () => {
    const server = await start({ outcome: 'failed' })
    const error = await failure(crawlFeedStore(server))
    expect(error.code).toBe('firecrawl-failed')
    expect(error.message).toMatch(/crawl job [\w-]+ failed after 0 of 4 pages/)
  })

  test('refuses a status answer in a shape Firecrawl never sends', async () => {
    const server = await start({ statusBody: { success: true, status: 'done', data: 'nope' } })
    const error = await failure(crawlFeedStore(server))
    expect(error.code).toBe('firecrawl-bad-response')
    expect(error.message).toContain('Firecrawl v2 API')
  })

  test('cancels a crawl job that takes too long', async () => {
    const server = await start({ pollsBeforeDone: 1_000 })
    const error = await failure(
      crawlBusinessImages({
        businessName: 'Roland Feed & Seed',
        websiteUrl: SITE,
        engine: 'firecrawl',
        firecrawl: { apiKey: KEY, apiUrl: server.apiUrl, pollIntervalMs: 5, maxWaitMs: 0 },
      }),
    )
    expect(error.code).toBe('timeout')
    expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE' })
  })

  test('asks for a key first when none is set', async () => {
    const error = await failure(
      crawlBusinessImages({
        businessName: 'Roland Feed & Seed',
        websiteUrl: SITE,
        engine: 'firecrawl',
        firecrawl: { apiKey: '' },
      }),
    )
    expect(error.code).toBe('missing-api-key')
    expect(error.message).toMatch(/^Please set your API key first/)
  })
})

describe('crawlWebsiteWithFirecrawl', () => {
  test('crawls a whole site with limit 100 and returns its pages', async () => {
    const server = await start()
    const pages = await crawlWebsiteWithFirecrawl(SITE, { apiKey: KEY, apiUrl: server.apiUrl, pollIntervalMs: 5 })
    expect(pages).toHaveLength(4)
    expect(server.requests[0]?.body).toMatchObject({ url: SITE, limit: 100 })
  })

  test('fails with SPEC’s "Failed to crawl website" message', async () => {
    const server = await start({ startFailure: FIRECRAWL_FAILURES.serverError })
    const error = await failure(crawlWebsiteWithFirecrawl(SITE, { apiKey: KEY, apiUrl: server.apiUrl }))
    expect(error.message).toMatch(/^Failed to crawl website: Failed to start crawl\. Status code: 500/)
  })

  test('says the API key was not found when none is given', async () => {
    const error = await failure(crawlWebsiteWithFirecrawl(SITE, { apiKey: '' }))
    expect(error.code).toBe('missing-api-key')
    expect(error.message).toContain('API key not found')
  })
})
