import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { EmbeddedStore } from '../src/store/embedded.ts'
import { startFixtureSite, type FixtureSite } from './crawl-fixture-server.ts'
import { closedPort } from './support/free-port.ts'

// Business websites for the freshness check, one local server per case (issue 28): healthy, dead,
// 404, 500, an off-domain redirect, a hang past the timeout, a redirect loop, a parked page, and
// the bad input a check must survive (a HEAD refused, a 50 MB page, a PDF). Each server counts the
// requests it has at once, for the "one request per host" rule.

/** A case's website address and what it saw. */
export interface CheckSite {
  url: string
  /** Requests received, by method. */
  requests: Array<{ method: string; path: string; userAgent: string | undefined }>
  /** The most requests this host had in flight at once. */
  peakConcurrent: number
}

/** Every case's website, and a way to stop them all. */
export interface CheckSites {
  healthy: CheckSite
  headRefused: CheckSite
  dead: CheckSite
  notFound: CheckSite
  serverError: CheckSite
  offDomain: CheckSite
  hang: CheckSite
  loop: CheckSite
  parked: CheckSite
  huge: CheckSite
  pdf: CheckSite
  /** A cloud metadata address: the SSRF guard refuses it even when private networks are allowed. */
  internal: CheckSite
  close(): Promise<void>
}

type Handler = Parameters<typeof startFixtureSite>[1]

async function site(routes: NonNullable<Handler>): Promise<{ site: CheckSite; server: FixtureSite }> {
  const record: CheckSite = { url: '', requests: [], peakConcurrent: 0 }
  let inFlight = 0
  const counted: NonNullable<Handler> = {}
  for (const [path, route] of Object.entries(routes)) {
    counted[path] = (request, response, origin) => {
      record.requests.push({ method: request.method ?? '', path, userAgent: request.headers['user-agent'] })
      record.peakConcurrent = Math.max(record.peakConcurrent, ++inFlight)
      response.on('close', () => inFlight--)
      route(request, response, origin)
    }
  }
  const server = await startFixtureSite(undefined, counted)
  record.url = server.url('/')
  return { site: record, server }
}

const html = (body: string) =>
  `<!DOCTYPE html><html lang="en"><head><title>Site</title></head><body>${body}</body></html>`

/** Start every case's website on 127.0.0.1 (the off-domain target on 127.0.0.2). */
export async function startCheckSites(): Promise<CheckSites> {
  const servers: FixtureSite[] = []
  const hanging = new Set<ServerResponse>()
  const add = async (routes: NonNullable<Handler>) => {
    const made = await site(routes)
    servers.push(made.server)
    return made.site
  }
  const page = (body: string) => (_request: unknown, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(body))
  }

  // The off-domain redirect lands on another address: a different "registrable domain".
  const elsewhere: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(html('<h1>A new owner</h1>'))
  })
  await new Promise<void>((done) => elsewhere.listen(0, '127.0.0.2', done))
  const elsewhereUrl = `http://127.0.0.2:${(elsewhere.address() as AddressInfo).port}/welcome`

  const sites: Omit<CheckSites, 'close'> = {
    healthy: await add({ '/': page('<h1>Big Rock Coffee</h1><p>Open daily.</p>') }),
    headRefused: await add({
      '/': (request, response) => {
        if (request.method === 'HEAD') response.writeHead(405, { allow: 'GET' }).end()
        else page('<h1>Old server</h1>')(request, response)
      },
    }),
    dead: { url: `http://127.0.0.1:${await closedPort()}/`, requests: [], peakConcurrent: 0 },
    notFound: await add({ '/': (_request, response) => response.writeHead(404).end('Not here') }),
    serverError: await add({ '/': (_request, response) => response.writeHead(500).end('Broken') }),
    offDomain: await add({
      '/': (_request, response) => response.writeHead(301, { location: elsewhereUrl }).end(),
    }),
    hang: await add({
      '/': (_request, response) => {
        hanging.add(response)
      },
    }),
    loop: await add({
      '/': (_request, response) => response.writeHead(302, { location: '/again' }).end(),
      '/again': (_request, response) => response.writeHead(302, { location: '/' }).end(),
    }),
    parked: await add({
      '/': page('<h1>roland-bait.example</h1><p>This domain is for sale! Buy this domain today.</p>'),
    }),
    huge: await add({
      '/': (request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' })
        if (request.method === 'HEAD') return response.end()
        // 50 MB in 64 KB chunks, written as the reader drains them.
        const chunk = Buffer.alloc(64 * 1024, 'a')
        let left = 800
        const write = () => {
          while (left > 0) {
            left--
            if (!response.write(chunk)) return void response.once('drain', write)
          }
          response.end()
        }
        response.on('close', () => (left = 0))
        write()
      },
    }),
    pdf: await add({
      '/': (_request, response) =>
        response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': 52_428_800 }).end(),
    }),
    internal: { url: 'http://169.254.169.254/latest/meta-data/', requests: [], peakConcurrent: 0 },
  }
  return {
    ...sites,
    async close() {
      for (const response of hanging) response.destroy()
      elsewhere.closeAllConnections()
      await Promise.all([
        ...servers.map((server) => server.close()),
        new Promise<void>((done) => elsewhere.close(() => done())),
      ])
    },
  }
}

