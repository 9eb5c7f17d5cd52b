import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A page as Firecrawl's v2 API returns it inside a crawl job. */
export interface StandInDocument {
  markdown?: string
  html?: string
  metadata: Record<string, unknown>
}

/** A request the stand-in received, for tests that check what the SDK sent. */
export interface StandInRequest {
  method: string
  path: string
  authorization: string | undefined
  body: Record<string, unknown> | undefined
}

/** A canned failure: the status and JSON body Firecrawl answers with. */
export interface StandInFailure {
  status: number
  body: Record<string, unknown>
}

/** How the stand-in behaves. */
export interface StandInOptions {
  /** The only key it accepts; any other gets Firecrawl's 401. */
  apiKey: string
  /** The pages a crawl of this address finds, before the limit is applied. */
  pages?: (url: string) => StandInDocument[]
  /** Status checks answered with "scraping" before the job completes. */
  pollsBeforeDone?: number
  /** Documents per status response; more are reached through `next`, as Firecrawl pages large results. */
  pageSize?: number
  /** How the job ends. */
  outcome?: 'completed' | 'failed'
  /** Answer POST /v2/crawl with this instead of starting a job. */
  startFailure?: StandInFailure
  /** Answer GET /v2/crawl/{id} with this instead of the job. */
  statusFailure?: StandInFailure
  /** Answer the status check with this body, whatever it is. */
  statusBody?: Record<string, unknown>
}

/** A Firecrawl v2 API stand-in on 127.0.0.1. */
export interface FirecrawlStandIn {
  apiUrl: string
  requests: StandInRequest[]
  close(): Promise<void>
}

/** Firecrawl's own texts for the failures tests use. */
export const FIRECRAWL_FAILURES = {
  unauthorized: { status: 401, body: { success: false, error: 'Unauthorized: Invalid token' } },
  noCredits: {
    status: 402,
    body: {
      success: false,
      error:
        'Insufficient credits to perform this request. For more credits, you can upgrade your plan at https://firecrawl.dev/pricing.',
    },
  },
  serverError: {
    status: 500,
    body: { success: false, error: 'An unexpected error occurred. Please contact help@firecrawl.com for help.' },
  },
} satisfies Record<string, StandInFailure>

interface Job {
  id: string
  documents: StandInDocument[]
  polls: number
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body))
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  if (chunks.length === 0) return undefined
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>
}

/**
 * Start a server speaking the part of Firecrawl's v2 API that @mendable/firecrawl-js v4 calls for a crawl:
 * POST /v2/crawl, GET /v2/crawl/{id} (with `next` paging) and DELETE /v2/crawl/{id}, all behind a bearer key.
 */
export async function startFirecrawlStandIn(options: StandInOptions): Promise<FirecrawlStandIn> {
  const requests: StandInRequest[] = []
  const jobs = new Map<string, Job>()
  let apiUrl = ''

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', apiUrl)
      const body = request.method === 'POST' ? await readJson(request) : undefined
      const authorization = request.headers.authorization
      requests.push({ method: request.method ?? '', path: url.pathname + url.search, authorization, body })

      if (authorization !== `Bearer ${options.apiKey}`) return send(response, 401, FIRECRAWL_FAILURES.unauthorized.body)

      if (request.method === 'POST' && url.pathname === '/v2/crawl') {
        if (options.startFailure) return send(response, options.startFailure.status, options.startFailure.body)
        const target = typeof body?.['url'] === 'string' ? body['url'] : ''
        if (!target)
          return send(response, 400, {
            success: false,
            error: 'Bad Request',
            details: [{ path: ['url'], message: 'Required' }],
          })
        const limit = typeof body?.['limit'] === 'number' ? body['limit'] : 10_000
        const id = randomUUID()
        jobs.set(id, { id, documents: (options.pages?.(target) ?? []).slice(0, limit), polls: 0 })
        return send(response, 200, { success: true, id, url: `${apiUrl}/v2/crawl/${id}` })
      }

      const match = /^\/v2\/crawl\/([\w-]+)$/.exec(url.pathname)
      const job = match ? jobs.get(match[1] ?? '') : undefined
      if (match && !job) return send(response, 404, { success: false, error: 'Job not found' })

      if (job && request.method === 'DELETE') {
        jobs.delete(job.id)
        return send(response, 200, { status: 'cancelled' })
      }

      if (job && request.method === 'GET') {
        if (options.statusFailure) return send(response, options.statusFailure.status, options.statusFailure.body)
        if (options.statusBody) return send(response, 200, options.statusBody)
        const total = job.documents.length
        const expiresAt = new Date(Date.UTC(2030, 0, 1)).toISOString()
        const skip = Number(url.searchParams.get('skip') ?? 0)
        if (skip === 0) job.polls += 1
        if (job.polls <= (options.pollsBeforeDone ?? 0)) {
          const completed = Math.min(total, job.polls - 1)
          return send(response, 200, {
            success: true,
            status: 'scraping',
            completed,
            total,
            creditsUsed: completed,
            expiresAt,
            next: null,
            data: [],
          })
        }
        if (options.outcome === 'failed') {
          return send(response, 200, {
            success: true,
            status: 'failed',
            completed: 0,
            total,
            creditsUsed: 0,
            expiresAt,
            next: null,
            data: [],
          })
        }
        const pageSize = options.pageSize ?? 10
        const data = job.documents.slice(skip, skip + pageSize)
        const next = skip + pageSize < total ? `${apiUrl}/v2/crawl/${job.id}?skip=${skip + pageSize}` : null
        return send(response, 200, {
          success: true,
          status: 'completed',
          completed: total,
          total,
          creditsUsed: total,
          expiresAt,
          next,
          data,
        })
      }

      send(response, 404, { success: false, error: `Cannot ${request.method} ${url.pathname}` })
    })().catch((error: unknown) => send(response, 500, { success: false, error: String(error) }))
  })

  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    apiUrl,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}
