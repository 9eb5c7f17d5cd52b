import { z } from 'zod'
import type { Route } from '../context.ts'
import { HttpError, sendJson } from '../http.ts'
import { sendEventList } from './content.ts'
import { startOptimizeJob } from '../crawl-jobs.ts'
import { rebuildState } from './rebuild.ts'

const limitSchema = z.coerce.number().int().min(1).max(500).default(100)

/** The job history and its live updates. */
export const jobRoutes: Route[] = [
  {
    // Every job, newest first: console and CLI runs alike (?limit=1..500, default 100).
    method: 'GET',
    path: /^\/api\/jobs$/,
    async handler({ res, url, services }) {
      const limit = limitSchema.safeParse(url.searchParams.get('limit') ?? undefined)
      if (!limit.success) throw new HttpError(400, 'limit must be a whole number from 1 to 500')
      sendJson(res, 200, { jobs: await services.jobs.list(limit.data) })
    },
  },
  {
    method: 'GET',
    path: /^\/api\/jobs\/(?<id>[^/]+)$/,
    async handler({ res, params, services }) {
      if (!z.uuid().safeParse(params.id).success)
        throw new HttpError(400, 'A job id is a UUID: take it from GET /api/jobs')
      const job = await services.store.jobs.get(params.id!)
      if (!job) throw new HttpError(404, `No job with id ${params.id}: it may belong to another database.`)
      sendJson(res, 200, { job })
    },
  },
  {
    // 'Optimize photos': make the missing derivatives of stored photos, as a job (202 with the job).
    method: 'POST',
    path: /^\/api\/jobs\/optimize-images$/,
    async handler({ res, services }) {
      sendJson(res, 202, { job: await startOptimizeJob(services) })
    },
  },
  {
    // Live updates (Server-Sent Events): job rows as they change, progress and log lines as they
    // happen, and the rebuild state. Asked for as JSON (no `Accept: text/event-stream`, which an
    // EventSource always sends), the same path lists the community events.
    method: 'GET',
    path: /^\/api\/events$/,
    async handler(context) {
      const { req, res, services } = context
      if (!/\btext\/event-stream\b/i.test(req.headers.accept ?? '')) return sendEventList(context)
      services.hub.open(req, res, [{ event: 'rebuild', data: rebuildState(services) }])
    },
  },
]
