/** What went wrong, as a word the CLI and the console can branch on. */
export type CrawlErrorCode =
  | 'invalid-input'
  | 'invalid-url'
  | 'blocked-address'
  | 'dns-failed'
  | 'connection-failed'
  | 'timeout'
  | 'cancelled'
  | 'too-many-redirects'
  | 'too-large'
  | 'http-status'
  | 'not-html'
  | 'not-an-image'
  | 'missing-api-key'
  | 'firecrawl-failed'
  | 'firecrawl-unreachable'
  | 'firecrawl-bad-response'
  | 'storage-failed'
  | 'unexpected'

/** Describe a failed crawl or download: a code to branch on, a message saying what and how to fix. */
export class CrawlError extends Error {
  readonly code: CrawlErrorCode
  /** The address being fetched when it failed, when there was one. */
  readonly url: string | undefined
  /** The HTTP status that caused it, when there was one. */
  readonly status: number | undefined

  constructor(
    code: CrawlErrorCode,
    message: string,
    details: { url?: string | undefined; status?: number | undefined; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = 'CrawlError'
    this.code = code
    this.url = details.url
    this.status = details.status
  }
}

/** Prefix an error's message with what the caller was doing, keeping its code. */
export function withContext(error: unknown, context: string): CrawlError {
  if (error instanceof CrawlError) {
    return new CrawlError(error.code, `${context}: ${error.message}`, {
      url: error.url,
      status: error.status,
      cause: error,
    })
  }
  const reason = error instanceof Error ? error.message : String(error)
  return new CrawlError('unexpected', `${context}: ${reason}`, { cause: error })
}
