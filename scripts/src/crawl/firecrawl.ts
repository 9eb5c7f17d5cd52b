import Firecrawl, { SdkError, type CrawlOptions } from '@mendable/firecrawl-js'
import { z } from 'zod'
import type { SiteCrawl } from './builtin.ts'
import {
  extractImageCandidates,
  extractMarkdownImages,
  isLogoFileName,
  resolveUrl,
  type ImageCandidate,
} from './candidates.ts'
import { CrawlError } from './crawl-error.ts'
import { reporter, type ProgressListener } from './progress.ts'

/** SPEC §9's crawl sizes: the key check, a business's images, a whole site. */
export const FIRECRAWL_LIMITS = { keyCheck: 1, businessImages: 5, wholeSite: 100 } as const

/** The site the key check crawls: always up, one page, owned by nobody we would bother. */
export const FIRECRAWL_KEY_CHECK_SITE = 'https://example.com'

/** SPEC §5's texts for the key check. */
export const FIRECRAWL_MESSAGES = {
  emptyKey: 'Please enter your Firecrawl API key',
  invalidKey: 'Invalid API key. Please check and try again.',
  keySaved: 'API key validated and saved',
  missingKey: 'API key not found',
  unreachable: 'Failed to connect to Firecrawl API',
} as const

/** How to reach Firecrawl and how patiently to wait for a crawl job. */
export interface FirecrawlSettings {
  apiKey: string
  /** Base URL of the API (a self-hosted Firecrawl, or a stand-in in tests); defaults to Firecrawl's cloud. */
  apiUrl?: string | undefined
  /** Per-request timeout (SPEC §9: 60 s). */
  timeoutMs?: number
  /** Time between crawl status checks (SPEC §9: 2 s). */
  pollIntervalMs?: number
  /** Longest wait for a crawl job before it is cancelled. */
  maxWaitMs?: number
  signal?: AbortSignal
}

/** One page as Firecrawl returned it, checked. */
export type FirecrawlPage = z.infer<typeof documentSchema>

/** The key check's outcome, with the text to show the operator. */
export type FirecrawlKeyCheck =
  | { valid: true; message: string }
  | { valid: false; reason: 'empty' | 'rejected' | 'unreachable'; message: string; detail?: string }

const FIRECRAWL_CLOUD = 'https://api.firecrawl.dev'
// SPEC §8: these statuses carry the API's own explanation; any other is unexpected.
const EXPLAINED_STATUSES = new Set([400, 402, 403, 408, 409, 500])

const text = z.string().nullish()
const documentSchema = z
  .object({
    markdown: text,
    html: text,
    rawHtml: text,
    images: z.array(z.string()).nullish(),
    metadata: z
      .object({
        url: text,
        sourceURL: text,
        title: z.union([z.string(), z.array(z.string())]).nullish(),
        statusCode: z.number().nullish(),
        ogImage: z.union([z.string(), z.array(z.string())]).nullish(),
        favicon: text,
        error: text,
      })
      .loose()
      .nullish(),
  })
  .loose()

const crawlJobSchema = z.object({
  id: z.string(),
  status: z.enum(['scraping', 'completed', 'failed', 'cancelled']),
  completed: z.number(),
  total: z.number(),
  data: z.array(documentSchema),
})

function client(settings: FirecrawlSettings): Firecrawl {
  return new Firecrawl({
    apiKey: settings.apiKey,
    apiUrl: settings.apiUrl ?? FIRECRAWL_CLOUD,
    timeoutMs: settings.timeoutMs ?? 60_000,
  })
}

