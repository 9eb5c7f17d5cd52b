import { runJob, type JobListener, type JobReporter } from '../jobs/run-job.ts'
import type { BusinessRecord, Store } from '../store/types.ts'
import { CrawlError } from './crawl-error.ts'
import { crawlBusinessImages, type CrawlBusinessImagesOptions, type CrawlEngine, type CrawlResult } from './crawl.ts'
import { FIRECRAWL_MESSAGES } from './firecrawl.ts'
import {
  storeCrawledImages,
  type SkippedImage,
  type StoreCrawledImagesOptions,
  type StoredImage,
} from './store-images.ts'

// DESIGN.md, "Jobs": the crawl job finds a business's hero, thumbnail and logo on its website and
// copies them into our storage. The CLI and the console call these functions; each real run is kept
// in the jobs table with its phases (the crawler's, then downloading and storing images), and a dry
// run records nothing and writes nothing.

/** Which engine crawls, with what it needs. */
export type EngineSettings =
  { engine: 'builtin' } | { engine: 'firecrawl'; firecrawl: { apiKey: string; apiUrl?: string | undefined } }

/** What to crawl: a business by slug (its website, images stored), or any address (nothing stored). */
export type CrawlTarget = { slug: string } | { url: string; name?: string | undefined }

/** Options shared by a crawl of one target and of every business missing photos. */
export interface CrawlJobOptions {
  /** The engine; when absent, chosen from FIRECRAWL_API_KEY and FIRECRAWL_API_URL in env. */
  engine?: EngineSettings
  env?: NodeJS.ProcessEnv
  /** Crawl and show what would be stored; record no job and write nothing. */
  dryRun?: boolean
  /** Let crawls and downloads reach local and private addresses (fixture sites, tests); never a default. */
  allowPrivateNetwork?: boolean
  /** Bounds of the built-in engine's page fetches. */
  limits?: CrawlBusinessImagesOptions['limits']
  /** Bounds of each image download. */
  imageLimits?: StoreCrawledImagesOptions['limits']
  signal?: AbortSignal
  startedBy?: string
  onEvent?: JobListener
}

/** Options of a crawl of one business or one address. */
export interface RunCrawlOptions extends CrawlJobOptions {
  /** Needed for a business, and to record the job of a real run; an address crawled dry needs none. */
  store?: Store | undefined
  target: CrawlTarget
}

/** The business a crawl stored images for. */
export interface CrawlBusinessRef {
  id: string
  slug: string
  name: string
}

/** What a crawl found (SPEC §3's crawled image result and every accepted image), and what it stored. */
export interface CrawlRunResult extends CrawlResult {
  business: CrawlBusinessRef | null
  stored: StoredImage[]
  skipped: SkippedImage[]
  dryRun: boolean
  /** The jobs table row of this run; null for a dry run. */
  jobId: string | null
}

/** One business a `--missing` run crawled. */
export interface CrawledBusinessOutcome {
  slug: string
  name: string
  websiteUrl: string
  heroUrl: string | null
  thumbnailUrl: string | null
  logoUrl: string | null
  stored: StoredImage[]
  skipped: SkippedImage[]
}

/** A business whose crawl failed, and why. */
export interface FailedCrawl {
  slug: string
  name: string
  websiteUrl: string
  reason: string
}

/** What a `--missing` run did: the businesses crawled, the images added, the failures, and who was left alone. */
export interface CrawlMissingResult {
  crawled: CrawledBusinessOutcome[]
  /** Images added to storage and to business_images. */
  stored: number
  failed: FailedCrawl[]
  /** Businesses not crawled, by reason. */
  skipped: { inactive: number; withoutWebsite: number; withImages: number }
  dryRun: boolean
  jobId: string | null
}

/** Options of crawling every active business with a website and no images. */
export interface RunCrawlMissingOptions extends CrawlJobOptions {
  store: Store
  /** Businesses crawled at once (each site still gets one request at a time); default 4. */
  concurrency?: number
}

// The job history keeps a crawl's findings, not every candidate of a site with hundreds of images.
const RECORDED_IMAGES = 100

/**
 * Choose the crawl engine: Firecrawl when FIRECRAWL_API_KEY is set, else the built-in crawler; `requested` forces one.
 * A Firecrawl address without a key fails with SPEC §8's texts rather than crawling some other way.
 */
