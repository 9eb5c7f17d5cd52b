import type { IncomingMessage, ServerResponse } from 'node:http'
import { mailOffReason } from '@roland/scripts/notify/config'
import { confirmSubscription, notifyTopics, subscribe, unsubscribe } from '@roland/scripts/notify/outbox'
import { SqlError } from '@roland/scripts/store/types'
import { z } from 'zod'
import type { ConsoleServices } from './context.ts'
import { HttpError, readBody, securityHeaders } from './http.ts'
import { clientIp } from './public-submissions.ts'

// "Notify me"'s public routes (issue 48), the ones a visitor's browser and mail client call:
// - POST /api/public/subscriptions {"email", "topics"}: 202, the same for every address;
// - POST /api/public/subscriptions/confirm {"token"}: from the site's /notify/confirm button;
// - GET|POST /api/public/unsubscribe?token=…: RFC 8058's one-click (a POST whose body is
//   List-Unsubscribe=One-Click unsubscribes at once), the site's /notify/unsubscribe form (a
//   choice of topics), and a GET that only leads to that page (a link scanner changes nothing).
// CORS as for suggestions (the site's origins only, no cookies). A form posted without JavaScript
// (application/x-www-form-urlencoded) gets a small HTML page instead of JSON.

/** The paths of the public routes. */
export const publicNotifyPaths = {
  subscriptions: '/api/public/subscriptions',
  confirm: '/api/public/subscriptions/confirm',
  unsubscribe: '/api/public/unsubscribe',
} as const

const isPublicNotifyPath = (pathname: string) => Object.values(publicNotifyPaths).includes(pathname as never)

/** Whether a path is one of these routes. */
export { isPublicNotifyPath }

const topicsSchema = z.array(z.enum(notifyTopics)).min(1, 'Choose at least one topic: alerts or events.')
const subscriptionSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Enter your email address.')
    .max(254, 'The email address is too long: at most 254 characters.'),
  topics: topicsSchema,
})
const tokenSchema = z.object({ token: z.string().min(1, 'The link has no token: open the link in your email again.') })

interface Answer {
  status: number
  body: Record<string, unknown>
  /** The words of the HTML page a form without JavaScript gets. */
  page: string
}

