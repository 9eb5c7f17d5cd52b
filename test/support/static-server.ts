import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'

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
}

/** A running static server: its base URL and how to stop it. */
export interface StaticServer {
  url: string
  close(): Promise<void>
}

/**
 * Serves a built site from 127.0.0.1 the way a static host does: /path is /path, /path.html or
 * /path/index.html; anything else is 404.html with status 404.
 */
export async function serveStatic(root: string): Promise<StaticServer> {
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
    response.writeHead(status, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' })
    if (request.method === 'HEAD') {
      response.end()
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
