import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { embeddedDb } from '@roland/scripts/operators/accounts'
import type { EmbeddedStore } from '@roland/scripts/store/embedded'
import { freshStore } from '../../scripts/test/support/fresh-store.ts'
import {
  publicSqlFunctions,
  startSupabaseStandIn,
  type SupabaseStandIn,
} from '../../scripts/test/support/supabase-stand-in.ts'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { ConsoleServer } from '../src/server/server.ts'
import { publicSubmissionsPath } from '../src/server/public-submissions.ts'
import { addTestOperator, call, signIn, startTestConsole, tempDataDir, waitFor } from './support/console.ts'

// Visitors' suggestions through the console (issue 27), over real HTTP on 127.0.0.1 with the real
// embedded Postgres (the sample Roland.txt): the public route a site form posts to, with its CORS
// and its refusals, and the Inbox's API that decides them. Every request comes from 127.0.0.1, one
// sender: the tests that need more than the rate limit allows move earlier submissions out of the
// last hour first (outOfTheHour), as time would.

const site = 'http://127.0.0.1:4321'

let data: Awaited<ReturnType<typeof tempDataDir>>
let server: ConsoleServer
let business: { id: string; slug: string; name: string; phone: string | null; updated_at: string }

beforeAll(async () => {
  data = await tempDataDir()
  server = await startTestConsole({ dataDir: data.dir })
  const { json } = await call(server, '/api/businesses')
  business = json.businesses.find((row: { is_active: boolean; phone: string | null }) => row.is_active && row.phone)
})

afterAll(async () => {
  await server?.close()
  await data?.remove()
})

beforeEach(() => outOfTheHour())

/** Moves every submission so far out of the rate limit's hour, as if it had been sent earlier. */
function outOfTheHour(): Promise<unknown> {
  return server.services.store.use((store) =>
    embeddedDb(store).exec(`update public.submissions set created_at = created_at - interval '2 hours'`),
  )
}

function countSubmissions(): Promise<number> {
  return server.services.store.use(async (store) => {
    const { rows } = await embeddedDb(store).query<{ n: number }>('select count(*)::int as n from public.submissions')
    return rows[0]!.n
  })
}

/** Posts to the public route as the site's form does: JSON, from the site's origin, no credentials. */
function submit(body: unknown, headers: Record<string, string> = {}) {
  return call(server, publicSubmissionsPath, {
    method: 'POST',
    auth: 'none',
    body,
    headers: { origin: site, ...headers },
  })
}

const phoneChange = () => ({
  kind: 'business-update',
  payload: { business: business.slug, phone: '(501) 555-0177', note: 'New number since May' },
  contact: { name: 'Ann Resident', email: 'ann@example.org' },
})

const bakeSale = {
  kind: 'event',
  payload: {
    title: 'Church bake sale',
    starts_at: '2027-05-01T09:00:00-05:00',
    ends_at: '2027-05-01T13:00:00-05:00',
    location: 'Roland Baptist Church',
    event_type: 'Community',
    description: 'Pies, cakes and cookies.',
  },
}

