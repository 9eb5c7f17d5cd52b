import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { EmbeddedStore } from '../../src/store/embedded.ts'
import type { FunctionName } from '../../src/store/database.ts'

// A stand-in for the parts of a hosted Supabase project we cannot reach from here, speaking
// their protocol on 127.0.0.1: PostgREST under /rest/v1 (tables, filters, ordering, rpc),
// Storage under /storage/v1 (object upload, download and delete) and Auth (GoTrue) under /auth/v1
// (sign-up, password sign-in, sign-out and the admin users API). Keys decide the role, as on Supabase.

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
  /** More column defaults per table, beside the migrations' (columnDefaults). */
  defaults?: Record<string, Row>
  /** Tables the anon role may not read (as the RLS migration says). */
  privateTables?: string[]
  rpc?: Record<string, (args: Record<string, unknown>, role: Role, request: RpcRequest) => unknown>
  /** Answer every request (or those under `path`, such as /auth/v1/) with this status and error body, to test failures. */
  failWith?: { status: number; body: Row; path?: string }
}

/**
 * The column defaults of the tables the stand-in's callers insert into, as the migrations declare
 * them: PostgREST answers an insert with the whole row, defaults included.
 */
export const columnDefaults: Record<string, Row> = {
  operators: { disabled: false },
  sign_in_failures: { failed_attempts: 0, locked_until: null },
  business_images: { width: null, height: null, placeholder: null, variants: [] },
  jobs: {
    status: 'queued',
    params: {},
    progress: { phase: 'queued', done: 0, total: 0 },
    result: null,
    error: null,
    log: [],
    started_at: null,
    finished_at: null,
  },
}

/** What an rpc sees of its HTTP request: the headers, and the caller's address as Supabase's gateway adds it. */
export interface RpcRequest {
  headers: Record<string, string>
}

/** A user of the stand-in's Auth, with the password it checks. */
export interface AuthUser {
  id: string
  email: string
  password: string
  created_at: string
}

/** A running stand-in. */
export interface SupabaseStandIn {
  url: string
  requests: RecordedRequest[]
  tables: Record<string, Row[]>
  /** Auth's users by id. */
  users: Map<string, AuthUser>
  /** Auth's live access tokens (a sign-out removes one). */
  accessTokens: Map<string, string>
  objects: Map<string, { bytes: Buffer; contentType: string }>
  options: StandInOptions
  close(): Promise<void>
}

/**
 * Answers rpc calls to these SQL functions by running them in a real Postgres (the embedded store)
 * as PostgREST would for the service role; any other role is refused, as the migrations' grants do.
 */
export function sqlFunctions(
  postgres: { call(fn: string, args: Record<string, unknown>): Promise<unknown> },
  names: string[],
): NonNullable<StandInOptions['rpc']> {
  return Object.fromEntries(
    names.map((name) => [
      name,
      (args: Record<string, unknown>, role: Role) => {
        if (role !== 'service_role') throw new Error(`permission denied for function ${name}`)
        return postgres.call(name, args)
      },
    ]),
  )
}

/**
 * Answers rpc calls to these SQL functions as PostgREST does for whoever calls: as anon with the
 * publishable key, as the service role with the secret key, with the request's headers in
 * request.headers (the gateway's x-forwarded-for included). The migrations' grants decide.
 */
export function publicSqlFunctions(postgres: EmbeddedStore, names: string[]): NonNullable<StandInOptions['rpc']> {
  return Object.fromEntries(
    names.map((name) => [
      name,
      (args: Record<string, unknown>, role: Role, request: RpcRequest) => {
        if (role === 'service_role') return postgres.call(name as FunctionName, args, { headers: request.headers })
        const names = Object.keys(args).filter((arg) => /^[a-z_][a-z0-9_]*$/.test(arg))
        const list = names.map((arg, i) => `${arg} => $${i + 1}`).join(', ')
        const values = names.map((arg) => {
          const value = args[arg]
          return value === null || value === undefined
            ? null
            : typeof value === 'object'
              ? JSON.stringify(value)
              : value
        })
        return postgres.asRole('anon', async (tx) => {
          await tx.query(`select set_config('request.headers', $1, true), set_config('request.jwt.claims', $2, true)`, [
            JSON.stringify(request.headers),
            JSON.stringify({ role: 'anon' }),
          ])
          const { rows } = await tx.query<{ result: unknown }>(`select public.${name}(${list}) as result`, values)
          return rows[0]?.result
        })
      },
    ]),
  )
}

