import { extractImageCandidates, type ImageCandidate } from './candidates.ts'
import { CrawlError } from './crawl-error.ts'
import { findPhotoPages } from './links.ts'
import { reporter, type ProgressListener } from './progress.ts'
import { decodeText, FETCH_DEFAULTS, safeFetch } from './safe-fetch.ts'

/** SPEC §9: a business-image crawl looks at 5 pages, the home page included. */
export const BUILTIN_MAX_PAGES = 5

/** Bounds and policy of a built-in crawl; defaults suit real sites, tests pass small ones. */
export interface BuiltinCrawlOptions {
  allowPrivateNetwork?: boolean
  /** Pages fetched in all, the home page included. */
  maxPages?: number
  timeoutMs?: number
  maxPageBytes?: number
  maxRedirects?: number
  signal?: AbortSignal
  onProgress?: ProgressListener
}

/** A page that could not be read, and why. */
export interface PageFailure {
  url: string
  reason: string
}

/** What an engine gathered from a site: image candidates in crawl order and the pages behind them. */
export interface SiteCrawl {
  candidates: ImageCandidate[]
  pagesVisited: string[]
  pagesFailed: PageFailure[]
}

const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5'

async function fetchPage(url: string, options: BuiltinCrawlOptions): Promise<{ url: string; html: string }> {
  const response = await safeFetch(url, {
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    timeoutMs: options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs,
    maxBytes: options.maxPageBytes ?? FETCH_DEFAULTS.maxBytes,
    maxRedirects: options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects,
    accept: HTML_ACCEPT,
    signal: options.signal,
  })
  if (response.status >= 400) {
    throw new CrawlError(
      'http-status',
      `${response.url} answered HTTP ${response.status}: the page is missing or the site is down`,
      {
        url: response.url,
        status: response.status,
      },
    )
  }
  // Some small hosts send pages as text/plain or with no type at all; anything else is not a page.
  const type = response.contentType
  if (type !== '' && type !== 'text/html' && type !== 'application/xhtml+xml' && type !== 'text/plain') {
    throw new CrawlError('not-html', `${response.url} is ${type}, not a web page`, { url: response.url })
  }
  return { url: response.url, html: decodeText(response) }
}

/** Crawl a site with no third-party service: its home page, then a few same-site pages likely to show photos. */
export async function crawlSiteBuiltin(websiteUrl: string, options: BuiltinCrawlOptions = {}): Promise<SiteCrawl> {
  const report = reporter(options.onProgress)
  const maxPages = Math.max(1, options.maxPages ?? BUILTIN_MAX_PAGES)

  report({ phase: 'fetching home page', done: 0, total: 1 })
  const home = await fetchPage(websiteUrl, options)
  report({ phase: 'fetching home page', done: 1, total: 1 })

  const candidates = extractImageCandidates(home.html, home.url)
  const pagesVisited = [home.url]
  const pagesFailed: PageFailure[] = []
  const pages = findPhotoPages(home.html, home.url, maxPages - 1)

  report({ phase: 'fetching pages', done: 0, total: pages.length })
  for (const [index, url] of pages.entries()) {
    try {
      const page = await fetchPage(url, options)
      if (!pagesVisited.includes(page.url)) {
        pagesVisited.push(page.url)
        candidates.push(...extractImageCandidates(page.html, page.url))
      }
    } catch (error) {
      // A missing gallery page should not lose the photos of the home page.
      if (error instanceof CrawlError && error.code !== 'cancelled') pagesFailed.push({ url, reason: error.message })
      else throw error
    }
    report({ phase: 'fetching pages', done: index + 1, total: pages.length })
  }
  return { candidates, pagesVisited, pagesFailed }
}