/** Reads a JSON or form body: its fields (a form's repeated `topics` as a list). */
async function readFields(req: IncomingMessage): Promise<{ form: boolean; fields: Record<string, unknown> }> {
  const type = req.headers['content-type'] ?? ''
  const raw = (await readBody(req, 16 * 1024)).toString('utf8')
  if (/^application\/json\b/i.test(type)) {
    try {
      const body = JSON.parse(raw) as unknown
      if (body && typeof body === 'object' && !Array.isArray(body))
        return { form: false, fields: body as Record<string, unknown> }
    } catch {
      // answered below
    }
    throw new HttpError(400, 'The request body is not a JSON object.')
  }
  if (/^application\/x-www-form-urlencoded\b/i.test(type) || raw.includes('=')) {
    const params = new URLSearchParams(raw)
    const fields: Record<string, unknown> = {}
    for (const key of new Set(params.keys())) fields[key] = key === 'topics' ? params.getAll(key) : params.get(key)
    return { form: true, fields }
  }
  throw new HttpError(415, 'Send JSON (Content-Type: application/json) or a form.')
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? 'The request is not valid.')
  return parsed.data
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function sendAnswer(
  res: ServerResponse,
  answer: Answer,
  form: boolean,
  cors: Record<string, string>,
  siteUrl: string | null,
): void {
  const common = {
    ...securityHeaders,
    'cross-origin-resource-policy': 'cross-origin',
    ...cors,
    'cache-control': 'no-store',
  }
  if (form) {
    const back = siteUrl ? `<p><a href="${escapeHtml(siteUrl)}/">Back to the website</a></p>` : ''
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(answer.page)}</title></head><body><main><p role="status">${escapeHtml(answer.page)}</p>${back}</main></body></html>`
    res.writeHead(answer.status, {
      ...common,
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(html)),
    })
    res.end(html)
    return
  }
  const text = JSON.stringify(answer.body)
  res.writeHead(answer.status, {
    ...common,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  })
  res.end(text)
}

const accepted: Answer = {
  status: 202,
  body: { message: 'Check your email: we sent a link to confirm, unless we sent one in the last day.' },
  page: 'Check your email: we sent a link to confirm, unless we sent one in the last day.',
}

async function handleSubscribe(
  req: IncomingMessage,
  services: ConsoleServices,
  fields: Record<string, unknown>,
): Promise<Answer> {
  if (!services.config.mail)
    throw new HttpError(
      503,
      `${mailOffReason.replace(/:.*$/, '')}: this site sends no email yet. Follow the alerts feed (/alerts.xml) instead.`,
    )
  const topics = typeof fields.topics === 'string' ? [fields.topics] : fields.topics
  const input = parse(subscriptionSchema, { ...fields, topics })
  await subscribe(services.store, input.email, input.topics, clientIp(req, services))
  services.notify.kick()
  return accepted
}

async function handleConfirm(services: ConsoleServices, fields: Record<string, unknown>): Promise<Answer> {
  const { token } = parse(tokenSchema, fields)
  const outcome = await confirmSubscription(services.store, token)
  if (outcome.status === 'unknown') {
    const words = 'This confirmation link is not valid any more: subscribe again on the website to get a new one.'
    return { status: 404, body: { status: 'unknown', message: words }, page: words }
  }
  const words = `Confirmed: you will get ${outcome.topics.map((t) => (t === 'alerts' ? 'town alerts' : 'the weekly events digest')).join(' and ')} by email.`
  return { status: 200, body: { status: 'confirmed', topics: outcome.topics, message: words }, page: words }
}

async function handleUnsubscribe(
  url: URL,
  fields: Record<string, unknown>,
  services: ConsoleServices,
): Promise<Answer> {
  const token = url.searchParams.get('token') ?? (typeof fields.token === 'string' ? fields.token : '')
  parse(tokenSchema, { token })
  // One-click (RFC 8058) and a form with no topics chosen: everything.
  const oneClick = fields['List-Unsubscribe'] === 'One-Click'
  const rawTopics =
    fields.topics === undefined || oneClick ? null : typeof fields.topics === 'string' ? [fields.topics] : fields.topics
  const topics =
    rawTopics === null || (Array.isArray(rawTopics) && rawTopics.length === 0) ? null : parse(topicsSchema, rawTopics)
  const outcome = await unsubscribe(services.store, token, topics)
  if (outcome.status === 'unknown') {
    const words = 'This unsubscribe link is not one we sent, or it was cut short: open it from the email again.'
    return { status: 404, body: { status: 'unknown', message: words }, page: words }
  }
  const words = outcome.topics.length
    ? `Done: you still get ${outcome.topics.map((t) => (t === 'alerts' ? 'town alerts' : 'the weekly events digest')).join(' and ')}.`
    : 'You are unsubscribed: we will send you nothing more, and your address is deleted.'
  return { status: 200, body: { status: 'unsubscribed', topics: outcome.topics, message: words }, page: words }
}

/** Handles a request to one of the public "Notify me" routes. */
export async function handlePublicNotify(
  req: IncomingMessage,
  res: ServerResponse,
  services: ConsoleServices,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const origin = req.headers.origin
  const allowed = services.config.submissions.allowedOrigins
  const cors: Record<string, string> = { vary: 'Origin' }
  const siteUrl = services.config.mail?.siteUrl ?? null
  const oneClickOrigin = url.pathname === publicNotifyPaths.unsubscribe
  if (origin !== undefined && origin !== 'null') {
    if (allowed.includes(origin)) cors['access-control-allow-origin'] = origin
    else if (!oneClickOrigin) {
      sendAnswer(
        res,
        {
          status: 403,
          body: { message: `Subscriptions are taken from the site only (${allowed.join(', ')}), not from ${origin}.` },
          page: 'Subscriptions are taken from the site only.',
        },
        false,
        cors,
        siteUrl,
      )
      return
    }
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      ...securityHeaders,
      ...cors,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': '600',
    })
    res.end()
    return
  }
  if (req.method === 'GET' && url.pathname === publicNotifyPaths.unsubscribe) {
    // A GET never unsubscribes (mail scanners follow links): it leads to the site's page, which asks.
    const token = url.searchParams.get('token') ?? ''
    const target = siteUrl ? `${siteUrl}/notify/unsubscribe?token=${encodeURIComponent(token)}` : null
    if (target) {
      res.writeHead(303, { ...securityHeaders, location: target, 'cache-control': 'no-store' })
      res.end()
    } else {
      sendAnswer(
        res,
        { status: 200, body: {}, page: 'To unsubscribe, press the button on the unsubscribe page of the website.' },
        true,
        cors,
        null,
      )
    }
    return
  }
  let form = false
  try {
    if (req.method !== 'POST') {
      res.setHeader('allow', url.pathname === publicNotifyPaths.unsubscribe ? 'GET, POST, OPTIONS' : 'POST, OPTIONS')
      throw new HttpError(405, `Use POST ${url.pathname}.`)
    }
    const body = await readFields(req)
    form = body.form
    const answer =
      url.pathname === publicNotifyPaths.subscriptions
        ? await handleSubscribe(req, services, body.fields)
        : url.pathname === publicNotifyPaths.confirm
          ? await handleConfirm(services, body.fields)
          : await handleUnsubscribe(url, body.fields, services)
    sendAnswer(res, answer, form, cors, siteUrl)
  } catch (error) {
    const status =
      error instanceof HttpError ? error.status : error instanceof SqlError && error.httpStatus ? error.httpStatus : 500
    const message =
      error instanceof HttpError || (error instanceof SqlError && error.httpStatus)
        ? (error as Error).message
        : 'That did not work: please try again later.'
    if (status === 500) process.emitWarning(`A "Notify me" request failed: ${(error as Error).message}`)
    sendAnswer(res, { status, body: { message }, page: message }, form, cors, siteUrl)
  }
}
