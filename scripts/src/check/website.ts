import { CrawlError } from '../crawl/crawl-error.ts'
import { decodeText, parseHttpUrl, safeFetch, type SafeFetchOptions, type SafeResponse } from '../crawl/safe-fetch.ts'
import { movedAway, parkedEvidence, type Finding } from './rules.ts'

// One website, checked politely through the crawler's SSRF-safe fetch: HEAD first, which settles
// a dead site, an error, a redirect and a page that is not HTML without reading a body; then GET
// when HEAD is refused (some servers answer HEAD with 405 or 501, or with an error GET does not
// give), or when the answer is an HTML page, whose first bytes tell a parked domain.

/** The bounds of one website check. */
export interface WebsiteCheckOptions {
  /** Let the check reach loopback and private addresses (fixture sites, tests); cloud metadata stays refused. */
  allowPrivateNetwork?: boolean
  /** Time allowed for each request hop (default 10 s); the whole check of a site gets three times that. */
  timeoutMs?: number
  /** The most of a page read to tell a parked domain (default 256 KB); a longer page is judged by its status. */
  maxBytes?: number
  userAgent?: string
  signal?: AbortSignal
}

/** Default bounds of a website check. */
export const WEBSITE_CHECK_DEFAULTS = { timeoutMs: 10_000, maxBytes: 256 * 1024, maxRedirects: 5 } as const

// What a fetch failure means for the listing: the site cannot be reached, or it answers wrongly.
const UNREACHABLE = new Set(['timeout', 'dns-failed', 'connection-failed', 'blocked-address'])

function failure(website: string, error: unknown, deadline: AbortSignal, totalMs: number): Finding {
  if (error instanceof CrawlError && UNREACHABLE.has(error.code)) {
    return { kind: 'website-unreachable', detail: error.message }
  }
  if (deadline.aborted) {
    return {
      kind: 'website-unreachable',
      detail: `${website} did not finish answering within ${totalMs / 1000} s: the site may be down or very slow`,
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { kind: 'website-error', detail: message }
}

const isHtml = (response: SafeResponse) =>
  response.contentType === '' || response.contentType === 'text/html' || response.contentType.endsWith('+xml')

/** Check one website; the finding it earns (at most one), or null for a healthy site. */
export async function checkWebsite(website: string, options: WebsiteCheckOptions = {}): Promise<Finding | null> {
  const timeoutMs = options.timeoutMs ?? WEBSITE_CHECK_DEFAULTS.timeoutMs
  const totalMs = timeoutMs * 3
  let url: URL
  try {
    url = parseHttpUrl(website.trim())
  } catch (error) {
    return { kind: 'website-error', detail: (error as Error).message }
  }
  const deadline = AbortSignal.timeout(totalMs)
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline
  const common: SafeFetchOptions = {
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    timeoutMs,
    maxRedirects: WEBSITE_CHECK_DEFAULTS.maxRedirects,
    userAgent: options.userAgent,
    accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
    signal,
  }
  const cancelled = () => options.signal?.aborted === true

  let response: SafeResponse
  try {
    response = await safeFetch(url, { ...common, method: 'HEAD' })
  } catch (error) {
    if (cancelled()) throw error
    return failure(url.href, error, deadline, totalMs)
  }
  let body: string | null = null
  const headRefused = response.status >= 400
  if (headRefused || (response.status < 300 && isHtml(response))) {
    try {
      const page = await safeFetch(url, {
        ...common,
        method: 'GET',
        maxBytes: options.maxBytes ?? WEBSITE_CHECK_DEFAULTS.maxBytes,
      })
      response = page
      if (page.status < 300 && isHtml(page)) body = decodeText(page)
    } catch (error) {
      if (cancelled()) throw error
      // A page longer than we read is a live site, not a parking page: judge it by HEAD's answer.
      if (!(error instanceof CrawlError && error.code === 'too-large'))
        return failure(url.href, error, deadline, totalMs)
    }
  }

  if (response.status >= 400) {
    const where = response.url === url.href ? '' : ` (at ${response.url})`
    return { kind: 'website-error', detail: `${url.href} answers HTTP ${response.status}${where}` }
  }
  const parked = parkedEvidence(response.url, body ?? '')
  if (parked) return { kind: 'website-parked', detail: `${url.href} looks like a parked or for-sale domain: ${parked}` }
  if (movedAway(url.href, response.url)) {
    return { kind: 'website-moved', detail: `${url.href} redirects to another domain: ${response.url}` }
  }
  return null
}
