import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
}

// The types a static host compresses (its text), when asked to (serveStatic's `compress`).
const compressible = /^(text\/|application\/(json|xml|manifest\+json)|image\/svg\+xml)/

/** A running static server: its base URL and how to stop it. */
export interface StaticServer {
  url: string
  close(): Promise<void>
}

/** How serveStatic serves. */
export interface StaticServerOptions {
  /**
   * Gzips text for a browser that accepts it, as every static host does: Lighthouse then measures
   * the bytes a visitor's phone gets (`pnpm lhci`). Off for the tests, which read what they fetch.
   */
  compress?: boolean
}

/**
 * Serves a built site from 127.0.0.1 the way a static host does: /path is /path, /path.html or
 * /path/index.html; anything else is 404.html with status 404.
 */
export async function serveStatic(root: string, options: StaticServerOptions = {}): Promise<StaticServer> {
  const resolve = async (pathname: string): Promise<string | null> => {
    const clean = path.posix.normalize(decodeURIComponent(pathname))
    if (clean.includes('\0') || clean.startsWith('..')) return null
    const base = path.join(root, clean)
    if (!base.startsWith(root)) return null
    for (const candidate of [base, `${base}.html`, path.join(base, 'index.html')]) {
      const info = await stat(candidate).catch(() => null)
      if (info?.isFile()) return candidate
    }
    return null
  }

  const server: Server = createServer(async (request, response) => {
    let file: string | null
    try {
      file = await resolve(new URL(request.url ?? '/', 'http://localhost').pathname)
    } catch {
      file = null
    }
    const status = file ? 200 : 404
    file ??= path.join(root, '404.html')
    const type = types[path.extname(file)] ?? 'application/octet-stream'
    const gzip =
      options.compress === true && compressible.test(type) && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')
    response.writeHead(status, {
      'content-type': type,
      ...(gzip ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {}),
    })
    if (request.method === 'HEAD') {
      response.end()
      return
    }
    if (gzip) {
      response.end(gzipSync(await readFile(file)))
      return
    }
    createReadStream(file)
      .on('error', () => response.end())
      .pipe(response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