describe('POST /api/public/submissions', () => {
  test('stores a suggestion and answers 201 with its id, allowing the site’s origin and no cookies', async () => {
    const before = await countSubmissions()
    const answer = await submit(phoneChange())
    expect(answer.status).toBe(201)
    expect(answer.json).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) })
    expect(answer.headers.get('access-control-allow-origin')).toBe(site)
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull()
    expect(answer.headers.get('set-cookie')).toBeNull()
    expect(await countSubmissions()).toBe(before + 1)
  })

  test('answers the browser’s preflight for the site’s origin', async () => {
    const response = await fetch(`${server.url}${publicSubmissionsPath}`, {
      method: 'OPTIONS',
      headers: {
        origin: site,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-turnstile-token',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe(site)
    expect(response.headers.get('access-control-allow-methods')).toBe('POST')
    expect(response.headers.get('access-control-allow-headers')).toContain('x-turnstile-token')
  })

  test('refuses another origin with 403 and stores nothing', async () => {
    const before = await countSubmissions()
    const answer = await submit(phoneChange(), { origin: 'https://evil.example' })
    expect(answer.status).toBe(403)
    expect(answer.json.message).toMatch(/taken from the site only/)
    expect(answer.headers.get('access-control-allow-origin')).toBeNull()
    expect(await countSubmissions()).toBe(before)
  })

  test('keeps the rest of the API closed to the site’s origin', async () => {
    const answer = await call(server, '/api/businesses', { headers: { origin: site } })
    expect(answer.status).toBe(403)
  })

  const badInputs: Array<[string, unknown, RegExp]> = [
    ['an unknown kind', { kind: 'complaint', payload: { text: 'hi' } }, /Unknown kind "complaint"/],
    [
      'an unknown business',
      { kind: 'business-update', payload: { business: 'no-such-shop', phone: '(501) 555-0100' } },
      /No listed business has the address 'no-such-shop'/,
    ],
    [
      'a new business without its name',
      { kind: 'new-business', payload: { category: 'Shopping', phone: '(501) 555-0100' } },
      /^Name is required/,
    ],
    [
      'a website that is not http(s)',
      { kind: 'new-business', payload: { name: 'Sneaky', website: 'javascript:alert(1)' } },
      /Website must be an http:\/\/ or https:\/\/ address/,
    ],
    [
      'a malformed phone number',
      { kind: 'new-business', payload: { name: 'Wrong Number', phone: '555-12' } },
      /Phone must be a US phone number/,
    ],
    [
      'an oversized field',
      { kind: 'new-business', payload: { name: 'Long', full_description: 'x'.repeat(2001) } },
      /at most 2000 characters/,
    ],
    [
      'an oversized payload',
      {
        kind: 'new-business',
        payload: {
          name: 'Big',
          full_description: 'x'.repeat(1990),
          short_description: 'x'.repeat(290),
          address: 'x'.repeat(290),
          services: Array.from({ length: 40 }, (_, n) => ({ service_name: `Service ${n} ${'y'.repeat(150)}` })),
        },
      },
      /too large: at most 8 KB/,
    ],
    [
      'a NUL in a field (it answered 500 before issue 43)',
      { ...bakeSale, payload: { ...bakeSale.payload, location: 'Roland\u0000 Church' } },
      /^Location contains an invisible control character \(U\+0000\)/,
    ],
    [
      'another control character in a description',
      { ...bakeSale, payload: { ...bakeSale.payload, description: 'Pies\u0008 and cakes' } },
      /^Description contains an invisible control character \(U\+0008\)/,
    ],
    [
      'a control character in the sender’s name',
      { ...bakeSale, contact: { name: 'Ann\u001F' } },
      /^Your name contains an invisible control character \(U\+001F\)/,
    ],
    [
      'a bidirectional override in a business name',
      { kind: 'new-business', payload: { name: '\u202Eknab ruoy' } },
      /^Name contains a bidirectional control character \(U\+202E\)/,
    ],
    ['a body that is not JSON', '{"kind": ', /not valid JSON/],
    [
      'a body over 16 KB',
      { kind: 'new-business', payload: { name: 'Huge', full_description: 'x'.repeat(20_000) } },
      /too large: at most 8 KB/,
    ],
  ]
  test.each(badInputs)('refuses %s with 400 and a clear message, storing nothing', async (_, body, message) => {
    const before = await countSubmissions()
    const answer = await submit(body)
    expect(answer.status, answer.text).toBe(400)
    expect(answer.json.message).toMatch(message)
    expect(await countSubmissions()).toBe(before)
  })

  test('names the field of a bad character in the answer’s issues', async () => {
    const answer = await submit({ ...bakeSale, payload: { ...bakeSale.payload, title: 'Bake\u0000 sale' } })
    expect(answer.status).toBe(400)
    expect(answer.json.issues).toEqual([{ path: 'payload.title', message: expect.stringMatching(/^Title contains/) }])
  })

  test('takes a textarea’s CRLF as a line break', async () => {
    const description = 'Pies and cakes.\r\nCookies too.'
    const answer = await submit({ ...bakeSale, payload: { ...bakeSale.payload, description } })
    expect(answer.status, answer.text).toBe(201)
    const { json } = await call(server, '/api/submissions?status=pending')
    const stored = json.submissions.find((entry: { id: string }) => entry.id === answer.json.id)
    expect(stored.payload.description).toBe('Pies and cakes.\nCookies too.')
  })

  test('refuses a change to an inactive business', async () => {
    await server.services.store.use((store) =>
      embeddedDb(store).exec(
        `insert into public.businesses (slug, name, is_active) values ('gone-shop', 'Gone', false)`,
      ),
    )
    const answer = await submit({ kind: 'business-update', payload: { business: 'gone-shop', hours: 'Mon 9am-5pm' } })
    expect(answer.status).toBe(400)
    expect(answer.json.message).toMatch(/No listed business has the address 'gone-shop'/)
  })

  // A thousand requests take seconds alone and much longer beside other suites: a generous limit, never asserted.
  test(
    'a flood of 1,000 posts from one sender: those past the limit get 429, and no more than the limit are stored',
    { timeout: 600_000 },
    async () => {
      const before = await countSubmissions()
      const answers = []
      for (let batch = 0; batch < 1000; batch += 50) {
        answers.push(...(await Promise.all(Array.from({ length: 50 }, () => submit(bakeSale)))))
      }
      const created = answers.filter((answer) => answer.status === 201)
      const limited = answers.filter((answer) => answer.status === 429)
      expect(created).toHaveLength(5)
      expect(limited).toHaveLength(995)
      expect(limited[0]!.json.message).toMatch(/5 suggestions in the last hour.*try again in an hour/)
      expect(await countSubmissions()).toBe(before + 5)
    },
  )

  test('stores a script in a field as the text it is', async () => {
    const script = '<script>alert("x")</script><b>Bold</b>'
    const answer = await submit({ kind: 'new-business', payload: { name: `Sneaky ${script}` } })
    expect(answer.status).toBe(201)
    const { json } = await call(server, '/api/submissions?status=pending')
    const stored = json.submissions.find((entry: { id: string }) => entry.id === answer.json.id)
    expect(stored.payload.name).toBe(`Sneaky ${script}`)
  })

  test('never stores the sender’s address: only a salted hash', async () => {
    const answer = await submit(bakeSale)
    const row = await server.services.store.use(async (store) => {
      const { rows } = await embeddedDb(store).query<Record<string, unknown>>(
        'select * from public.submissions where id = $1',
        [answer.json.id],
      )
      return rows[0]!
    })
    expect(row.sender_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(row)).not.toContain('127.0.0.1')
  })
})

describe('the Inbox API', () => {
  test('lists pending submissions newest first with what they would change, to operators only', async () => {
    const change = await submit(phoneChange())
    const event = await submit(bakeSale)
    const { status, json } = await call(server, '/api/submissions?status=pending')
    expect(status).toBe(200)
    const ids = json.submissions.map((entry: { id: string }) => entry.id)
    expect(ids.indexOf(event.json.id)).toBeLessThan(ids.indexOf(change.json.id))
    const entry = json.submissions.find((candidate: { id: string }) => candidate.id === change.json.id)
    expect(entry).toMatchObject({
      kind: 'business-update',
      status: 'pending',
      payload: { business: business.slug, phone: '(501) 555-0177' },
      target: { id: business.id, phone: business.phone },
      created_at: expect.any(String),
    })
    expect(json.pending).toBe(json.submissions.length)
    expect((await call(server, '/api/submissions', { auth: 'none' })).status).toBe(401)
  })

  test('accepting a suggested edit changes the listing, queues the rebuild, and the audit names the operator and the submission', async () => {
    await addTestOperator(server, 'coordinator@roland.example', 'editor')
    const cookie = await signIn(server, 'coordinator@roland.example')
    const { json: sent } = await submit(phoneChange())
    const current = (await call(server, `/api/businesses/${business.id}`)).json.business
    const answer = await call(server, `/api/submissions/${sent.id}/accept`, {
      method: 'POST',
      auth: 'none',
      headers: { cookie },
      body: { phone: '(501) 555-0177', updated_at: current.updated_at },
    })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.json.business.phone).toBe('(501) 555-0177')
    expect(answer.json.submission).toMatchObject({
      status: 'accepted',
      decided_by: 'coordinator@roland.example',
      applied_row_id: business.id,
    })
    expect(server.services.scheduler.state.unpublishedEdits).toBeGreaterThan(0)
    const audit = await call(server, `/api/audit?table=businesses&row=${business.id}`)
    expect(audit.json.entries[0]).toMatchObject({ actor: 'coordinator@roland.example', submission_id: sent.id })
    const again = await call(server, `/api/submissions/${sent.id}/accept`, { method: 'POST' })
    expect(again.status).toBe(409)
    expect(again.json.error).toMatch(/accepted already, by coordinator@roland.example/)
  })

  test('accepting against a stale listing is refused with 409 and leaves the submission pending', async () => {
    const { json: sent } = await submit(phoneChange())
    const stale = (await call(server, `/api/businesses/${business.id}`)).json.business.updated_at
    await call(server, `/api/businesses/${business.id}`, { method: 'PATCH', body: { hours: 'Mon-Sat 7am-7pm' } })
    const answer = await call(server, `/api/submissions/${sent.id}/accept`, {
      method: 'POST',
      body: { phone: '(501) 555-0166', updated_at: stale },
    })
    expect(answer.status).toBe(409)
    const { json } = await call(server, '/api/submissions?status=pending')
    expect(json.submissions.map((entry: { id: string }) => entry.id)).toContain(sent.id)
  })

  test('edited values are checked with the editors’ schema before anything is written', async () => {
    const { json: sent } = await submit(phoneChange())
    const answer = await call(server, `/api/submissions/${sent.id}/accept`, {
      method: 'POST',
      body: { phone: 'call us' },
    })
    expect(answer.status).toBe(400)
    expect(answer.json.issues).toEqual([{ path: 'phone', message: expect.stringMatching(/US phone number/) }])
  })

  test('accepting "closed" deactivates the business', async () => {
    const { json: listed } = await call(server, '/api/businesses')
    const other = listed.businesses.find(
      (row: { is_active: boolean; id: string }) => row.is_active && row.id !== business.id,
    )
    const { json: sent } = await submit({
      kind: 'business-update',
      payload: { business: other.slug, closed: true, note: 'Closed in March' },
    })
    const answer = await call(server, `/api/submissions/${sent.id}/accept`, { method: 'POST' })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.json.business.is_active).toBe(false)
  })

  test('accepting an event creates it as the draft showed it', async () => {
    const { json: sent } = await submit(bakeSale)
    const answer = await call(server, `/api/submissions/${sent.id}/accept`, { method: 'POST' })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.json.event).toMatchObject({ title: 'Church bake sale', slug: 'church-bake-sale-2027-05-01' })
    const audit = await call(server, `/api/audit?table=community_events&row=${answer.json.event.id}`)
    expect(audit.json.entries[0]).toMatchObject({ action: 'insert', actor: 'automation', submission_id: sent.id })
  })

  test('accepting a new business creates it, with a free web address', async () => {
    const { json: sent } = await submit({
      kind: 'new-business',
      payload: { name: business.name, phone: '501-555-0140' },
    })
    const answer = await call(server, `/api/submissions/${sent.id}/accept`, { method: 'POST' })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.json.business.slug).toBe(`${business.slug}-2`)
  })

  test('rejecting needs a reason; rejected and spam leave the pending list', async () => {
    const { json: first } = await submit(bakeSale)
    const { json: second } = await submit(bakeSale)
    const noReason = await call(server, `/api/submissions/${first.id}/reject`, { method: 'POST', body: {} })
    expect(noReason.status).toBe(400)
    expect(noReason.json.error).toMatch(/Give a reason/)
    const rejected = await call(server, `/api/submissions/${first.id}/reject`, {
      method: 'POST',
      body: { reason: 'Already listed' },
    })
    expect(rejected.json.submission).toMatchObject({ status: 'rejected', decision_reason: 'Already listed' })
    const spam = await call(server, `/api/submissions/${second.id}/spam`, { method: 'POST' })
    expect(spam.json.submission).toMatchObject({ status: 'spam', decided_by: 'automation' })
    const { json } = await call(server, '/api/submissions')
    const pendingIds = json.submissions.map((entry: { id: string }) => entry.id)
    expect(pendingIds).not.toContain(first.id)
    expect(pendingIds).not.toContain(second.id)
    expect((await call(server, '/api/submissions?status=spam')).json.submissions[0].id).toBe(second.id)
  })
})

