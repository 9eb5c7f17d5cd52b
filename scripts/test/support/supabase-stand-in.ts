import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

// A stand-in for the parts of a hosted Supabase project we cannot reach from here, speaking
// their protocol on 127.0.0.1: PostgREST under /rest/v1 (tables, filters, ordering, rpc) and
// Storage under /storage/v1 (object upload, download and delete). Keys decide the role, as on Supabase.

/** One request the stand-in received, for assertions. */
export interface RecordedRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingMessage['headers']
  body: unknown
}

type Role = 'anon' | 'service_role'
type Row = Record<string, unknown>

/** Options: the keys it accepts and the data it holds. */
export interface StandInOptions {
  publishableKey: string
  secretKey: string
  tables?: Record<string, Row[]>
  /** Column defaults per table, as the migrations declare them (PostgREST answers with them). */
  defaults?: Record<string, Row>
  /** Tables the anon role may not read (as the RLS migration says). */
  privateTables?: string[]
  rpc?: Record<string, (args: Record<string, unknown>, role: Role) => unknown>
  /** Answer every request with this status and PostgREST error body, to test failures. */
  failWith?: { status: number; body: Row }
}

/** A running stand-in. */
export interface SupabaseStandIn {
  url: string
  requests: RecordedRequest[]
  tables: Record<string, Row[]>
  objects: Map<string, { bytes: Buffer; contentType: string }>
  options: StandInOptions
  close(): Promise<void>
}

