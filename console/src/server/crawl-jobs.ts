import type { CrawlRunResult, EngineSettings } from '@roland/scripts/crawl/job'
import type { StoreCrawledImagesResult } from '@roland/scripts/crawl/store-images'
import type { CrawlResult } from '@roland/scripts/crawl/crawl'
import type { GenerateStoreImagesResult } from '@roland/scripts/images/job'
import type { OptimizeImagesResult } from '@roland/scripts/images/optimize'
import type { ImageProvider } from '@roland/scripts/images/providers'
import { runJob } from '@roland/scripts/jobs/run-job'
import type { BusinessRecord, Job } from '@roland/scripts/store/types'
import type { ConsoleServices } from './context.ts'
import { HttpError } from './http.ts'
import { consoleStarter } from './jobs.ts'

// The console's crawl and image jobs: thin calls of the job functions in scripts/src (the same
// the CLI runs), with the console's Firecrawl key and its private-network setting.
//
// Each job's code is loaded when the first such job starts, as the CLI loads a command's; so are
// those of a photo upload, a Firecrawl key check, a backup download and the notify sender (their
// routes). Loaded with the server, Firecrawl's client (axios), sharp, tar-stream and nodemailer
// took a console 2.0-2.2 CPU-s to start, now 1.7-1.8 (its server's modules: 1.06-1.12, now 0.75-0.86).

/** Crawls with Firecrawl when a key is configured (environment or saved), else with the built-in engine. */
async function engineSettings(services: ConsoleServices): Promise<EngineSettings> {
  const key = await services.keys.get()
  if (!key) return { engine: 'builtin' }
  return {
    engine: 'firecrawl',
    firecrawl: { apiKey: key.apiKey, apiUrl: services.config.env.FIRECRAWL_API_URL?.trim() || undefined },
  }
}

/** Whether a crawl or attach stored any new image (so the site must be rebuilt). */
function storedNew(result: { stored: Array<{ created: boolean }> }): boolean {
  return result.stored.some((image) => image.created)
}

/** Starts a crawl of a website (the crawler screen's form); nothing is stored until it is attached. */
export async function startCrawlJob(
  services: ConsoleServices,
  input: { businessName: string; websiteUrl: string },
): Promise<Job> {
  const engine = await engineSettings(services)
  return services.jobs.launch(
    async (onEvent) => {
      const { runCrawl } = await import('@roland/scripts/crawl/job')
      return runCrawl({
        store: services.store,
        target: { url: input.websiteUrl, name: input.businessName },
        engine,
        allowPrivateNetwork: services.config.allowPrivateNetwork,
        startedBy: consoleStarter(),
        onEvent,
      })
    },
    { mayChangeData: false },
  )
}

async function findBusiness(services: ConsoleServices, id: string): Promise<BusinessRecord> {
  const business = (await services.store.listBusinesses()).find((b) => b.id === id)
  if (!business) throw new HttpError(404, `No business with id ${id}: reload the businesses list.`)
  return business
}

/** Starts storing a finished crawl's images with a business (downloaded into our storage). */
export async function startAttachJob(
  services: ConsoleServices,
  input: { jobId: string; businessId: string },
): Promise<Job> {
  const crawlJob = await services.store.jobs.get(input.jobId)
  if (!crawlJob || crawlJob.kind !== 'crawl')
    throw new HttpError(404, `No crawl job with id ${input.jobId}: crawl the website first.`)
  const crawled = crawlJob.result as (CrawlResult & Partial<CrawlRunResult>) | null
  if (
    crawlJob.status !== 'succeeded' ||
    !crawled ||
    typeof crawled.websiteUrl !== 'string' ||
    !Array.isArray(crawled.images)
  ) {
    throw new HttpError(409, 'That crawl has no images to attach: wait for it to succeed, or crawl again.')
  }
  if (!crawled.heroUrl && !crawled.thumbnailUrl && !crawled.logoUrl) {
    throw new HttpError(409, 'No images found for this business: there is nothing to attach.')
  }
  const business = await findBusiness(services, input.businessId)
  const params = {
    businessId: business.id,
    slug: business.slug,
    businessName: business.name,
    websiteUrl: crawled.websiteUrl,
    attach: crawlJob.id,
  }
  return services.jobs.launch(
    (onEvent) =>
      runJob(
        { store: services.store, kind: 'crawl', params, startedBy: consoleStarter(), onEvent },
        async (reporter) => {
          const { storeCrawledImages } = await import('@roland/scripts/crawl/store-images')
          const outcome: StoreCrawledImagesResult = await storeCrawledImages({
            store: services.store,
            business,
            result: crawled,
            allowPrivateNetwork: services.config.allowPrivateNetwork,
            onProgress: (progress) => reporter.progress(progress),
          })
          for (const image of outcome.stored) {
            reporter.log(
              `${image.created ? 'Stored' : 'Already stored'} the ${image.role} image ${image.sourceUrl} as ${image.imageUrl}`,
            )
          }
          for (const image of outcome.skipped)
            reporter.log(`Skipped the ${image.role} image ${image.url}: ${image.reason}`)
          return { business: { id: business.id, slug: business.slug, name: business.name }, ...outcome }
        },
      ),
    { mayChangeData: true, changedData: storedNew },
  )
}

/** Starts 'crawl photos' for a business: crawl its website, then store what was found. */
export async function startBusinessCrawlJob(services: ConsoleServices, businessId: string): Promise<Job> {
  const business = await findBusiness(services, businessId)
  if (!business.website?.trim()) {
    throw new HttpError(409, `${business.name} has no website to crawl: add it to Roland.txt and migrate again.`)
  }
  const engine = await engineSettings(services)
  return services.jobs.launch(
    async (onEvent) => {
      const { runCrawl } = await import('@roland/scripts/crawl/job')
      return runCrawl({
        store: services.store,
        target: { slug: business.slug },
        engine,
        allowPrivateNetwork: services.config.allowPrivateNetwork,
        startedBy: consoleStarter(),
        onEvent,
      })
    },
    { mayChangeData: true, changedData: storedNew },
  )
}

/** Starts 'generate an image' for a business: a store image from the configured provider, as its hero. */
export async function startImageJob(services: ConsoleServices, businessId: string): Promise<Job> {
  const business = await findBusiness(services, businessId)
  const { chooseImageProvider } = await import('@roland/scripts/images/providers')
  let provider: ImageProvider
  try {
    provider = chooseImageProvider({ env: services.config.env })
  } catch (error) {
    throw new HttpError(400, error instanceof Error ? error.message : String(error))
  }
  return services.jobs.launch(
    async (onEvent) => {
      const { generateStoreImages } = await import('@roland/scripts/images/job')
      return generateStoreImages({
        store: services.store,
        target: { slug: business.slug },
        provider,
        startedBy: consoleStarter(),
        onEvent,
      })
    },
    { mayChangeData: true, changedData: (result: GenerateStoreImagesResult) => result.summary.generated > 0 },
  )
}

/** Starts 'Optimize photos': the derivatives backfill of `roland images optimize --missing`, as a job. */
export function startOptimizeJob(services: ConsoleServices): Promise<Job> {
  return services.jobs.launch(
    async (onEvent) => {
      const { optimizeImages } = await import('@roland/scripts/images/optimize')
      return optimizeImages({ store: services.store, missing: true, startedBy: consoleStarter(), onEvent })
    },
    { mayChangeData: true, changedData: (result: OptimizeImagesResult) => result.summary.optimized > 0 },
  )
}