export function engineFromEnv(env: NodeJS.ProcessEnv = process.env, requested?: CrawlEngine): EngineSettings {
  const apiKey = env.FIRECRAWL_API_KEY?.trim() ?? ''
  const apiUrl = env.FIRECRAWL_API_URL?.trim() || undefined
  if (requested === 'builtin') return { engine: 'builtin' }
  if (apiUrl && !/^https?:\/\/[^\s/]+/.test(apiUrl)) {
    throw new CrawlError(
      'invalid-input',
      `FIRECRAWL_API_URL is not a URL: "${apiUrl}". Use the address of your Firecrawl API, e.g. https://api.firecrawl.dev, or leave it empty`,
    )
  }
  if (apiKey) return { engine: 'firecrawl', firecrawl: { apiKey, apiUrl } }
  if (requested === 'firecrawl') {
    throw new CrawlError(
      'missing-api-key',
      'Please set your API key first: set FIRECRAWL_API_KEY in .env (see .env.example), or crawl with --engine builtin',
    )
  }
  if (apiUrl) {
    throw new CrawlError(
      'missing-api-key',
      `${FIRECRAWL_MESSAGES.missingKey}: FIRECRAWL_API_URL is set but FIRECRAWL_API_KEY is missing. ` +
        'Add the key to .env (see .env.example), or unset FIRECRAWL_API_URL to use the built-in crawler',
    )
  }
  return { engine: 'builtin' }
}

/** Tell whether a business needs photos (SPEC's 'Load Business Photos'): active, with a website, with no images. */
export function needsPhotos(business: Pick<BusinessRecord, 'is_active' | 'website' | 'images'>): boolean {
  return business.is_active && Boolean(business.website?.trim()) && business.images.length === 0
}

/**
 * Crawl one business's website and store its hero, thumbnail and logo, or crawl any address and store nothing;
 * recorded as a 'crawl' job unless it is a dry run.
 */
export async function runCrawl(options: RunCrawlOptions): Promise<CrawlRunResult> {
  const engine = options.engine ?? engineFromEnv(options.env)
  const dryRun = options.dryRun ?? false
  const { store } = options
  let business: BusinessRecord | null = null
  let websiteUrl: string
  let businessName: string
  if ('slug' in options.target) {
    if (!store)
      throw new CrawlError('invalid-input', 'Crawling a business needs the store: open it and pass it as store')
    business = findBusiness(await store.listBusinesses(), options.target.slug)
    if (!business.website?.trim()) {
      throw new CrawlError(
        'invalid-input',
        `${business.name} has no website to crawl: add it to Roland.txt and migrate again, or crawl an address with --url`,
      )
    }
    websiteUrl = business.website
    businessName = business.name
  } else {
    websiteUrl = options.target.url
    businessName = options.target.name?.trim() || nameFromUrl(options.target.url)
  }

  let jobId: string | null = null
  const work = async (reporter: JobReporter): Promise<CrawlRunResult> => {
    const crawl = await crawlWith(engine, { businessName, websiteUrl }, options, reporter)
    let outcome: { stored: StoredImage[]; skipped: SkippedImage[] } = { stored: [], skipped: [] }
    if (business && !dryRun) {
      outcome = await storeCrawledImages({
        store: store!,
        business,
        result: crawl,
        allowPrivateNetwork: options.allowPrivateNetwork ?? false,
        limits: options.imageLimits,
        signal: options.signal,
        onProgress: (progress) => reporter.progress(progress),
      })
      logStored(reporter, outcome)
    }
    const ref = business ? { id: business.id, slug: business.slug, name: business.name } : null
    return { ...crawl, business: ref, ...outcome, dryRun, jobId }
  }

  if (dryRun) return work(listenerReporter(options.onEvent))
  if (!store)
    throw new CrawlError('invalid-input', 'A crawl that is not a dry run is recorded as a job: pass the store')
  return runJob(
    {
      store,
      kind: 'crawl',
      params: {
        ...(business ? { businessId: business.id, slug: business.slug } : {}),
        businessName,
        websiteUrl,
        engine: engine.engine,
        allowPrivateNetwork: options.allowPrivateNetwork ?? false,
      },
      startedBy: options.startedBy ?? 'cli',
      onEvent: (event) => {
        if ('job' in event) jobId ??= event.job.id
        options.onEvent?.(event)
      },
      record: recordedResult,
    },
    work,
  )
}

/**
 * Crawl every active business with a website and no images (SPEC's 'Load Business Photos'), as one job:
 * a business that fails is reported and the run goes on, unless the failure would repeat for every one.
 */