/** Turn an error of the Firecrawl SDK into SPEC §8's wording, with a hint where one helps. */
export function describeFirecrawlError(error: unknown, action: string, apiUrl = FIRECRAWL_CLOUD): CrawlError {
  if (error instanceof CrawlError) return error
  const status = error instanceof SdkError ? error.status : undefined
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof SdkError && status === undefined) {
    const code = error.code ? ` (${error.code})` : ''
    return new CrawlError(
      'firecrawl-unreachable',
      `${FIRECRAWL_MESSAGES.unreachable} at ${apiUrl}${code}: check the API URL and your network`,
      { cause: error },
    )
  }
  if (status === undefined) {
    return new CrawlError('unexpected', `Unexpected error occurred while trying to ${action}: ${message}`, {
      cause: error,
    })
  }
  if (EXPLAINED_STATUSES.has(status)) {
    return new CrawlError('firecrawl-failed', `Failed to ${action}. Status code: ${status}. Error: ${message}`, {
      status,
      cause: error,
    })
  }
  const hint =
    status === 401 ? ': check the Firecrawl API key' : status === 429 ? ': too many requests, try again later' : ''
  return new CrawlError(
    'firecrawl-failed',
    `Unexpected error occurred while trying to ${action}. Status code: ${status}${hint}`,
    {
      status,
      cause: error,
    },
  )
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CrawlError('cancelled', 'The Firecrawl crawl was cancelled'))
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(new CrawlError('cancelled', 'The Firecrawl crawl was cancelled'))
      },
      { once: true },
    )
  })
}

async function runCrawl(
  url: string,
  request: CrawlOptions,
  settings: FirecrawlSettings,
  onProgress: ProgressListener | undefined,
): Promise<FirecrawlPage[]> {
  if (!settings.apiKey.trim()) {
    throw new CrawlError(
      'missing-api-key',
      `${FIRECRAWL_MESSAGES.missingKey}: set FIRECRAWL_API_KEY in .env (see .env.example)`,
    )
  }
  const report = reporter(onProgress)
  const firecrawl = client(settings)
  const apiUrl = settings.apiUrl ?? FIRECRAWL_CLOUD
  report({ phase: 'starting Firecrawl crawl', done: 0, total: 1 })
  let jobId: string
  try {
    jobId = (await firecrawl.startCrawl(url, request)).id
  } catch (error) {
    throw describeFirecrawlError(error, 'start crawl', apiUrl)
  }
  report({ phase: 'starting Firecrawl crawl', done: 1, total: 1 })

  const deadline = Date.now() + (settings.maxWaitMs ?? 180_000)
  for (;;) {
    let raw: unknown
    try {
      raw = await firecrawl.getCrawlStatus(jobId)
    } catch (error) {
      throw describeFirecrawlError(error, 'check crawl status', apiUrl)
    }
    const parsed = crawlJobSchema.safeParse(raw)
    if (!parsed.success) {
      throw new CrawlError(
        'firecrawl-bad-response',
        `Firecrawl answered the status of crawl ${jobId} in an unknown shape (${z.prettifyError(parsed.error).replace(/\n/g, ' ')}): is the API URL a Firecrawl v2 API?`,
      )
    }
    const job = parsed.data
    report({ phase: 'crawling with Firecrawl', done: job.completed, total: Math.max(job.total, job.completed) })
    if (job.status === 'completed') return job.data
    if (job.status !== 'scraping') {
      throw new CrawlError(
        'firecrawl-failed',
        `Firecrawl's crawl job ${jobId} ${job.status} after ${job.completed} of ${job.total} pages`,
      )
    }
    if (Date.now() > deadline) {
      // Stop paying for a job nobody waits for; a failed cancel changes nothing for the caller.
      await firecrawl.cancelCrawl(jobId).catch(() => false)
      throw new CrawlError('timeout', `Firecrawl's crawl job ${jobId} did not finish in time: try again later`)
    }
    await sleep(settings.pollIntervalMs ?? 2_000, settings.signal)
  }
}

function pageUrlOf(page: FirecrawlPage, fallback: string): string {
  return resolveUrl(page.metadata?.url ?? page.metadata?.sourceURL ?? undefined, fallback) ?? fallback
}