/** Starts a Supabase stand-in on a free port of 127.0.0.1. */
export async function startSupabaseStandIn(options: StandInOptions): Promise<SupabaseStandIn> {
  const tables = options.tables ?? {}
  const objects = new Map<string, { bytes: Buffer; contentType: string }>()
  const requests: RecordedRequest[] = []
  const users = new Map<string, AuthUser>()
  const accessTokens = new Map<string, string>()
  let nextId = 1

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const cors = { 'access-control-allow-origin': '*' }
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
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...cors, ...headers })
      res.end(payload === undefined ? '' : JSON.stringify(payload))
    }
    // Supabase's gateway answers browsers from any origin; the keys and the grants decide the rest.
    if (req.method === 'OPTIONS') {
      res.writeHead(200, {
        ...cors,
        'access-control-allow-methods': 'GET, POST, PATCH, PUT, DELETE, OPTIONS',
        'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? '*'),
        'access-control-max-age': '3600',
      })
      return res.end()
    }
    const failure = options.failWith
    if (failure && url.pathname.startsWith(failure.path ?? '/')) return send(failure.status, failure.body)

    const key = req.headers.apikey
    const role: Role | null =
      key === options.publishableKey ? 'anon' : key === options.secretKey ? 'service_role' : null
    if (!role) {
      return send(401, {
        message: 'Invalid API key',
        hint: 'Double check your Supabase `anon` or `service_role` API key.',
      })
    }

    if (url.pathname.startsWith('/auth/v1/')) {
      const answer = answerAuth(req.method ?? 'GET', url, role, body as Row | null, req.headers.authorization)
      res.writeHead(answer.status, {
        'content-type': 'application/json; charset=utf-8',
        // Errors carry a string code (invalid_credentials…) from this API version on.
        'x-supabase-api-version': '2024-01-01',
      })
      return res.end(answer.body === undefined ? '' : JSON.stringify(answer.body))
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
        const headers: Record<string, string> = {}
        for (const [header, value] of Object.entries(req.headers))
          if (value !== undefined) headers[header] = String(value)
        // What Supabase's proxies add: the caller's address (Cloudflare's header, which a caller cannot set).
        headers['cf-connecting-ip'] = req.socket.remoteAddress ?? ''
        headers['x-forwarded-for'] = [headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ')
        try {
          return send(200, await fn((body ?? {}) as Record<string, unknown>, role, { headers }))
        } catch (error) {
          // PostgREST answers an error raised with SQLSTATE PTxyz with HTTP status xyz.
          const raised = (error as { code?: unknown }).code
          const code = typeof raised === 'string' ? raised : 'P0001'
          // A missing grant is 401 for anon, as PostgREST answers it.
          const status = /^PT\d{3}$/.test(code)
            ? Number(code.slice(2))
            : code === '42501' && role === 'anon'
              ? 401
              : 400
          return send(status, { code, message: (error as Error).message, details: null, hint: null })
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
      let matching: Row[]
      try {
        matching = rows.filter((row) => matches(row, url.searchParams))
      } catch (error) {
        // Answer what the stand-in cannot do, rather than leave the caller waiting.
        return send(400, { code: 'PGRST100', message: (error as Error).message })
      }
      switch (req.method) {
        case 'GET':
          return sendRows(200, order(matching, url.searchParams), { 'content-range': `0-${matching.length - 1}/*` })
        case 'POST': {
          const inserted = (Array.isArray(body) ? body : [body]).map((row: Row) => ({
            id: `00000000-0000-4000-8000-${String(nextId++).padStart(12, '0')}`,
            created_at: new Date().toISOString(),
            ...columnDefaults[name],
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

    // Storage's listing of one folder: POST /storage/v1/object/list/<bucket> with {prefix, limit, offset};
    // a folder comes back as an entry with a null id.
    const list = url.pathname.match(/^\/storage\/v1\/object\/list\/([a-z0-9_-]+)$/)
    if (list && req.method === 'POST') {
      if (role !== 'service_role')
        return send(400, { statusCode: '403', error: 'Unauthorized', message: 'not allowed' })
      const {
        prefix = '',
        limit = 100,
        offset = 0,
      } = (body ?? {}) as { prefix?: string; limit?: number; offset?: number }
      const folder = `${list[1]}/${prefix ? `${prefix.replace(/\/+$/, '')}/` : ''}`
      const entries = new Map<string, Row>()
      for (const [id, object] of objects) {
        if (!id.startsWith(folder)) continue
        const [name, ...deeper] = id.slice(folder.length).split('/') as [string, ...string[]]
        entries.set(
          name,
          deeper.length
            ? { name, id: null, metadata: null }
            : { name, id, metadata: { size: object.bytes.length, mimetype: object.contentType } },
        )
      }
      const sorted = [...entries.values()].sort((a, b) => String(a.name).localeCompare(String(b.name)))
      return send(200, sorted.slice(offset, offset + limit))
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
  // GoTrue's answers, as supabase-js's auth client reads them.
  function answerAuth(
    method: string,
    url: URL,
    role: Role,
    body: Row | null,
    authorization: string | undefined,
  ): { status: number; body?: unknown } {
    const refuse = (status: number, code: string, message: string) => ({ status, body: { code, message } })
    const userView = (user: AuthUser) => ({
      id: user.id,
      aud: 'authenticated',
      role: 'authenticated',
      email: user.email,
      email_confirmed_at: user.created_at,
      created_at: user.created_at,
      updated_at: user.created_at,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: {},
      identities: [],
    })
    const byEmail = (email: unknown) =>
      [...users.values()].find((user) => typeof email === 'string' && user.email === email.toLowerCase())
    const newUser = (email: unknown, password: unknown): AuthUser | { status: number; body: unknown } => {
      if (typeof email !== 'string' || !email.includes('@')) {
        return refuse(400, 'validation_failed', 'Unable to validate email address: invalid format')
      }
      if (typeof password !== 'string' || password.length < 6) {
        return refuse(422, 'weak_password', 'Password should be at least 6 characters.')
      }
      if (byEmail(email)) {
        return refuse(422, 'email_exists', 'A user with this email address has already been registered')
      }
      const id = `00000000-0000-4000-a000-${String(nextId++).padStart(12, '0')}`
      const user = { id, email: email.toLowerCase(), password, created_at: new Date().toISOString() }
      users.set(id, user)
      return user
    }
    const session = (user: AuthUser) => {
      const accessToken = `stand-in-access-${nextId++}`
      accessTokens.set(accessToken, user.id)
      return {
        access_token: accessToken,
        token_type: 'bearer',
        expires_in: 3600,
        expires_at: Math.floor(Date.now() / 1000) + 3600,
        refresh_token: `stand-in-refresh-${nextId++}`,
        user: userView(user),
      }
    }

    const route = url.pathname.slice('/auth/v1'.length)
    if (method === 'POST' && route === '/signup') {
      const user = newUser(body?.email, body?.password)
      return 'id' in user ? { status: 200, body: session(user) } : user
    }
    if (method === 'POST' && route === '/token' && url.searchParams.get('grant_type') === 'password') {
      const user = byEmail(body?.email)
      if (!user || user.password !== body?.password) {
        return refuse(400, 'invalid_credentials', 'Invalid login credentials')
      }
      return { status: 200, body: session(user) }
    }
    if (method === 'POST' && route === '/logout') {
      const token = authorization?.replace(/^Bearer\s+/i, '') ?? ''
      if (!accessTokens.delete(token))
        return refuse(403, 'session_not_found', 'Session from session_id claim does not exist')
      return { status: 204 }
    }
    if (route.startsWith('/admin/')) {
      if (role !== 'service_role') return refuse(403, 'not_admin', 'User not allowed')
      if (route === '/admin/users' && method === 'POST') {
        const user = newUser(body?.email, body?.password)
        return 'id' in user ? { status: 200, body: userView(user) } : user
      }
      if (route === '/admin/users' && method === 'GET') {
        const perPage = Number(url.searchParams.get('per_page') || 50)
        const page = Number(url.searchParams.get('page') || 1)
        const all = [...users.values()]
        return {
          status: 200,
          body: { aud: 'authenticated', users: all.slice((page - 1) * perPage, page * perPage).map(userView) },
        }
      }
      const one = route.match(/^\/admin\/users\/([0-9a-f-]+)$/)
      const user = one ? users.get(one[1]!) : undefined
      if (one && !user) return refuse(404, 'user_not_found', 'User not found')
      if (user && method === 'GET') return { status: 200, body: userView(user) }
      if (user && method === 'PUT') {
        if (body?.password !== undefined) {
          if (typeof body.password !== 'string' || body.password.length < 6) {
            return refuse(422, 'weak_password', 'Password should be at least 6 characters.')
          }
          user.password = body.password
        }
        return { status: 200, body: userView(user) }
      }
      if (user && method === 'DELETE') {
        users.delete(user.id)
        for (const [token, owner] of accessTokens) if (owner === user.id) accessTokens.delete(token)
        return { status: 200, body: {} }
      }
    }
    return refuse(404, 'not_found', `no Auth route ${method} ${url.pathname}`)
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    tables,
    users,
    accessTokens,
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

// PostgREST horizontal filters: eq, and in (the unfinished jobs: status=in.(queued,running)).
function matches(row: Row, query: URLSearchParams): boolean {
  for (const [column, filter] of query) {
    if (reserved.has(column)) continue
    const eq = filter.match(/^eq\.(.*)$/)
    const among = filter.match(/^in\.\((.*)\)$/)
    if (eq) {
      if (String(row[column]) !== eq[1]) return false
    } else if (among) {
      if (!among[1]!.split(',').includes(String(row[column]))) return false
    } else {
      throw new Error(`the stand-in does not support the filter ${column}=${filter}`)
    }
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