/** A local HTTP stand-in: records each request's body and answers it with `respond`. */
async function startStandIn(respond: (body: string, count: number) => { status: number; body: unknown }) {
  const requests: string[] = []
  const server = createServer((req: IncomingMessage, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    req.on('end', () => {
      requests.push(body)
      const answer = respond(body, requests.length)
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}

describe("a suggestion's phone", () => {
  // The town_settings.country rule (issue 39): the shared schema's, which the route and the Inbox
  // check, and submit_suggestion's own (20261128001200_suggestion_phone_by_country.sql).
  test("follows the town's country: under GB the route takes a British number, refuses a US one, and the Inbox likewise", async () => {
    const suggest = (phone: string) =>
      submit({ kind: 'business-update', payload: { business: business.slug, phone, note: 'New number' } })
    const { json: shop } = await submit({ kind: 'new-business', payload: { name: 'Corner Shop' } })
    expect(shop.id).toEqual(expect.any(String))

    expect((await call(server, '/api/town', { method: 'PATCH', body: { country: 'GB' } })).status).toBe(200)
    try {
      const before = await countSubmissions()
      const refused = await suggest('(501) 555-0123')
      expect(refused.status, refused.text).toBe(400)
      expect(refused.json.issues).toEqual([{ path: 'payload.phone', message: expect.stringMatching(/country \(GB\)/) }])
      expect(await countSubmissions()).toBe(before)
      const taken = await suggest('020 7946 0018')
      expect(taken.status, taken.text).toBe(201)
      expect(await countSubmissions()).toBe(before + 1)

      // An editor accepting a suggestion checks its values with the editors' rules, by the country.
      const accept = (phone: string) =>
        call(server, `/api/submissions/${shop.id}/accept`, { method: 'POST', body: { name: 'Corner Shop', phone } })
      const american = await accept('(501) 555-0123')
      expect(american.status, american.text).toBe(400)
      expect(american.json.error).toMatch(/country \(GB\)/)
      const british = await accept('020 7946 0018')
      expect(british.status, british.text).toBe(200)
      expect(british.json.business.phone).toBe('020 7946 0018')
    } finally {
      expect((await call(server, '/api/town', { method: 'PATCH', body: { country: 'US' } })).status).toBe(200)
    }
    expect((await suggest('(501) 555-0123')).status).toBe(201)
  })
})

describe('Turnstile and the webhook', () => {
  let other: ConsoleServer
  let otherData: Awaited<ReturnType<typeof tempDataDir>>
  let turnstile: Awaited<ReturnType<typeof startStandIn>>
  let webhook: Awaited<ReturnType<typeof startStandIn>>

  beforeAll(async () => {
    // siteverify, as Cloudflare answers it: success for the right secret and the token 'good'.
    turnstile = await startStandIn((body) => {
      const form = new URLSearchParams(body)
      const ok = form.get('secret') === 'turnstile-secret' && form.get('response') === 'good'
      return {
        status: 200,
        body: ok ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] },
      }
    })
    // The webhook fails twice, then takes the announcement.
    webhook = await startStandIn((_, count) =>
      count <= 2 ? { status: count === 1 ? 503 : 500, body: { error: 'busy' } } : { status: 200, body: { ok: true } },
    )
    otherData = await tempDataDir()
    other = await startTestConsole({
      dataDir: otherData.dir,
      env: {
        TURNSTILE_SECRET_KEY: 'turnstile-secret',
        TURNSTILE_VERIFY_URL: `${turnstile.url}/turnstile/v0/siteverify`,
        SUBMISSIONS_WEBHOOK_URL: webhook.url,
        SUBMISSIONS_ALLOWED_ORIGINS: 'https://roland.example',
      },
      webhookRetryDelaysMs: [10, 20, 40],
    })
  })

  afterAll(async () => {
    await other?.close()
    await otherData?.remove()
    await turnstile?.close()
    await webhook?.close()
  })

  const post = (token: string | null) =>
    call(other, publicSubmissionsPath, {
      method: 'POST',
      auth: 'none',
      body: { kind: 'event', payload: { ...bakeSale.payload, title: 'Fish fry <b>&</b>' } },
      headers: { origin: 'https://roland.example', ...(token === null ? {} : { 'x-turnstile-token': token }) },
    })

  test('without a token, or with a bad one, the suggestion is refused and nothing is stored', async () => {
    const missing = await post(null)
    expect(missing.status).toBe(400)
    expect(missing.json.message).toMatch(/anti-spam check is missing/)
    const bad = await post('forged')
    expect(bad.status).toBe(400)
    expect(bad.json.message).toMatch(/anti-spam check failed/)
    expect(turnstile.requests.at(-1)).toContain('response=forged')
    expect((await call(other, '/api/submissions')).json.submissions).toEqual([])
    expect(webhook.requests).toEqual([])
  })

  test('with a good token it is stored, and announced to the webhook, which is retried until it takes it', async () => {
    const answer = await post('good')
    expect(answer.status).toBe(201)
    await other.services.submissionWebhook!.idle()
    expect(webhook.requests).toHaveLength(3)
    const body = JSON.parse(webhook.requests[2]!)
    expect(body).toEqual({
      text: expect.stringMatching(
        /^New suggestion on the Roland site: an event\. Review it in the console's Inbox: http/,
      ),
      content: expect.stringMatching(/^New suggestion on the Roland site: an event\./),
      allowed_mentions: { parse: [] },
    })
    expect(webhook.requests[2]).not.toContain('Fish fry')
  })

  test('the local site’s origin is not allowed once the allowed origins are set', async () => {
    const answer = await call(other, publicSubmissionsPath, {
      method: 'POST',
      auth: 'none',
      body: bakeSale,
      headers: { origin: site, 'x-turnstile-token': 'good' },
    })
    expect(answer.status).toBe(403)
  })
})

describe('on a Supabase project', () => {
  const publishableKey = 'sb_publishable_submissions-console'
  const secretKey = 'sb_secret_submissions-console'
  let postgres: EmbeddedStore
  let standIn: SupabaseStandIn
  let onSupabase: ConsoleServer
  let supabaseData: Awaited<ReturnType<typeof tempDataDir>>
  let webhook: Awaited<ReturnType<typeof startStandIn>>

  beforeAll(async () => {
    postgres = await freshStore()
    standIn = await startSupabaseStandIn({
      publishableKey,
      secretKey,
      tables: { operators: [], operator_sessions: [], jobs: [] },
      privateTables: ['operators', 'operator_sessions', 'jobs'],
      rpc: publicSqlFunctions(postgres, [
        'submit_suggestion',
        'submission_by_id',
        'submission_entries',
        'pending_submission_count',
        'content_row',
      ]),
    })
    supabaseData = await tempDataDir()
    webhook = await startStandIn(() => ({ status: 200, body: { ok: true } }))
    onSupabase = await startTestConsole({
      dataDir: supabaseData.dir,
      env: {
        SUPABASE_URL: standIn.url,
        SUPABASE_PUBLISHABLE_KEY: publishableKey,
        SUPABASE_SECRET_KEY: secretKey,
        SUBMISSIONS_WEBHOOK_URL: webhook.url,
      },
      submissionWatchMs: 100,
    })
  }, 120_000)

  afterAll(async () => {
    await onSupabase?.close()
    await supabaseData?.remove()
    await standIn?.close()
    await webhook?.close()
    await postgres?.close()
  })

  test('the console’s route calls submit_suggestion with the secret key, naming the visitor as the sender', async () => {
    const answer = await call(onSupabase, publicSubmissionsPath, {
      method: 'POST',
      auth: 'none',
      body: bakeSale,
      headers: { origin: site },
    })
    expect(answer.status, answer.text).toBe(201)
    const rpc = standIn.requests.find((request) => request.path === '/rest/v1/rpc/submit_suggestion')
    expect(rpc?.headers).toMatchObject({ apikey: secretKey, 'x-roland-client-ip': '127.0.0.1' })
    const { rows } = await postgres.db.query<{ id: string; sender_hash: string }>(
      'select id, sender_hash from submissions',
    )
    expect(rows).toEqual([{ id: answer.json.id, sender_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }])
    const refused = await call(onSupabase, publicSubmissionsPath, {
      method: 'POST',
      auth: 'none',
      body: { kind: 'business-update', payload: { business: 'no-such-shop', phone: '(501) 555-0100' } },
      headers: { origin: site },
    })
    expect(refused.status).toBe(400)
    expect(refused.json.message).toMatch(/No listed business/)
    // Announced by the console's watch of the project, like every suggestion there.
    await waitFor(() => webhook.requests.length === 1, 'the announcement')
    expect(JSON.parse(webhook.requests[0]!).content).toMatch(/^New suggestion on the Roland site: an event\./)
  })

  test('suggestions sent straight to the rpc are announced too, each once, while the console runs', async () => {
    const before = webhook.requests.length
    const response = await fetch(`${standIn.url}/rest/v1/rpc/submit_suggestion`, {
      method: 'POST',
      headers: { apikey: publishableKey, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'new-business', payload: { name: 'Lakeside Bait & Tackle' } }),
    })
    expect(response.status).toBe(200)
    await waitFor(() => webhook.requests.length > before, 'the announcement')
    // A few more looks find nothing new.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(webhook.requests.slice(before).map((body) => JSON.parse(body).content)).toEqual([
      expect.stringMatching(/^New suggestion on the Roland site: a new business\./),
    ])
  })
})
