import { crawlSiteBuiltin, type BuiltinCrawlOptions, type PageFailure, type SiteCrawl } from './builtin.ts'
import { chooseImages, type AcceptedImage, type RejectedImage } from './choose.ts'
import { CrawlError, withContext } from './crawl-error.ts'
import { crawlBusinessImagesWithFirecrawl, type FirecrawlSettings } from './firecrawl.ts'
import { reporter, type ProgressListener } from './progress.ts'
import { parseHttpUrl } from './safe-fetch.ts'

export { CrawlError, type CrawlErrorCode } from './crawl-error.ts'
export { downloadImage, type DownloadedImage, type DownloadImageOptions } from './download-image.ts'
export {
  crawlWebsiteWithFirecrawl,
  validateFirecrawlKey,
  type FirecrawlKeyCheck,
  type FirecrawlPage,
  type FirecrawlSettings,
} from './firecrawl.ts'
export type { AcceptedImage, RejectedImage } from './choose.ts'
export type { PageFailure } from './builtin.ts'
export type { CrawlProgress, ProgressListener } from './progress.ts'

/** Which engine gathers a site's images. */
export type CrawlEngine = 'builtin' | 'firecrawl'

/** What to crawl and how. */
export interface CrawlBusinessImagesOptions {
  businessName: string
  websiteUrl: string
  engine: CrawlEngine
  /** Required for the firecrawl engine. */
  firecrawl?: Omit<FirecrawlSettings, 'signal'> | undefined
  /** Let the built-in engine reach local and private addresses (fixture sites, tests). */
  allowPrivateNetwork?: boolean
  /** Bounds of the built-in engine; its defaults suit real sites. */
  limits?: Pick<BuiltinCrawlOptions, 'maxPages' | 'timeoutMs' | 'maxPageBytes' | 'maxRedirects'>
  signal?: AbortSignal
  onProgress?: ProgressListener
}

/** SPEC §3's crawled image result, plus what a person needs to judge it. */
export interface CrawlResult {
  businessName: string
  websiteUrl: string
  heroUrl: string | null
  thumbnailUrl: string | null
  logoUrl: string | null
  engine: CrawlEngine
  images: AcceptedImage[]
  rejected: RejectedImage[]
  pagesVisited: string[]
  pagesFailed: PageFailure[]
}

const FAILED = 'Failed to crawl business images'

/** Read a website address as an operator types it: "www.example.com" means https://www.example.com. */
export function normalizeWebsiteUrl(input: string): string {
  const trimmed = input.trim()
  if (!trimmed)
    throw new CrawlError('invalid-input', 'Website URL is required: enter the address of the business website')
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`
  const url = parseHttpUrl(withScheme)
  if (!url.hostname.includes('.') && url.hostname !== 'localhost' && !url.hostname.startsWith('[')) {
    throw new CrawlError(
      'invalid-url',
      `"${input}" is not a website address: use a full URL such as https://example.com`,
    )
  }
  return url.href
}

/** Find a business's hero, thumbnail and logo images on its website, through Firecrawl or the built-in crawler. */
export async function crawlBusinessImages(options: CrawlBusinessImagesOptions): Promise<CrawlResult> {
  const businessName = options.businessName.trim()
  if (!businessName) throw new CrawlError('invalid-input', `${FAILED}: Business name is required`)
  let websiteUrl: string
  try {
    websiteUrl = normalizeWebsiteUrl(options.websiteUrl)
  } catch (error) {
    throw withFailurePrefix(error)
  }
  const report = reporter(options.onProgress)

  let site: SiteCrawl
  try {
    if (options.engine === 'firecrawl') {
      if (!options.firecrawl?.apiKey.trim()) {
        throw new CrawlError(
          'missing-api-key',
          'Please set your API key first: set FIRECRAWL_API_KEY in .env (see .env.example), or use the built-in engine',
        )
      }
      site = await crawlBusinessImagesWithFirecrawl(
        websiteUrl,
        { ...options.firecrawl, signal: options.signal },
        report,
      )
    } else {
      site = await crawlSiteBuiltin(websiteUrl, {
        ...options.limits,
        allowPrivateNetwork: options.allowPrivateNetwork ?? false,
        signal: options.signal,
        onProgress: report,
      })
    }
  } catch (error) {
    throw withFailurePrefix(error)
  }

  report({ phase: 'choosing images', done: 0, total: 1 })
  const choice = chooseImages(site.candidates)
  report({ phase: 'choosing images', done: 1, total: 1 })
  return {
    businessName,
    websiteUrl,
    heroUrl: choice.heroUrl,
    thumbnailUrl: choice.thumbnailUrl,
    logoUrl: choice.logoUrl,
    engine: options.engine,
    images: choice.images,
    rejected: choice.rejected,
    pagesVisited: site.pagesVisited,
    pagesFailed: site.pagesFailed,
  }
}

function withFailurePrefix(error: unknown): CrawlError {
  // SPEC's "Please set your API key first" stands alone: nothing was crawled, nothing failed.
  if (error instanceof CrawlError && error.code === 'missing-api-key') return error
  return withContext(error, FAILED)
}