export async function runCrawlMissing(options: RunCrawlMissingOptions): Promise<CrawlMissingResult> {
  const engine = options.engine ?? engineFromEnv(options.env)
  const dryRun = options.dryRun ?? false
  let jobId: string | null = null
  const work = (reporter: JobReporter) => crawlMissing(options, engine, reporter, () => jobId)
  if (dryRun) return work(listenerReporter(options.onEvent))
  return runJob(
    {
      store: options.store,
      kind: 'crawl',
      params: { target: 'missing', engine: engine.engine, allowPrivateNetwork: options.allowPrivateNetwork ?? false },
      startedBy: options.startedBy ?? 'cli',
      onEvent: (event) => {
        if ('job' in event) jobId ??= event.job.id
        options.onEvent?.(event)
      },
    },
    work,
  )
}

async function crawlMissing(
  options: RunCrawlMissingOptions,
  engine: EngineSettings,
  reporter: JobReporter,
  jobId: () => string | null,
): Promise<CrawlMissingResult> {
  const dryRun = options.dryRun ?? false
  reporter.progress({ phase: 'finding businesses', done: 0, total: 1 })
  const businesses = await options.store.listBusinesses()
  const skipped = { inactive: 0, withoutWebsite: 0, withImages: 0 }
  const todo: BusinessRecord[] = []
  for (const business of businesses) {
    if (needsPhotos(business)) todo.push(business)
    else if (!business.is_active) skipped.inactive++
    else if (!business.website?.trim()) skipped.withoutWebsite++
    else skipped.withImages++
  }
  reporter.progress({ phase: 'finding businesses', done: 1, total: 1 })
  reporter.log(
    `Crawling ${todo.length} business website${todo.length === 1 ? '' : 's'} with the ${engine.engine} engine` +
      `${dryRun ? ' (dry run: nothing is stored)' : ''}.`,
  )

  const outcomes: Array<{ index: number; crawled?: CrawledBusinessOutcome; failed?: FailedCrawl }> = []
  let next = 0
  let finished = 0
  let fatal: CrawlError | undefined
  const phase = 'crawling websites'
  reporter.progress({ phase, done: 0, total: todo.length })

  const crawlOne = async (index: number, business: BusinessRecord): Promise<void> => {
    const websiteUrl = business.website!.trim()
    try {
      const crawl = await crawlWith(engine, { businessName: business.name, websiteUrl }, options, undefined)
      let outcome: { stored: StoredImage[]; skipped: SkippedImage[] } = { stored: [], skipped: [] }
      if (!dryRun) {
        outcome = await storeCrawledImages({
          store: options.store,
          business,
          result: crawl,
          allowPrivateNetwork: options.allowPrivateNetwork ?? false,
          limits: options.imageLimits,
          signal: options.signal,
        })
      }
      const found = [crawl.heroUrl, crawl.thumbnailUrl, crawl.logoUrl].filter(Boolean).length
      reporter.log(
        `${business.name}: ${found === 0 ? 'No images found for this business' : `found ${found}`}` +
          `${dryRun ? '' : `, stored ${outcome.stored.filter((image) => image.created).length}`}` +
          `${outcome.skipped.length ? `, skipped ${outcome.skipped.length}` : ''}.`,
      )
      outcomes.push({
        index,
        crawled: {
          slug: business.slug,
          name: business.name,
          websiteUrl: crawl.websiteUrl,
          heroUrl: crawl.heroUrl,
          thumbnailUrl: crawl.thumbnailUrl,
          logoUrl: crawl.logoUrl,
          ...outcome,
        },
      })
    } catch (error) {
      if (options.signal?.aborted || (error instanceof CrawlError && error.code === 'cancelled')) throw error
      const reason = error instanceof Error ? error.message : String(error)
      reporter.log(`${business.name}: ${reason}`)
      outcomes.push({ index, failed: { slug: business.slug, name: business.name, websiteUrl, reason } })
      if (isFatal(error)) fatal ??= error as CrawlError
    }
  }

  const worker = async (): Promise<void> => {
    while (!fatal && next < todo.length) {
      const index = next++
      await crawlOne(index, todo[index]!)
      finished++
      reporter.progress({ phase, done: finished, total: todo.length })
    }
  }
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 4, todo.length))
  await Promise.all(Array.from({ length: concurrency }, worker))

  outcomes.sort((a, b) => a.index - b.index)
  const crawled = outcomes.flatMap((outcome) => (outcome.crawled ? [outcome.crawled] : []))
  const failed = outcomes.flatMap((outcome) => (outcome.failed ? [outcome.failed] : []))
  const stored = crawled.reduce((sum, business) => sum + business.stored.filter((image) => image.created).length, 0)
  if (fatal) {
    // A missing key or broken storage fails every business alike: stop instead of listing the same error forty times.
    throw new CrawlError(
      fatal.code,
      `${fatal.message.replace(/\.$/, '')}. Stopped after ${finished} of ${todo.length} businesses; the ${stored} image${stored === 1 ? '' : 's'} stored are kept`,
      { status: fatal.status, cause: fatal },
    )
  }
  reporter.log(`Crawled ${crawled.length}, stored ${stored} image${stored === 1 ? '' : 's'}, ${failed.length} failed.`)
  return { crawled, stored, failed, skipped, dryRun, jobId: jobId() }
}

