import type { IncomingMessage, ServerResponse } from 'node:http'
import type { z } from 'zod'
import type { ApiErrorBody } from '../shared/api.ts'

/** An error with the HTTP status to answer it with; its message is shown to the operator. */
export class HttpError extends Error {
  override name = 'HttpError'
  readonly status: number
  readonly issues: ApiErrorBody['issues']
  readonly headers: Record<string, string>
  /** More of the answer, beside the error (a 409 carries the row as it is now). */
  readonly body: Record<string, unknown>

  constructor(
    status: number,
    message: string,
    details: {
      issues?: ApiErrorBody['issues']
      headers?: Record<string, string>
      body?: Record<string, unknown>
    } = {},
  ) {
    super(message)
    this.status = status
    this.issues = details.issues
    this.headers = details.headers ?? {}
    this.body = details.body ?? {}
  }
}

/** Headers every response carries: no caching of API answers, no sniffing, no framing. */
export const securityHeaders: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
}

/** Sends a JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...securityHeaders,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  })
  res.end(text)
}

/** Sends an error as `{ error, issues? }`, hiding the details of errors nobody planned for. */
export function sendError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  if (error instanceof HttpError) {
    const body: ApiErrorBody = {
      ...error.body,
      error: error.message,
      ...(error.issues ? { issues: error.issues } : {}),
    }
    sendJson(res, error.status, body, error.headers)
    return
  }
  const message = error instanceof Error ? error.message : String(error)
  sendJson(res, 500, { error: message || 'Unknown error occurred' } satisfies ApiErrorBody)
}

/** Reads a request body up to a limit, refusing larger ones with 413. */
export async function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limitBytes) {
    throw new HttpError(413, `The request is over the ${formatBytes(limitBytes)} limit: send a smaller file.`)
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > limitBytes) {
      throw new HttpError(413, `The request is over the ${formatBytes(limitBytes)} limit: send a smaller file.`)
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** Reads a JSON body and validates it with a zod schema; answers 400 with the issues when it does not fit. */
export async function readJson<S extends z.ZodType>(
  req: IncomingMessage,
  schema: S,
  limitBytes = 64 * 1024,
): Promise<z.output<S>> {
  const type = req.headers['content-type'] ?? ''
  if (!/^application\/json\b/i.test(type)) {
    throw new HttpError(415, 'Send the request body as JSON (Content-Type: application/json).')
  }
  const raw = await readBody(req, limitBytes)
  let data: unknown
  try {
    data = raw.length ? JSON.parse(raw.toString('utf8')) : {}
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.')
  }
  const parsed = schema.safeParse(data)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
    throw new HttpError(400, issues[0]?.message ?? 'Invalid input', { issues })
  }
  return parsed.data
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`
}
