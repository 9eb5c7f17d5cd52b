import type { BusinessRecord } from '@roland/scripts/store/types'
import type { BusinessView } from '../../shared/api.ts'
import { z } from 'zod'
import type { Route } from '../context.ts'
import { startBusinessCrawlJob, startImageJob } from '../crawl-jobs.ts'
import { HttpError, sendJson } from '../http.ts'

/** Shapes a business for the businesses screen. */
export function businessView(business: BusinessRecord): BusinessView {
  return {
    id: business.id,
    slug: business.slug,
    name: business.name,
    category: business.category,
    website: business.website,
    isActive: business.is_active,
    images: business.images.map((image) => ({
      id: image.id,
      url: image.image_url,
      type: image.image_type,
      isPrimary: image.is_primary,
      source: typeof image.metadata?.source === 'string' ? image.metadata.source : null,
    })),
  }
}

/** The businesses screen: every business with its images. */
export const businessRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/api\/businesses$/,
    async handler({ res, services }) {
      const businesses = await services.store.listBusinesses()
      sendJson(res, 200, { businesses: businesses.map(businessView) })
    },
  },
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