function isFatal(error: unknown): boolean {
  if (!(error instanceof CrawlError)) return false
  if (error.code === 'missing-api-key' || error.code === 'firecrawl-unreachable' || error.code === 'storage-failed') {
    return true
  }
  // Firecrawl's 401 (bad key) and 402 (no credits) answer every crawl the same way.
  return error.code === 'firecrawl-failed' && (error.status === 401 || error.status === 402)
}

async function crawlWith(
  engine: EngineSettings,
  input: { businessName: string; websiteUrl: string },
  options: CrawlJobOptions,
  reporter: JobReporter | undefined,
): Promise<CrawlResult> {
  const crawl = await crawlBusinessImages({
    ...input,
    engine: engine.engine,
    firecrawl: engine.engine === 'firecrawl' ? engine.firecrawl : undefined,
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    limits: options.limits,
    signal: options.signal,
    onProgress: reporter ? (progress) => reporter.progress(progress) : undefined,
  })
  if (reporter) {
    const found = (url: string | null) => (url ? 'found' : 'none')
    reporter.log(
      `Visited ${crawl.pagesVisited.length} page(s) of ${crawl.websiteUrl} with the ${engine.engine} engine; ` +
        `accepted ${crawl.images.length} image(s), left out ${crawl.rejected.length}; hero ${found(crawl.heroUrl)}, ` +
        `thumbnail ${found(crawl.thumbnailUrl)}, logo ${found(crawl.logoUrl)}.`,
    )
    for (const failure of crawl.pagesFailed) reporter.log(`Could not read ${failure.url}: ${failure.reason}`)
  }
  return crawl
}

function logStored(reporter: JobReporter, outcome: { stored: StoredImage[]; skipped: SkippedImage[] }): void {
  for (const image of outcome.stored) {
    reporter.log(
      `${image.created ? 'Stored' : 'Already stored'} the ${image.role} image ${image.sourceUrl} as ${image.imageUrl}`,
    )
  }
  for (const image of outcome.skipped) reporter.log(`Skipped the ${image.role} image ${image.url}: ${image.reason}`)
}

function listenerReporter(onEvent: JobListener | undefined): JobReporter {
  return { progress: (progress) => onEvent?.({ progress }), log: (log) => onEvent?.({ log }) }
}

/** Trim a crawl's result to what the jobs table keeps: its findings and what was stored, image lists capped. */
export function recordedResult(result: CrawlRunResult) {
  return {
    ...result,
    images: result.images.slice(0, RECORDED_IMAGES),
    imageCount: result.images.length,
    rejected: result.rejected.slice(0, RECORDED_IMAGES),
    rejectedCount: result.rejected.length,
  }
}

function nameFromUrl(url: string): string {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url.trim()) ? url.trim() : `https://${url.trim()}`).hostname
  } catch {
    return url.trim()
  }
}

function findBusiness(businesses: BusinessRecord[], slug: string): BusinessRecord {
  const wanted = slug.trim().toLowerCase()
  if (!wanted)
    throw new CrawlError(
      'invalid-input',
      'Say which business: --business <slug>, e.g. --business big-rock-coffee-house',
    )
  const business = businesses.find((candidate) => candidate.slug === wanted)
  if (business) return business
  const near = businesses
    .filter((b) => b.slug.includes(wanted) || wanted.includes(b.slug) || b.name.toLowerCase().includes(wanted))
    .slice(0, 3)
    .map((b) => b.slug)
  throw new CrawlError(
    'invalid-input',
    `No business has the slug "${slug}". ` +
      (near.length
        ? `Did you mean ${near.join(', ')}?`
        : 'A slug is the last part of the business page address, /business/{slug}, e.g. big-rock-coffee-house.'),
  )
}
