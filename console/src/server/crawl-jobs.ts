import { crawlBusinessImages, type CrawlResult } from '@roland/scripts/crawl/crawl'
import { runJob, type JobReporter } from '@roland/scripts/jobs/run-job'
import type { BusinessRecord, Job } from '@roland/scripts/store/types'
import type { ConsoleServices } from './context.ts'
import { HttpError } from './http.ts'
import { consoleStarter } from './jobs.ts'
import { storeCrawledImages, type StoredImages } from './store-crawled-images.ts'

/** Crawls with Firecrawl when a key is configured, else with the built-in engine. */
async function crawl(services: ConsoleServices, input: { businessName: string; websiteUrl: string }, reporter: JobReporter): Promise<CrawlResult> {
  const key = await services.keys.get()
  const result = await crawlBusinessImages({
    businessName: input.businessName,
    websiteUrl: input.websiteUrl,
    engine: key ? 'firecrawl' : 'builtin',
    firecrawl: key ? { apiKey: key.apiKey, apiUrl: services.config.env.FIRECRAWL_API_URL || undefined } : undefined,
    allowPrivateNetwork: services.config.allowPrivateNetwork,
    onProgress: (progress) => reporter.progress(progress),
  })
  reporter.log(
    `Visited ${result.pagesVisited.length} page(s), kept ${result.images.length} image(s), left out ${result.rejected.length}; ` +
      `hero ${result.heroUrl ? 'found' : 'none'}, thumbnail ${result.thumbnailUrl ? 'found' : 'none'}, logo ${result.logoUrl ? 'found' : 'none'}.`,
  )
  for (const failure of result.pagesFailed) reporter.log(`Could not read ${failure.url}: ${failure.reason}`)
  return result
}

async function engineName(services: ConsoleServices): Promise<'firecrawl' | 'builtin'> {
  return (await services.keys.get()) ? 'firecrawl' : 'builtin'
}

/** Starts a crawl of a website (the crawler screen's form); nothing is stored until it is attached. */
export async function startCrawlJob(services: ConsoleServices, input: { businessName: string; websiteUrl: string }): Promise<Job> {
  const params = { ...input, engine: await engineName(services) }
  return services.jobs.launch(
    (onEvent) =>
      runJob({ store: services.store, kind: 'crawl', params, startedBy: consoleStarter(), onEvent }, (reporter) =>
        crawl(services, input, reporter),
      ),
    { mayChangeData: false },
  )
}

async function findBusiness(services: ConsoleServices, id: string): Promise<BusinessRecord> {
  const business = (await services.store.listBusinesses()).find((b) => b.id === id)
  if (!business) throw new HttpError(404, `No business with id ${id}: reload the businesses list.`)
  return business
}

/** Starts storing a finished crawl's images with a business. */
export async function startAttachJob(services: ConsoleServices, input: { jobId: string; businessId: string }): Promise<Job> {
  const crawlJob = await services.store.jobs.get(input.jobId)
  if (!crawlJob || crawlJob.kind !== 'crawl') throw new HttpError(404, `No crawl job with id ${input.jobId}: crawl the website first.`)
  const crawled = crawlJob.result as Partial<CrawlResult> | null
  if (crawlJob.status !== 'succeeded' || !crawled || typeof crawled.websiteUrl !== 'string') {
    throw new HttpError(409, 'That crawl has no images to attach: wait for it to succeed, or crawl again.')
  }
  if (!crawled.heroUrl && !crawled.thumbnailUrl && !crawled.logoUrl) {
    throw new HttpError(409, 'No images found for this business: there is nothing to attach.')
  }
  const business = await findBusiness(services, input.businessId)
  const params = { businessId: business.id, businessName: business.name, attach: crawlJob.id, websiteUrl: crawled.websiteUrl }
  return services.jobs.launch(
    (onEvent) =>
      runJob({ store: services.store, kind: 'crawl', params, startedBy: consoleStarter(), onEvent }, async (reporter) => {
        const stored = await storeCrawledImages({
          store: services.store,
          business,
          crawl: {
            websiteUrl: crawled.websiteUrl!,
            heroUrl: crawled.heroUrl ?? null,
            thumbnailUrl: crawled.thumbnailUrl ?? null,
            logoUrl: crawled.logoUrl ?? null,
            engine: crawled.engine,
          },
          allowPrivateNetwork: services.config.allowPrivateNetwork,
          reporter,
        })
        return { stored }
      }),
    { mayChangeData: true, changedData: (result: { stored: StoredImages }) => result.stored.added > 0 },
  )
}

/** Starts 'crawl photos' for a business: crawl its website, then store what was found. */
export async function startBusinessCrawlJob(services: ConsoleServices, businessId: string): Promise<Job> {
  const business = await findBusiness(services, businessId)
  if (!business.website) {
    throw new HttpError(409, `${business.name} has no website to crawl: add it to Roland.txt and migrate again.`)
  }
  const input = { businessName: business.name, websiteUrl: business.website }
  const params = { ...input, businessId: business.id, engine: await engineName(services) }
  return services.jobs.launch(
    (onEvent) =>
      runJob({ store: services.store, kind: 'crawl', params, startedBy: consoleStarter(), onEvent }, async (reporter) => {
        const result = await crawl(services, input, reporter)
        const stored = await storeCrawledImages({
          store: services.store,
          business,
          crawl: result,
          allowPrivateNetwork: services.config.allowPrivateNetwork,
          reporter,
        })
        return { ...result, stored }
      }),
    { mayChangeData: true, changedData: (result: { stored: StoredImages }) => result.stored.added > 0 },
  )
}