function candidatesOf(page: FirecrawlPage, pageUrl: string): ImageCandidate[] {
  const found: ImageCandidate[] = []
  const metadata = page.metadata
  const base = { pageUrl, alt: undefined, width: undefined, height: undefined, position: 0 }
  // Firecrawl lifts head tags into metadata, and includeTags may have dropped them from the html.
  for (const og of [metadata?.ogImage ?? []].flat()) {
    const url = resolveUrl(og, pageUrl)
    if (url) found.push({ ...base, url, source: 'og:image', isHero: true, isLogo: isLogoFileName(url) })
  }
  const favicon = resolveUrl(metadata?.favicon ?? undefined, pageUrl)
  if (favicon) found.push({ ...base, url: favicon, source: 'icon', isHero: false, isLogo: false })
  const html = page.html ?? page.rawHtml
  if (html) found.push(...extractImageCandidates(html, pageUrl))
  else if (page.markdown) found.push(...extractMarkdownImages(page.markdown, pageUrl))
  return found.map((candidate, position) => ({ ...candidate, position }))
}

/** Gather a business's image candidates through Firecrawl (SPEC: limit 5, markdown and html, img and meta tags). */
export async function crawlBusinessImagesWithFirecrawl(
  websiteUrl: string,
  settings: FirecrawlSettings,
  onProgress?: ProgressListener,
): Promise<SiteCrawl> {
  const pages = await runCrawl(
    websiteUrl,
    {
      limit: FIRECRAWL_LIMITS.businessImages,
      scrapeOptions: { formats: ['markdown', 'html'], includeTags: ['img', 'meta'] },
    },
    settings,
    onProgress,
  )
  const home = new URL(websiteUrl)
  const ordered = pages
    .map((page) => ({ page, url: pageUrlOf(page, websiteUrl) }))
    // Firecrawl returns pages in the order they finished; the home page's images matter most, so it goes first.
    .sort(
      (a, b) => Number(new URL(b.url).pathname === home.pathname) - Number(new URL(a.url).pathname === home.pathname),
    )
  const result: SiteCrawl = { candidates: [], pagesVisited: [], pagesFailed: [] }
  for (const { page, url } of ordered) {
    const status = page.metadata?.statusCode ?? 200
    if (status >= 400) {
      result.pagesFailed.push({
        url,
        reason: `answered HTTP ${status}${page.metadata?.error ? `: ${page.metadata.error}` : ''}`,
      })
      continue
    }
    result.pagesVisited.push(url)
    result.candidates.push(...candidatesOf(page, url))
  }
  return result
}

/** Crawl a whole site through Firecrawl (SPEC: limit 100) and return its pages. */
export async function crawlWebsiteWithFirecrawl(
  websiteUrl: string,
  settings: FirecrawlSettings,
  onProgress?: ProgressListener,
): Promise<FirecrawlPage[]> {
  try {
    return await runCrawl(websiteUrl, { limit: FIRECRAWL_LIMITS.wholeSite }, settings, onProgress)
  } catch (error) {
    const failure = describeFirecrawlError(error, 'crawl website', settings.apiUrl)
    throw new CrawlError(failure.code, `Failed to crawl website: ${failure.message}`, {
      status: failure.status,
      cause: failure,
    })
  }
}

/** Check a Firecrawl API key by crawling an example site with limit 1, answering with SPEC §5's texts. */
export async function validateFirecrawlKey(
  apiKey: string,
  options: Omit<FirecrawlSettings, 'apiKey'> = {},
): Promise<FirecrawlKeyCheck> {
  if (!apiKey.trim()) return { valid: false, reason: 'empty', message: FIRECRAWL_MESSAGES.emptyKey }
  const firecrawl = client({ ...options, apiKey: apiKey.trim() })
  try {
    // Starting the crawl is what needs a valid key; waiting for example.com to be scraped would prove nothing more.
    await firecrawl.startCrawl(FIRECRAWL_KEY_CHECK_SITE, { limit: FIRECRAWL_LIMITS.keyCheck })
    return { valid: true, message: FIRECRAWL_MESSAGES.keySaved }
  } catch (error) {
    const failure = describeFirecrawlError(error, 'start crawl', options.apiUrl)
    if (failure.code === 'firecrawl-unreachable') {
      return { valid: false, reason: 'unreachable', message: FIRECRAWL_MESSAGES.unreachable, detail: failure.message }
    }
    return { valid: false, reason: 'rejected', message: FIRECRAWL_MESSAGES.invalidKey, detail: failure.message }
  }
}