/** Starts a Supabase stand-in on a free port of 127.0.0.1. */
export async function startSupabaseStandIn(options: StandInOptions): Promise<SupabaseStandIn> {
  const tables = options.tables ?? {}
  const objects = new Map<string, { bytes: Buffer; contentType: string }>()
  const requests: RecordedRequest[] = []
  let nextId = 1

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const raw = await readBody(req)
    const isJson = (req.headers['content-type'] ?? '').includes('json')
    const body = raw.length && isJson ? JSON.parse(raw.toString('utf8')) : raw.length ? raw : null
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
    })
    // PostgREST answers one object instead of an array when asked for it (supabase-js .single()).
    const wantsObject = (req.headers.accept ?? '').includes('application/vnd.pgrst.object+json')
    const sendRows = (status: number, rows: Row[], headers: Record<string, string> = {}) => {
      if (!wantsObject) return send(status, rows, headers)
      if (rows.length !== 1) {
        return send(406, {
          code: 'PGRST116',
          message: 'JSON object requested, multiple (or no) rows returned',
          details: `The result contains ${rows.length} rows`,
        })
      }
      return send(status, rows[0], headers)
    }
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
      res.end(payload === undefined ? '' : JSON.stringify(payload))
    }
    if (options.failWith) return send(options.failWith.status, options.failWith.body)

    const key = req.headers.apikey
    const role: Role | null =
      key === options.publishableKey ? 'anon' : key === options.secretKey ? 'service_role' : null
    if (!role) {
      return send(401, {
        message: 'Invalid API key',
        hint: 'Double check your Supabase `anon` or `service_role` API key.',
      })
    }

    const rest = url.pathname.match(/^\/rest\/v1\/(rpc\/)?([a-z_]+)$/)
    if (rest) {
      const [, isRpc, name] = rest as unknown as [string, string | undefined, string]
      if (isRpc) {
        const fn = options.rpc?.[name]
        if (!fn) {
          return send(404, {
            code: 'PGRST202',
            message: `Could not find the function public.${name} in the schema cache`,
          })
        }
        try {
          return send(200, await fn((body ?? {}) as Record<string, unknown>, role))
        } catch (error) {
          return send(400, { code: 'P0001', message: (error as Error).message, details: null, hint: null })
        }
      }
      const rows = tables[name]
      if (!rows) return send(404, { code: '42P01', message: `relation "public.${name}" does not exist` })
      if (role === 'anon' && options.privateTables?.includes(name)) {
        return send(401, { code: '42501', message: `permission denied for table ${name}` })
      }
      if (role === 'anon' && req.method !== 'GET') {
        return send(401, { code: '42501', message: `permission denied for table ${name}` })
      }
      const matching = rows.filter((row) => matches(row, url.searchParams))
      switch (req.method) {
        case 'GET':
          return sendRows(200, order(matching, url.searchParams), { 'content-range': `0-${matching.length - 1}/*` })
        case 'POST': {
          const inserted = (Array.isArray(body) ? body : [body]).map((row: Row) => ({
            id: `00000000-0000-4000-8000-${String(nextId++).padStart(12, '0')}`,
            created_at: new Date().toISOString(),
            ...options.defaults?.[name],
            ...row,
          }))
          rows.push(...inserted)
          return sendRows(201, inserted)
        }
        case 'PATCH': {
          for (const row of matching) Object.assign(row, body)
          return sendRows(200, matching)
        }
        case 'DELETE': {
          tables[name] = rows.filter((row) => !matching.includes(row))
          return send(200, matching)
        }
      }
    }

    // Storage's bulk delete: DELETE /storage/v1/object/<bucket> with {prefixes: [paths]}.
    const bulkDelete = url.pathname.match(/^\/storage\/v1\/object\/([a-z0-9_-]+)$/)
    if (bulkDelete && req.method === 'DELETE') {
      if (role !== 'service_role')
        return send(400, { statusCode: '403', error: 'Unauthorized', message: 'not allowed' })
      const prefixes = ((body ?? {}) as { prefixes?: string[] }).prefixes ?? []
      const removed = prefixes.filter((path) => objects.delete(`${bulkDelete[1]}/${path}`))
      return send(
        200,
        removed.map((name) => ({ name })),
      )
    }

    const storage = url.pathname.match(/^\/storage\/v1\/object\/(?:(public|authenticated)\/)?([a-z0-9_-]+)\/(.+)$/)
    if (storage) {
      const [, , bucket, objectPath] = storage as unknown as [string, string | undefined, string, string]
      const id = `${bucket}/${decodeURIComponent(objectPath)}`
      if (req.method === 'GET') {
        const object = objects.get(id)
        if (!object) return send(400, { statusCode: '404', error: 'not_found', message: 'Object not found' })
        res.writeHead(200, { 'content-type': object.contentType })
        return res.end(object.bytes)
      }
      if (req.method === 'POST' || req.method === 'PUT') {
        if (role !== 'service_role') {
          return send(400, {
            statusCode: '403',
            error: 'Unauthorized',
            message: 'new row violates row-level security policy',
          })
        }
        if (objects.has(id) && req.headers['x-upsert'] !== 'true') {
          return send(400, { statusCode: '409', error: 'Duplicate', message: 'The resource already exists' })
        }
        objects.set(id, {
          bytes: Buffer.isBuffer(body) ? body : Buffer.from(raw),
          contentType: req.headers['content-type'] ?? '',
        })
        return send(200, { Key: id, Id: id })
      }
    }
    send(404, { message: `no route for ${req.method} ${url.pathname}` })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    tables,
    objects,
    options,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

const reserved = new Set(['select', 'order', 'limit', 'offset', 'columns', 'on_conflict'])

// PostgREST horizontal filters: only eq is needed by our reads.
function matches(row: Row, query: URLSearchParams): boolean {
  for (const [column, filter] of query) {
    if (reserved.has(column)) continue
    const eq = filter.match(/^eq\.(.*)$/)
    if (!eq) throw new Error(`the stand-in does not support the filter ${column}=${filter}`)
    if (String(row[column]) !== eq[1]) return false
  }
  return true
}

function order(rows: Row[], query: URLSearchParams): Row[] {
  const spec = query.get('order')
  const sorted = [...rows]
  if (spec) {
    const [column, direction] = spec.split('.') as [string, string | undefined]
    sorted.sort((a, b) => String(a[column]).localeCompare(String(b[column]), 'en', { numeric: true }))
    if (direction === 'desc') sorted.reverse()
  }
  const offset = Number(query.get('offset') ?? 0)
  const limit = query.get('limit')
  return sorted.slice(offset, limit ? offset + Number(limit) : undefined)
}
