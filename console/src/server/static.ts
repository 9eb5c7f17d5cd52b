import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import path from 'node:path'
import { securityHeaders } from './http.ts'

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
}

// The app's own code only; images may come from our storage or the crawled sites (the crawler
// screen shows what it found before anything is stored), never scripts from anywhere else.
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  'img-src * data: blob:',
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ')

/** Resolves a URL path inside a folder, or null when it would leave it. */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (decoded.includes('\0')) return null
  const file = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`)
  return file === root || file.startsWith(`${root}${path.sep}`) ? file : null
}

/** Says whether a request's Accept-Encoding takes gzip (named, or `*`, with a weight above 0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? '').split(',').some((part) => {
    const [name, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase())
    const weight = params.find((param) => param.startsWith('q='))
    return (name === 'gzip' || name === '*') && (weight === undefined || Number(weight.slice(2)) > 0)
  })
}

/**
 * Sends a file when it exists (true), with a type from its extension; immutable when hashed.
 * With `gzip`, its gzip copy (file.gz, which the app's build writes) is sent when there is one.
 */
export async function sendFile(
  res: ServerResponse,
  file: string | null,
  options: { immutable?: boolean; gzip?: boolean } = {},
): Promise<boolean> {
  if (!file) return false
  const info = await stat(file).catch(() => null)
  if (!info?.isFile()) return false
  const zipped = options.gzip ? await stat(`${file}.gz`).catch(() => null) : null
  const type = contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream'
  res.writeHead(200, {
    ...securityHeaders,
    'content-type': type,
    'content-length': String(zipped?.isFile() ? zipped.size : info.size),
    ...(zipped?.isFile() ? { 'content-encoding': 'gzip' } : {}),
    ...(options.gzip !== undefined ? { vary: 'Accept-Encoding' } : {}),
    'cache-control': options.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...(type.startsWith('text/html') ? { 'content-security-policy': contentSecurityPolicy } : {}),
  })
  const source = zipped?.isFile() ? `${file}.gz` : file
  await new Promise<void>((resolve, reject) => {
    createReadStream(source).on('error', reject).on('end', resolve).pipe(res)
  })
  return true
}

/**
 * Serves the built app: a file of console/dist, else index.html (the app routes on the client),
 * gzipped when the browser's Accept-Encoding takes it.
 */
export async function sendApp(
  res: ServerResponse,
  distDir: string,
  urlPath: string,
  acceptEncoding?: string,
): Promise<void> {
  const isAsset = urlPath.startsWith('/assets/')
  const gzip = acceptsGzip(acceptEncoding)
  if (urlPath !== '/' && (await sendFile(res, resolveInside(distDir, urlPath), { immutable: isAsset, gzip }))) return
  if (isAsset || path.extname(urlPath)) {
    res.writeHead(404, { ...securityHeaders, 'content-type': 'text/plain; charset=utf-8' })
    res.end('Not found')
    return
  }
  if (!(await sendFile(res, path.join(distDir, 'index.html'), { gzip }))) {
    res.writeHead(503, { ...securityHeaders, 'content-type': 'text/plain; charset=utf-8' })
    res.end('The console app is not built: restart `pnpm console`, which builds it.')
  }
}
