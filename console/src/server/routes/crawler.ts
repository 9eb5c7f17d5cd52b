import {
  attachRequestSchema,
  crawlRequestSchema,
  firecrawlKeySchema,
  type CrawlerSettingsView,
} from '../../shared/api.ts'
import type { ConsoleServices, Route } from '../context.ts'
import { startAttachJob, startCrawlJob } from '../crawl-jobs.ts'
import { HttpError, readJson, sendJson } from '../http.ts'

/** Says which engine crawls and whether a key is stored (never the key). */
export async function crawlerSettings(services: Pick<ConsoleServices, 'keys'>): Promise<CrawlerSettingsView> {
  const key = await services.keys.get()
  return { engine: key ? 'firecrawl' : 'builtin', keyStored: key !== null, keySource: key?.source ?? null }
}

/** The crawler screen: the Firecrawl key, crawling a website, attaching the result to a business. */
export const crawlerRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/api\/crawler$/,
    async handler({ res, services }) {
      sendJson(res, 200, await crawlerSettings(services))
    },
  },
  {
    // Validates the key with a one-page crawl (SPEC §5), then stores it on the server only.
    method: 'PUT',
    path: /^\/api\/crawler\/key$/,
    async handler({ req, res, services }) {
      const { apiKey } = await readJson(req, firecrawlKeySchema)
      if (services.keys.fromEnvironment) {
        throw new HttpError(
          409,
          'FIRECRAWL_API_KEY is set in the environment and takes precedence: change it in .env instead.',
        )
      }
      // Loaded when a key is saved: Firecrawl's client (crawl-jobs.ts says why).
      const { validateFirecrawlKey } = await import('@roland/scripts/crawl/crawl')
      const check = await validateFirecrawlKey(apiKey, { apiUrl: services.config.env.FIRECRAWL_API_URL || undefined })
      if (!check.valid) {
        throw new HttpError(check.reason === 'unreachable' ? 502 : 400, check.message)
      }
      await services.keys.save(apiKey)
      sendJson(res, 200, { message: check.message, settings: await crawlerSettings(services) })
    },
  },
  {
    // Forgets the saved key: crawls go back to the built-in engine.
    method: 'DELETE',
    path: /^\/api\/crawler\/key$/,
    async handler({ res, services }) {
      await services.keys.remove()
      sendJson(res, 200, { settings: await crawlerSettings(services) })
    },
  },
  {
    // Crawls a website for its hero, thumbnail and logo images, as a job (nothing is stored yet).
    method: 'POST',
    path: /^\/api\/crawler\/crawl$/,
    async handler({ req, res, services }) {
      const request = await readJson(req, crawlRequestSchema)
      const job = await startCrawlJob(services, request)
      sendJson(res, 202, { job })
    },
  },
  {
    // Stores a finished crawl's images with a business (downloaded into our storage), as a job.
    method: 'POST',
    path: /^\/api\/crawler\/attach$/,
    async handler({ req, res, services }) {
      const request = await readJson(req, attachRequestSchema)
      const job = await startAttachJob(services, request)
      sendJson(res, 202, { job })
    },
  },
]
