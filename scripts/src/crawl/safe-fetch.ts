import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import ipaddr from 'ipaddr.js'
import { CrawlError } from './crawl-error.ts'

/** The User-Agent every crawl request sends, so site owners can see who is asking and why. */
export const USER_AGENT = 'RolandCommunityBot/1.0 (+https://roland-ar.example/about)'

/** Default bounds of one fetch; a crawl of a small-business site never needs more. */
export const FETCH_DEFAULTS = {
  timeoutMs: 15_000,
  maxRedirects: 5,
  maxBytes: 2 * 1024 * 1024,
} as const

/** How one fetch may behave: which addresses it may reach, and how long and large it may get. */
export interface SafeFetchOptions {
  /** Allow loopback, private and link-local addresses (local fixture sites, tests). Cloud metadata stays refused. */
  allowPrivateNetwork?: boolean
  /** Time allowed for each hop (connect, headers and body), from the moment the host is free. */
  timeoutMs?: number
  maxRedirects?: number
  /** Largest body accepted, counted after decompression so a small gzip bomb cannot get past it. */
  maxBytes?: number
  accept?: string
  /** HEAD asks for the status and headers only (no body is read); default GET. */
  method?: 'GET' | 'HEAD'
  /** The User-Agent to send (default USER_AGENT). */
  userAgent?: string
  /** More request headers (If-None-Match, If-Modified-Since); they cannot replace the ones above. */
  headers?: Readonly<Record<string, string>>
  signal?: AbortSignal
}

/** A fully read response of a fetch that passed every check. */
export interface SafeResponse {
  /** The final address, after redirects. */
  url: string
  status: number
  /** The media type without parameters, lower case ('' when the server sent none). */
  contentType: string
  /** The charset parameter of Content-Type, lower case, when the server sent one. */
  charset: string | undefined
  headers: IncomingMessage['headers']
  body: Uint8Array
  /** Every address redirected to, in order. */
  redirects: string[]
}

// Every cloud's instance-metadata endpoint hands out credentials; no crawl has a reason to reach one,
// so these stay refused even when private networks are allowed for fixtures.
const CLOUD_METADATA_ADDRESSES = new Set(
  ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254'].map((address) =>
    ipaddr.parse(address).toNormalizedString(),
  ),
)

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/** Classify an IP address: 'public', 'cloud-metadata', or the ipaddr.js range name (loopback, private, linkLocal…). */
export function classifyAddress(address: string): string {
  if (!ipaddr.isValid(address)) return 'invalid'
  let ip = ipaddr.parse(address)
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6
    const range = v6.range()
    // An IPv6 form that carries an IPv4 address reaches that IPv4 host, so judge the embedded one.
    if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') {
      const bytes = v6.toByteArray().slice(-4)
      ip = ipaddr.fromByteArray(bytes)
    }
  }
  if (CLOUD_METADATA_ADDRESSES.has(ip.toNormalizedString())) return 'cloud-metadata'
  const range = ip.range()
  return range === 'unicast' ? 'public' : range
}

/** Tell whether a crawl may connect to this IP address under the given policy. */
export function isAllowedAddress(address: string, allowPrivateNetwork = false): boolean {
  const kind = classifyAddress(address)
  if (kind === 'public') return true
  if (kind === 'cloud-metadata' || kind === 'invalid') return false
  return allowPrivateNetwork
}

function refusal(host: string, address: string, url: string): CrawlError {
  const kind = classifyAddress(address)
  const what = kind === 'cloud-metadata' ? 'a cloud metadata address' : `a non-public address (${kind})`
  const hint =
    kind === 'cloud-metadata'
      ? 'crawls never reach cloud metadata endpoints'
      : 'crawls reach only public websites; pass allowPrivateNetwork (--allow-private-network) for a local test site'
  const shown = host === address ? address : `${host} (${address})`
  return new CrawlError('blocked-address', `Refused to fetch ${url}: ${shown} is ${what}; ${hint}`, { url })
}

function guardedLookup(url: string, allowPrivateNetwork: boolean): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0)
      // One bad address is enough to refuse: a name mixing public and private answers is a rebinding trick.
      const bad = addresses.find((entry) => !isAllowedAddress(entry.address, allowPrivateNetwork))
      if (bad) return callback(refusal(hostname, bad.address, url), '', 0)
      const first = addresses[0]
      if (!first) return callback(new CrawlError('dns-failed', `No address found for ${hostname}`, { url }), '', 0)
      if (options.all) return callback(null, addresses)
      return callback(null, first.address, first.family)
    })
  }
}

