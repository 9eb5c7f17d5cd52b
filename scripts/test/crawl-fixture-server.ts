import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { readFile, stat } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Folder of the fixture business websites, one folder per site. */
export const FIXTURE_SITES = fileURLToPath(new URL('./fixtures/sites/', import.meta.url))

/** A request the fixture server received, for tests that check what a crawler sent. */
export interface ReceivedRequest {
  path: string
  userAgent: string | undefined
}

/** Answer one path in a test's own way (errors, redirects, slow or endless bodies). */
export type FixtureRoute = (request: IncomingMessage, response: ServerResponse, origin: string) => void

/** A fixture website served on 127.0.0.1. */
export interface FixtureSite {
  origin: string
  url(path?: string): string
  requests: ReceivedRequest[]
  close(): Promise<void>
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
}

const NOT_FOUND_PAGE = `<!DOCTYPE html><html><head><title>Page not found</title></head>
<body><h1>Oops! That page can&rsquo;t be found.</h1><p>It looks like nothing was found at this location.</p></body></html>`

async function findFile(root: string, pathname: string): Promise<string | undefined> {
  const decoded = decodeURIComponent(pathname)
  const target = normalize(join(root, decoded))
  // Never serve outside the site's folder, whatever the path says.
  if (target !== root && !target.startsWith(root + sep)) return undefined
  for (const candidate of [target, join(target, 'index.html'), `${target}.html`]) {
    const info = await stat(candidate).catch(() => undefined)
    if (info?.isFile()) return candidate
  }
  return undefined
}

/**
 * Serve a fixture site (a folder under fixtures/sites, or none) on 127.0.0.1 at a random port. Routes answer first;
 * in .html files the token __ORIGIN__ becomes the server's origin, as a CMS writes absolute links to itself.
 */
export async function startFixtureSite(
  site: string | undefined,
  routes: Record<string, FixtureRoute> = {},
): Promise<FixtureSite> {
  const root = site === undefined ? undefined : resolve(FIXTURE_SITES, site)
  const requests: ReceivedRequest[] = []
  let origin = ''

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin)
    requests.push({ path: url.pathname + url.search, userAgent: request.headers['user-agent'] })
    const route = routes[url.pathname]
    if (route) return route(request, response, origin)
    void serveFile(url.pathname, response)
  })

  async function serveFile(pathname: string, response: ServerResponse): Promise<void> {
    const file = root === undefined ? undefined : await findFile(root, pathname)
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(NOT_FOUND_PAGE)
      return
    }
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'
    let body: Buffer = await readFile(file)
    if (extname(file) === '.html')
      body = Buffer.from(body.toString('latin1').replaceAll('__ORIGIN__', origin), 'latin1')
    response.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body)
  }

  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    url: (path = '/') => new URL(path, origin).href,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}
