import type { IncomingMessage, ServerResponse } from 'node:http'
import { submissionKinds, submissionMaxBytes, submissionSchemasFor } from '@roland/scripts/content/schema'
import { pendingSubmissionCount, submissionEntry, submitSuggestion } from '@roland/scripts/content/submissions'
import { SqlError } from '@roland/scripts/store/types'
import { findTown, readTown } from '@roland/scripts/content/town'
import type { ConsoleServices } from './context.ts'
import { HttpError, readBody, securityHeaders } from './http.ts'
import { isHttps } from './origin.ts'
import { noticeOf, webhookBody } from './submission-webhook.ts'

// POST /api/public/submissions (issue 27): the one route a visitor's browser calls, from the site's
// forms on the embedded store (on Supabase they call the submit_suggestion rpc instead). It answers
// as that rpc does, {"message"} on an error, so a form reads both alike: 201 {"id"}, 400, 429.
// Unlike the rest of the API it takes cross-site requests, from the site's origins only (CORS), and
// never reads or sets a cookie. The checks are the shared zod schema's, then the SQL function's
// (sizes, target, rate limit); with TURNSTILE_SECRET_KEY set, a Turnstile token must pass first.

/** The path of the public route. */
export const publicSubmissionsPath = '/api/public/submissions'

/** Answers a visitor's browser: JSON, with CORS for an allowed origin, never cached. */
function reply(res: ServerResponse, status: number, body: unknown, cors: Record<string, string>): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...securityHeaders,
    // The site's pages read the answer: a cross-origin resource.
    'cross-origin-resource-policy': 'cross-origin',
    ...cors,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(text)),
  })
  res.end(text)
}

/** The sender's address: the socket's, or behind the HTTPS proxy the one it appended to X-Forwarded-For. */
export function clientIp(req: IncomingMessage, services: ConsoleServices): string {
  if (isHttps(req.headers, services.origins)) {
    const forwarded = String(req.headers['x-forwarded-for'] ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
    if (forwarded.length) return forwarded[forwarded.length - 1]!
  }
  return req.socket.remoteAddress ?? 'unknown'
}

/** Asks Turnstile's siteverify whether the visitor's token is good. */
async function verifyTurnstile(services: ConsoleServices, token: string, ip: string): Promise<void> {
  const { turnstileSecret, turnstileVerifyUrl } = services.config.submissions
  if (!turnstileSecret) return
  if (!token) {
    throw new HttpError(400, 'The anti-spam check is missing: wait for it to finish on the form, then send again.')
  }
  let verdict: { success?: unknown }
  try {
    const response = await fetch(turnstileVerifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: turnstileSecret, response: token, remoteip: ip }),
      signal: AbortSignal.timeout(10_000),
    })
    verdict = (await response.json()) as { success?: unknown }
  } catch {
    throw new HttpError(503, 'The anti-spam check could not be reached: please try again in a minute.')
  }
  if (verdict.success !== true) {
    throw new HttpError(400, 'The anti-spam check failed: reload the page and send again.')
  }
}

/** Handles a request to the public route: the preflight, or a submission. */
export async function handlePublicSubmission(
  req: IncomingMessage,
  res: ServerResponse,
  services: ConsoleServices,
): Promise<void> {
  const origin = req.headers.origin
  const allowed = services.config.submissions.allowedOrigins
  const cors: Record<string, string> = { vary: 'Origin' }
  if (origin !== undefined) {
    if (!allowed.includes(origin)) {
      reply(
        res,
        403,
        { message: `Suggestions are taken from the site only (${allowed.join(', ')}), not from ${origin}.` },
        cors,
      )
      return
    }
    cors['access-control-allow-origin'] = origin
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      ...securityHeaders,
      ...cors,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'content-type, x-turnstile-token',
      'access-control-max-age': '600',
    })
    res.end()
    return
  }
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST, OPTIONS')
    reply(res, 405, { message: `Send a suggestion with POST ${publicSubmissionsPath}.` }, cors)
    return
  }
  try {
    const id = await submit(req, services)
    reply(res, 201, { id }, cors)
    void announce(services, id)
  } catch (error) {
    if (error instanceof HttpError) {
      reply(res, error.status, { message: error.message, ...(error.issues ? { issues: error.issues } : {}) }, cors)
    } else if (error instanceof SqlError && error.httpStatus) {
      reply(res, error.httpStatus, { message: error.message }, cors)
    } else {
      // The visitor gets a plain answer; the operator the reason, on the console's standard error.
      reply(res, 500, { message: 'Your suggestion could not be saved: please try again later.' }, cors)
      process.emitWarning(`A suggestion could not be saved: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

async function submit(req: IncomingMessage, services: ConsoleServices): Promise<string> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    throw new HttpError(415, 'Send the suggestion as JSON (Content-Type: application/json).')
  }
  const raw = await readBody(req, 2 * submissionMaxBytes).catch((error: unknown) => {
    if (error instanceof HttpError && error.status === 413) {
      throw new HttpError(400, `The submission is too large: at most ${submissionMaxBytes / 1024} KB of text in all.`)
    }
    throw error
  })
  let body: unknown
  try {
    body = JSON.parse(raw.toString('utf8'))
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON: send {"kind", "payload", "contact"}.')
  }
  // A phone follows the town's country (town_settings.country; US until the town is set up).
  const country = (await findTown(services.store))?.country ?? 'US'
  const parsed = submissionSchemasFor(country).submission.safeParse(body)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
    const kind = (body as { kind?: unknown } | null)?.kind
    const unknownKind = !submissionKinds.includes(kind as never)
    throw new HttpError(
      400,
      unknownKind
        ? `Unknown kind ${JSON.stringify(kind ?? null)}: a submission is a ${submissionKinds.join(', a ')}.`
        : (issues[0]?.message ?? 'The suggestion is not valid'),
      { issues },
    )
  }
  const ip = clientIp(req, services)
  await verifyTurnstile(services, String(req.headers['x-turnstile-token'] ?? ''), ip)
  return submitSuggestion(services.store, parsed.data, ip)
}

// After the answer: the Inbox's count for open consoles, and the webhook if one is set. On
// Supabase the watch announces every new submission, this route's and the rpc's alike.
async function announce(services: ConsoleServices, id: string): Promise<void> {
  try {
    services.hub.send('submissions', { pending: await pendingSubmissionCount(services.store) })
    const webhook = services.submissionWebhook
    if (!webhook || services.store.kind === 'supabase') return
    const entry = await submissionEntry(services.store, id)
    if (entry) webhook.send(webhookBody(noticeOf(entry), inboxUrl(services), (await readTown(services.store)).name))
  } catch (error) {
    process.emitWarning(`Could not announce submission ${id}: ${(error as Error).message}`)
  }
}

/** Where operators find the Inbox: the console's public address, else its address on 127.0.0.1. */
export function inboxUrl(services: ConsoleServices): string {
  return `${services.config.publicUrl?.origin ?? services.consoleUrl}/inbox`
}
