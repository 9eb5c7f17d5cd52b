import { z } from 'zod'
import type { Route } from '../context.ts'
import { startBusinessCrawlJob, startImageJob } from '../crawl-jobs.ts'
import { HttpError, sendJson } from '../http.ts'

/** The businesses screen's jobs: crawling photos and generating a store image (the list is in content.ts). */
export const businessRoutes: Route[] = [
  {
    // 'Crawl photos': crawl the business's website and store the images found, as a job.
    method: 'POST',
    path: /^\/api\/businesses\/(?<id>[^/]+)\/crawl$/,
    async handler({ res, params, services }) {
      const id = businessId(params.id)
      sendJson(res, 202, { job: await startBusinessCrawlJob(services, id) })
    },
  },
  {
    // 'Generate an image': a store image (SPEC §7 generate-business-image) recorded as the hero, as a job.
    method: 'POST',
    path: /^\/api\/businesses\/(?<id>[^/]+)\/generate-image$/,
    async handler({ res, params, services }) {
      const id = businessId(params.id)
      sendJson(res, 202, { job: await startImageJob(services, id) })
    },
  },
]

function businessId(raw: string | undefined): string {
  const parsed = z.uuid().safeParse(raw)
  if (!parsed.success) throw new HttpError(400, 'A business id is a UUID: take it from GET /api/businesses')
  return parsed.data
}