// Separate pools per policy: a socket opened under allowPrivateNetwork must never serve a request that forbids it.
const agents = {
  public: {
    http: new HttpAgent({ keepAlive: true, timeout: 5_000 }),
    https: new HttpsAgent({ keepAlive: true, timeout: 5_000 }),
  },
  private: {
    http: new HttpAgent({ keepAlive: true, timeout: 5_000 }),
    https: new HttpsAgent({ keepAlive: true, timeout: 5_000 }),
  },
}

// One request per host at a time: the tail of each host's queue.
const hostQueues = new Map<string, Promise<void>>()

async function withHostSlot<T>(host: string, task: () => Promise<T>): Promise<T> {
  const previous = hostQueues.get(host) ?? Promise.resolve()
  let release: () => void = () => {}
  const mine = new Promise<void>((resolve) => {
    release = resolve
  })
  const tail = previous.then(() => mine)
  hostQueues.set(host, tail)
  await previous
  try {
    return await task()
  } finally {
    release()
    if (hostQueues.get(host) === tail) hostQueues.delete(host)
  }
}

/** Parse an address a crawl may fetch: absolute http(s) only. */
export function parseHttpUrl(input: string | URL, base?: string | URL): URL {
  let url: URL
  try {
    url = new URL(input, base)
  } catch {
    throw new CrawlError(
      'invalid-url',
      `"${String(input)}" is not a web address: use a full URL such as https://example.com`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CrawlError('invalid-url', `${url.href} is not an http(s) address: crawls fetch only web pages`, {
      url: url.href,
    })
  }
  if (url.username || url.password) {
    throw new CrawlError('invalid-url', `${url.origin} carries a user name or password: remove them from the address`, {
      url: url.origin,
    })
  }
  url.hash = ''
  return url
}

type Hop =
  | { kind: 'redirect'; location: string; status: number }
  | { kind: 'response'; status: number; headers: IncomingMessage['headers']; body: Uint8Array }

interface HopLimits {
  allowPrivateNetwork: boolean
  timeoutMs: number
  maxBytes: number
  accept: string
  method: 'GET' | 'HEAD'
  userAgent: string
  headers: Readonly<Record<string, string>>
  signal: AbortSignal | undefined
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase()
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip())
  if (encoding === 'deflate') return response.pipe(createInflate())
  if (encoding === 'br') return response.pipe(createBrotliDecompress())
  return response
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
}

function translate(error: unknown, url: URL, limits: HopLimits, timeout: AbortSignal): CrawlError {
  if (error instanceof CrawlError) return error
  const href = url.href
  if (timeout.aborted) {
    return new CrawlError(
      'timeout',
      `${href} did not answer within ${limits.timeoutMs / 1000} s: the site may be down or very slow`,
      {
        url: href,
        cause: error,
      },
    )
  }
  if (limits.signal?.aborted)
    return new CrawlError('cancelled', `Fetching ${href} was cancelled`, { url: href, cause: error })
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? ''
  const message = error instanceof Error ? error.message : String(error)
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA') {
    return new CrawlError('dns-failed', `Could not find ${url.hostname}: check the website address for typos`, {
      url: href,
      cause: error,
    })
  }
  if (code === 'ECONNREFUSED') {
    return new CrawlError('connection-failed', `${url.host} refused the connection: the website may be down`, {
      url: href,
      cause: error,
    })
  }
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('ERR_SSL')) {
    return new CrawlError(
      'connection-failed',
      `${url.host} has an invalid HTTPS certificate (${code}): try its http:// address`,
      {
        url: href,
        cause: error,
      },
    )
  }
  return new CrawlError('connection-failed', `Could not fetch ${href}: ${message}${code ? ` (${code})` : ''}`, {
    url: href,
    cause: error,
  })
}

