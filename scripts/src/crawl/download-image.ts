import { CrawlError } from './crawl-error.ts'
import { FETCH_DEFAULTS, safeFetch } from './safe-fetch.ts'

/** Largest image a crawl downloads; a business photo is rarely over 2 MB, a 10 MB one is a camera original. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024

/** A downloaded image, checked by its bytes, ready for storage. */
export interface DownloadedImage {
  /** The final address, after redirects. */
  url: string
  bytes: Uint8Array
  /** The media type the bytes prove, not the one the server claimed. */
  contentType: string
  /** File extension for that type, without the dot. */
  extension: string
}

/** Limits and policy of one image download. */
export interface DownloadImageOptions {
  allowPrivateNetwork?: boolean
  timeoutMs?: number
  maxBytes?: number
  maxRedirects?: number
  signal?: AbortSignal
}

const FORMATS: { type: string; extension: string; test: (bytes: Uint8Array) => boolean }[] = [
  { type: 'image/png', extension: 'png', test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'image/jpeg', extension: 'jpg', test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { type: 'image/gif', extension: 'gif', test: (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a' },
  { type: 'image/webp', extension: 'webp', test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
  {
    type: 'image/avif',
    extension: 'avif',
    test: (b) => ascii(b, 4, 8) === 'ftyp' && /^avi[fs]$/.test(ascii(b, 8, 12)),
  },
  { type: 'image/x-icon', extension: 'ico', test: (b) => startsWith(b, [0x00, 0x00, 0x01, 0x00]) },
  { type: 'image/svg+xml', extension: 'svg', test: isSvg },
]

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((value, index) => bytes[index] === value)
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end))
}

function isSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8')
    .decode(bytes.subarray(0, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart()
  // An SVG may open with an XML declaration, comments or a doctype before its root element.
  const withoutProlog = head.replace(/^(?:<\?xml[^>]*\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*/i, '')
  return /^<svg[\s>]/i.test(withoutProlog)
}

/** Tell which image format some bytes are, by their magic numbers; undefined when they are no image. */
export function sniffImageType(bytes: Uint8Array): { contentType: string; extension: string } | undefined {
  const format = FORMATS.find((candidate) => candidate.test(bytes))
  return format ? { contentType: format.type, extension: format.extension } : undefined
}

/** Download an image with the crawl's safeguards and prove by its bytes that it is one. */
export async function downloadImage(url: string, options: DownloadImageOptions = {}): Promise<DownloadedImage> {
  const response = await safeFetch(url, {
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    timeoutMs: options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs,
    maxBytes: options.maxBytes ?? MAX_IMAGE_BYTES,
    maxRedirects: options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects,
    accept: 'image/avif,image/webp,image/png,image/jpeg,image/*;q=0.8',
    signal: options.signal,
  })
  if (response.status !== 200) {
    throw new CrawlError('http-status', `${response.url} answered HTTP ${response.status}: the image is missing`, {
      url: response.url,
      status: response.status,
    })
  }
  const claimed = response.contentType
  // Servers often send images as application/octet-stream or with no type; the bytes decide then.
  if (
    claimed !== '' &&
    !claimed.startsWith('image/') &&
    claimed !== 'application/octet-stream' &&
    claimed !== 'binary/octet-stream'
  ) {
    throw new CrawlError('not-an-image', `${response.url} is ${claimed}, not an image`, { url: response.url })
  }
  const sniffed = sniffImageType(response.body)
  if (!sniffed) {
    throw new CrawlError(
      'not-an-image',
      `${response.url} claims to be ${claimed || 'an image'} but its bytes are no known image format`,
      {
        url: response.url,
      },
    )
  }
  return { url: response.url, bytes: response.body, ...sniffed }
}