/** A listing of the check catalog and the findings `roland check` must report for it. */
export interface CheckCase {
  slug: string
  website?: string
  phone?: string
  hours?: string
  photo?: boolean
  /** Days since an operator verified it (default 10); null: never. */
  verifiedDaysAgo?: number | null
  active?: boolean
  expected: Array<{ kind: string; detail: RegExp }>
}

/** The check catalog: one listing per case, healthy in every other way. */
export function checkCases(sites: CheckSites): CheckCase[] {
  return [
    { slug: 'healthy-cafe', website: sites.healthy.url, expected: [] },
    { slug: 'old-server-diner', website: sites.headRefused.url, expected: [] },
    { slug: 'huge-page-farm', website: sites.huge.url, expected: [] },
    { slug: 'pdf-menu-grill', website: sites.pdf.url, expected: [] },
    { slug: 'no-website-bakery', expected: [] },
    {
      slug: 'dead-site-shop',
      website: sites.dead.url,
      expected: [{ kind: 'website-unreachable', detail: /refused the connection/ }],
    },
    {
      slug: 'missing-page-store',
      website: sites.notFound.url,
      expected: [{ kind: 'website-error', detail: /HTTP 404/ }],
    },
    {
      slug: 'broken-server-bank',
      website: sites.serverError.url,
      expected: [{ kind: 'website-error', detail: /HTTP 500/ }],
    },
    {
      slug: 'moved-away-marina',
      website: sites.offDomain.url,
      expected: [{ kind: 'website-moved', detail: /redirects to another domain: http:\/\/127\.0\.0\.2:\d+\/welcome/ }],
    },
    {
      slug: 'hanging-site-salon',
      website: sites.hang.url,
      expected: [{ kind: 'website-unreachable', detail: /did not answer within/ }],
    },
    {
      slug: 'loop-site-garage',
      website: sites.loop.url,
      expected: [{ kind: 'website-error', detail: /redirects in a loop/ }],
    },
    {
      slug: 'parked-bait-shop',
      website: sites.parked.url,
      expected: [{ kind: 'website-parked', detail: /this domain is for sale/ }],
    },
    {
      slug: 'internal-address-realty',
      website: sites.internal.url,
      expected: [
        { kind: 'website-unreachable', detail: /Refused to fetch http:\/\/169\.254\.169\.254\/.*cloud metadata/ },
      ],
    },
    {
      slug: 'bad-phone-plumber',
      phone: '555-12',
      expected: [{ kind: 'phone-invalid', detail: /"555-12" is not a valid US phone number/ }],
    },
    {
      slug: 'odd-hours-antiques',
      hours: 'Whenever the sign says open',
      expected: [{ kind: 'hours-unreadable', detail: /"Whenever the sign says open" cannot be read/ }],
    },
    { slug: 'no-photo-tailor', photo: false, expected: [{ kind: 'no-photo', detail: /No photo and no store image/ }] },
    { slug: 'stale-hardware', verifiedDaysAgo: 400, expected: [{ kind: 'unverified', detail: /over 365 days ago/ }] },
    {
      slug: 'never-checked-feed-store',
      verifiedDaysAgo: null,
      expected: [{ kind: 'unverified', detail: /Never verified/ }],
    },
    { slug: 'closed-for-good-mill', website: sites.dead.url, active: false, expected: [] },
  ]
}

/** Replace the store's businesses with the check catalog. */
export async function loadCheckCatalog(store: EmbeddedStore, cases: CheckCase[]): Promise<void> {
  await store.db.query('delete from businesses')
  for (const item of cases) {
    const name = item.slug
      .split('-')
      .map((word) => word[0]!.toUpperCase() + word.slice(1))
      .join(' ')
    const days = item.verifiedDaysAgo === undefined ? 10 : item.verifiedDaysAgo
    const { rows } = await store.db.query<{ id: string }>(
      `insert into businesses (slug, name, website, phone, hours, is_active, verified_at)
       values ($1, $2, $3, $4, $5, $6, case when $7::int is null then null else now() - make_interval(days => $7::int) end)
       returning id`,
      [
        item.slug,
        name,
        item.website ?? null,
        item.phone ?? '(501) 868-1234',
        item.hours ?? 'Mon-Fri 7am-5pm',
        item.active ?? true,
        days,
      ],
    )
    if (item.photo !== false) {
      await store.db.query(
        `insert into business_images (business_id, image_url, image_type, is_primary) values ($1, $2, 'hero', true)`,
        [rows[0]!.id, `/files/business-images/${item.slug}.jpg`],
      )
    }
  }
}