function fetchHop(url: URL, limits: HopLimits): Promise<Hop> {
  const literal = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(literal) && !isAllowedAddress(literal, limits.allowPrivateNetwork)) {
    return Promise.reject(refusal(literal, literal, url.href))
  }
  const timeout = AbortSignal.timeout(limits.timeoutMs)
  const signal = limits.signal ? AbortSignal.any([limits.signal, timeout]) : timeout
  const pool = limits.allowPrivateNetwork ? agents.private : agents.public
  const isHttps = url.protocol === 'https:'

  return new Promise<Hop>((resolve, reject) => {
    const fail = (error: unknown): void => {
      request.destroy()
      reject(translate(error, url, limits, timeout))
    }
    const request = (isHttps ? httpsRequest : httpRequest)(url, {
      method: limits.method,
      agent: isHttps ? pool.https : pool.http,
      lookup: guardedLookup(url.href, limits.allowPrivateNetwork),
      signal,
      headers: {
        ...limits.headers,
        'user-agent': limits.userAgent,
        accept: limits.accept,
        'accept-encoding': 'gzip, deflate, br',
        'accept-language': 'en-US,en;q=0.8',
      },
    })
    request.on('error', fail)
    request.on('response', (response) => {
      const status = response.statusCode ?? 0
      const location = response.headers.location
      if (REDIRECT_STATUSES.has(status) && location) {
        response.resume()
        resolve({ kind: 'redirect', location, status })
        return
      }
      if (limits.method === 'HEAD') {
        response.resume()
        resolve({ kind: 'response', status, headers: response.headers, body: new Uint8Array() })
        return
      }
      const declared = Number(response.headers['content-length'])
      // A compressed body only grows when decompressed, so a declared length over the limit is already too much.
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        fail(tooLarge(url, limits.maxBytes))
        return
      }
      const body = decoded(response)
      const chunks: Buffer[] = []
      let total = 0
      response.on('error', fail)
      body.on('error', fail)
      body.on('data', (chunk: Buffer) => {
        total += chunk.length
        if (total > limits.maxBytes) {
          body.destroy()
          fail(tooLarge(url, limits.maxBytes))
          return
        }
        chunks.push(chunk)
      })
      body.on('end', () => {
        resolve({ kind: 'response', status, headers: response.headers, body: new Uint8Array(Buffer.concat(chunks)) })
      })
    })
    request.end()
  })
}

function tooLarge(url: URL, maxBytes: number): CrawlError {
  return new CrawlError('too-large', `${url.href} is larger than ${megabytes(maxBytes)}: stopped reading it`, {
    url: url.href,
  })
}

function mediaType(headers: IncomingMessage['headers']): { contentType: string; charset: string | undefined } {
  const raw = String(headers['content-type'] ?? '')
  const [type = '', ...parameters] = raw.split(';')
  const charset = parameters
    .map((parameter) => parameter.trim().toLowerCase())
    .find((parameter) => parameter.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"|"$/g, '')
  return { contentType: type.trim().toLowerCase(), charset }
}

/**
 * Fetch a public web address with every crawl safeguard: DNS resolved and checked here (also after each redirect),
 * redirects followed by hand, body size and time bounded, one request per host at a time.
 */
export async function safeFetch(input: string | URL, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  const limits: HopLimits = {
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    timeoutMs: options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs,
    maxBytes: options.maxBytes ?? FETCH_DEFAULTS.maxBytes,
    accept: options.accept ?? '*/*',
    method: options.method ?? 'GET',
    userAgent: options.userAgent ?? USER_AGENT,
    headers: options.headers ?? {},
    signal: options.signal,
  }
  const maxRedirects = options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects
  let current = parseHttpUrl(input)
  const redirects: string[] = []
  const seen = new Set([current.href])

  for (;;) {
    const url = current
    const hop = await withHostSlot(url.host.toLowerCase(), () => fetchHop(url, limits))
    if (hop.kind === 'response') {
      return {
        url: url.href,
        status: hop.status,
        ...mediaType(hop.headers),
        headers: hop.headers,
        body: hop.body,
        redirects,
      }
    }
    let next: URL
    try {
      next = parseHttpUrl(hop.location, url)
    } catch (error) {
      throw new CrawlError(
        'invalid-url',
        `${url.href} redirects to an address a crawl cannot follow (${hop.location})`,
        {
          url: url.href,
          cause: error,
        },
      )
    }
    if (seen.has(next.href)) {
      const chain = [...seen, next.href].join(' → ')
      throw new CrawlError(
        'too-many-redirects',
        `${input.toString()} redirects in a loop (${chain}): fix the site's redirects`,
        {
          url: url.href,
        },
      )
    }
    if (redirects.length >= maxRedirects) {
      throw new CrawlError(
        'too-many-redirects',
        `${input.toString()} redirects more than ${maxRedirects} times: use the address it finally lands on`,
        { url: url.href },
      )
    }
    redirects.push(next.href)
    seen.add(next.href)
    current = next
  }
}

/** Decode a fetched page as text: the header's charset, else a meta charset in the first bytes, else UTF-8. */
export function decodeText(response: Pick<SafeResponse, 'body' | 'charset'>): string {
  const head = new TextDecoder('latin1').decode(response.body.subarray(0, 2048))
  const declared = response.charset ?? /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase()
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(response.body)
  } catch {
    // An unknown label ("utf8mb4", typos) is more likely UTF-8 than anything else.
    return new TextDecoder('utf-8').decode(response.body)
  }
}
