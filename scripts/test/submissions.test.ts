import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import {
  acceptSubmission,
  decideSubmission,
  forgetSubmissionSenders,
  submitSuggestion,
} from '../src/content/submissions.ts'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { openSupabaseStore } from '../src/store/supabase.ts'
import { SqlError } from '../src/store/types.ts'
import { freshStore } from './support/fresh-store.ts'
import { publicSqlFunctions, startSupabaseStandIn, type SupabaseStandIn } from './support/supabase-stand-in.ts'

// public.submit_suggestion, the one way a visitor's suggestion gets in (issue 27), called as anon
// the way PostgREST calls it on Supabase (request.headers set from the HTTP request), against the
// real migrations in the embedded Postgres; then the same function through the Supabase stand-in's
// /rest/v1/rpc with the publishable key, as the site's form calls it.

const shopId = '11111111-1111-4111-8111-111111111111'
const goneId = '22222222-2222-4222-8222-222222222222'

let store: EmbeddedStore

beforeAll(async () => {
  store = await freshStore()
  await store.db.exec(`
    insert into businesses (id, slug, name, phone, is_active) values
      ('${shopId}', 'open-shop', 'Open Shop', '(501) 555-0100', true),
      ('${goneId}', 'closed-shop', 'Closed Shop', null, false);
  `)
})

afterAll(async () => {
  await store?.close()
})

beforeEach(async () => {
  await store.db.exec('delete from submissions')
})

/** Calls submit_suggestion as anon, with the request headers PostgREST would pass. */
async function submitAsAnon(
  kind: unknown,
  payload: unknown,
  contact: unknown = null,
  headers: Record<string, string> = { 'x-forwarded-for': '203.0.113.7' },
): Promise<{ id: string } | { code: string; message: string }> {
  try {
    return await store.asRole('anon', async (tx) => {
      await tx.query(`select set_config('request.headers', $1, true)`, [JSON.stringify(headers)])
      const { rows } = await tx.query<{ id: string }>('select public.submit_suggestion($1, $2, $3) as id', [
        kind,
        payload === null ? null : JSON.stringify(payload),
        contact === null ? null : JSON.stringify(contact),
      ])
      return { id: rows[0]!.id }
    })
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message }
  }
}

async function count(where = 'true'): Promise<number> {
  const { rows } = await store.db.query<{ n: number }>(`select count(*)::int as n from submissions where ${where}`)
  return rows[0]!.n
}

const event = {
  title: 'Church bake sale',
  starts_at: '2027-05-01T09:00:00-05:00',
  location: 'Roland Baptist Church',
  event_type: 'Community',
}

describe('submit_suggestion as anon', () => {
  test('stores a suggested edit as pending, with its business and the sender’s contact', async () => {
    const outcome = await submitAsAnon(
      'business-update',
      { business: 'open-shop', phone: '(501) 555-0177', note: 'New number' },
      { name: 'Ann', email: 'ann@example.org' },
    )
    expect(outcome).toEqual({ id: expect.any(String) })
    const { rows } = await store.db.query('select * from submissions')
    expect(rows).toEqual([
      expect.objectContaining({
        kind: 'business-update',
        business_id: shopId,
        status: 'pending',
        contact_name: 'Ann',
        contact_email: 'ann@example.org',
        payload: { business: 'open-shop', phone: '(501) 555-0177', note: 'New number' },
      }),
    ])
  })

  const refusals: Array<[string, string, unknown, RegExp]> = [
    ['an unknown kind', 'complaint', { text: 'hi' }, /Unknown kind 'complaint'/],
    ['an unknown business', 'business-update', { business: 'no-shop', hours: 'Mon 9-5' }, /No listed business/],
    ['an inactive business', 'business-update', { business: 'closed-shop', hours: 'Mon 9-5' }, /No listed business/],
    ['a change that changes nothing', 'business-update', { business: 'open-shop', note: 'hi' }, /at least one field/],
    ['an unknown field', 'new-business', { name: 'X', is_featured: true }, /Unknown field 'is_featured'/],
    ['a website that is not http(s)', 'new-business', { name: 'X', website: 'javascript:alert(1)' }, /http:\/\//],
    ['a data: website', 'new-business', { name: 'X', website: 'data:text/html,hi' }, /http:\/\//],
    ['a malformed phone number', 'new-business', { name: 'X', phone: '555-12' }, /US phone number/],
    ['a field over 2,000 characters', 'new-business', { name: 'x'.repeat(2001) }, /at most 2000 characters/],
    [
      'a payload over 8 KB',
      'new-business',
      {
        name: 'X',
        full_description: 'x'.repeat(1990),
        services: [{ service_name: 'y'.repeat(1990) }],
        hours: 'z'.repeat(1990),
        address: 'a'.repeat(1990),
        short_description: 'b'.repeat(300),
      },
      /too large: at most 8 KB/,
    ],
    ['an event without a start', 'event', { ...event, starts_at: undefined }, /starts_at is required/],
    ['an event starting "soon"', 'event', { ...event, starts_at: 'soon' }, /ISO 8601/],
    ['an event of an unknown type', 'event', { ...event, event_type: 'Rave' }, /event_type must be one of/],
    ['a payload that is not an object', 'event', [event], /must be a JSON object/],
  ]
  test.each(refusals)('refuses %s with PT400 and stores nothing', async (_, kind, payload, message) => {
    const outcome = await submitAsAnon(kind, payload)
    expect(outcome).toEqual({ code: 'PT400', message: expect.stringMatching(message) })
    expect(await count()).toBe(0)
  })

  test('refuses a contact email that is not one', async () => {
    expect(await submitAsAnon('event', event, { email: 'not an email' })).toMatchObject({ code: 'PT400' })
  })

  test.each([
    [
      'event',
      { ...event, location: 'Roland\u0007 Baptist' },
      null,
      /^location contains an invisible control character \(U\+0007\)/,
    ],
    ['new-business', { name: 'Joe\u001Bs' }, null, /^name contains an invisible control character \(U\+001B\)/],
    [
      'new-business',
      { name: 'Joe', services: [{ service_name: 'Tea', description: 'Hot\u007F' }] },
      null,
      /^services\[0\]\.description contains an invisible control character \(U\+007F\)/,
    ],
    ['event', event, { name: 'Ann\u0085' }, /^contact name contains an invisible control character \(U\+0085\)/],
    ['new-business', { name: '\u202EknaB' }, null, /^name contains a bidirectional control character \(U\+202E\)/],
    [
      'event',
      { ...event, title: 'Bake sale\u2066' },
      null,
      /^title contains a bidirectional control character \(U\+2066\)/,
    ],
  ] as const)(
    'refuses a control character in %s text, naming the field (%j)',
    async (kind, payload, contact, message) => {
      expect(await submitAsAnon(kind, payload, contact)).toEqual({
        code: 'PT400',
        message: expect.stringMatching(message),
      })
      expect(await count()).toBe(0)
    },
  )

  test('takes tabs, line breaks (CRLF too) and right-to-left text, and bidi controls outside names', async () => {
    const description = 'Bring a chair.\r\nAnd a hat.\tMenu in \u2067עברית\u2069.'
    expect(await submitAsAnon('event', { ...event, description })).toEqual({ id: expect.any(String) })
    const { rows } = await store.db.query<{ text: string }>(`select payload ->> 'description' as text from submissions`)
    expect(rows).toEqual([{ text: description }])
  })

  test('a NUL never gets in: Postgres refuses it in JSON (22P05, which PostgREST answers with 400)', async () => {
    expect(await submitAsAnon('new-business', { name: 'Joe\u0000s' })).toEqual({
      code: '22P05',
      message: expect.stringMatching(/unsupported Unicode escape sequence/),
    })
    expect(await count()).toBe(0)
  })

  test('stores a script or HTML in a field as the text it is', async () => {
    const name = '<script>alert(1)</script><img src=x onerror=alert(2)>'
    await submitAsAnon('new-business', { name })
    const { rows } = await store.db.query<{ name: string }>(`select payload ->> 'name' as name from submissions`)
    expect(rows).toEqual([{ name }])
  })

  // A thousand calls take seconds alone and much longer beside other suites: a generous limit, never asserted.
  test(
    'a flood of 1,000 from one sender: five are stored, the rest refused with PT429 and a clear message',
    { timeout: 600_000 },
    async () => {
      const outcomes = []
      for (let n = 0; n < 1000; n++) outcomes.push(await submitAsAnon('event', event))
      expect(outcomes.filter((outcome) => 'id' in outcome)).toHaveLength(5)
      const refused = outcomes.filter((outcome) => 'code' in outcome)
      expect(refused).toHaveLength(995)
      expect(refused[0]).toEqual({
        code: 'PT429',
        message:
          'You have sent 5 suggestions in the last hour, the most we take from one sender: please try again in an hour.',
      })
      expect(await count()).toBe(5)
      // Another sender is not held up by the first.
      expect(await submitAsAnon('event', event, null, { 'x-forwarded-for': '198.51.100.1' })).toEqual({
        id: expect.any(String),
      })
    },
  )

  test('an hour’s submissions from everyone together are capped too', async () => {
    await store.db.exec(`insert into submissions (kind, payload) select 'event', '{}' from generate_series(1, 200)`)
    expect(await submitAsAnon('event', event)).toEqual({
      code: 'PT429',
      message: 'We have received many suggestions in the last hour: please try again in an hour.',
    })
    expect(await count()).toBe(200)
  })

  test('the sender is their address hashed with a secret salt: never the address, and not what a visitor claims', async () => {
    await submitAsAnon('event', event, null, { 'cf-connecting-ip': '203.0.113.9', 'x-forwarded-for': '10.0.0.1' })
    // A visitor cannot pass for the console, which names senders with x-roland-client-ip.
    await submitAsAnon('event', event, null, { 'x-roland-client-ip': '1.1.1.1', 'x-forwarded-for': '203.0.113.9' })
    const { rows } = await store.db.query<{ sender_hash: string; row: string }>(
      'select sender_hash, to_jsonb(s)::text as row from submissions s',
    )
    expect(rows).toHaveLength(2)
    expect(rows[0]!.sender_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(rows[0]!.sender_hash).toBe(rows[1]!.sender_hash)
    expect(rows.map((row) => row.row).join()).not.toMatch(/203\.0\.113|1\.1\.1\.1/)
    const { rows: plain } = await store.db.query<{ hash: string }>(
      `select encode(sha256(convert_to('203.0.113.9', 'UTF8')), 'hex') as hash`,
    )
    expect(rows[0]!.sender_hash).not.toBe(plain[0]!.hash)
  })

  test('the console names the sender for the service role', async () => {
    const first = await submitSuggestion(store, { kind: 'event', payload: event }, '192.0.2.10')
    const second = await submitSuggestion(store, { kind: 'event', payload: event }, '192.0.2.11')
    const { rows } = await store.db.query<{ sender_hash: string }>(
      'select sender_hash from submissions where id in ($1, $2)',
      [first, second],
    )
    expect(new Set(rows.map((row) => row.sender_hash)).size).toBe(2)
    await expect(submitSuggestion(store, { kind: 'nope', payload: {} }, '192.0.2.10')).rejects.toMatchObject({
      name: 'SqlError',
      code: 'PT400',
      httpStatus: 400,
    })
  })

  test('nobody but the functions reads the salt, the service role included', async () => {
    for (const role of ['anon', 'authenticated', 'service_role'] as const) {
      await expect(store.asRole(role, (tx) => tx.query('select * from submission_secrets'))).rejects.toThrow(
        /permission denied/,
      )
    }
  })

  test('anon may call submit_suggestion and no other submissions function', async () => {
    for (const call of [
      'select submission_entries()',
      'select forget_submission_senders()',
      `select accept_submission('${shopId}', '{}')`,
      `select decide_submission('${shopId}', 'spam')`,
      'select pending_submission_count()',
    ]) {
      await expect(
        store.asRole('anon', (tx) => tx.query(call)),
        call,
      ).rejects.toThrow(/permission denied/)
    }
  })
})

describe('forgetting senders', () => {
  test('deletes the contact details and sender hash 90 days after the decision, and keeps the rest', async () => {
    const automation = { email: 'automation', role: 'admin' } as const
    const old = await submitAsAnon('event', event, { name: 'Ann', email: 'ann@example.org' })
    const recent = await submitAsAnon('event', event, { name: 'Bob', email: 'bob@example.org' })
    const waiting = await submitAsAnon('event', event, { name: 'Cy' })
    for (const outcome of [old, recent]) {
      await decideSubmission(store, (outcome as { id: string }).id, 'rejected', 'Duplicate', automation)
    }
    await store.db.query(`update submissions set decided_at = now() - interval '91 days' where id = $1`, [
      (old as { id: string }).id,
    ])
    expect(await forgetSubmissionSenders(store)).toBe(1)
    const { rows } = await store.db.query<Record<string, unknown>>(
      'select id, contact_name, contact_email, sender_hash, status, payload from submissions order by created_at',
    )
    expect(rows).toEqual([
      {
        id: (old as { id: string }).id,
        contact_name: null,
        contact_email: null,
        sender_hash: null,
        status: 'rejected',
        payload: event,
      },
      expect.objectContaining({ contact_name: 'Bob', sender_hash: expect.any(String) }),
      expect.objectContaining({ id: (waiting as { id: string }).id, contact_name: 'Cy', status: 'pending' }),
    ])
  })

  test('runs on every submission too', async () => {
    const old = (await submitAsAnon('event', event, { email: 'ann@example.org' })) as { id: string }
    await store.db.query(
      `update submissions set status = 'spam', decided_at = now() - interval '100 days' where id = $1`,
      [old.id],
    )
    await submitAsAnon('event', event, null, { 'x-forwarded-for': '198.51.100.2' })
    const { rows } = await store.db.query('select contact_email, sender_hash from submissions where id = $1', [old.id])
    expect(rows).toEqual([{ contact_email: null, sender_hash: null }])
  })
})

describe('accepting', () => {
  test('applies the change under the operator and names the submission in the audit', async () => {
    const { id } = (await submitAsAnon('business-update', { business: 'open-shop', phone: '(501) 555-0177' })) as {
      id: string
    }
    const outcome = await acceptSubmission(store, id, 'business-update', { phone: '(501) 555-0177' }, null, {
      email: 'coordinator@roland.example',
      role: 'editor',
    })
    expect(outcome).toMatchObject({
      status: 'ok',
      row: { phone: '(501) 555-0177' },
      submission: { status: 'accepted' },
    })
    const { rows } = await store.db.query(
      `select actor, submission_id from audit_log where table_name = 'businesses' and row_id = $1 order by id desc limit 1`,
      [shopId],
    )
    expect(rows).toEqual([{ actor: 'coordinator@roland.example', submission_id: id }])
    // A later change by hand names no submission.
    await store.db.exec(`update businesses set hours = 'Mon 9am-5pm' where id = '${shopId}'`)
    const { rows: later } = await store.db.query<{ submission_id: string | null }>(
      `select submission_id from audit_log where table_name = 'businesses' order by id desc limit 1`,
    )
    expect(later).toEqual([{ submission_id: null }])
  })
})

describe('submit_suggestion through the Supabase REST rpc', () => {
  const publishableKey = 'sb_publishable_submissions-test'
  let standIn: SupabaseStandIn

  beforeAll(async () => {
    standIn = await startSupabaseStandIn({
      publishableKey,
      secretKey: 'sb_secret_submissions-test',
      rpc: publicSqlFunctions(store, ['submit_suggestion', 'submission_entries']),
    })
  })

  afterAll(async () => {
    await standIn?.close()
  })

  const rpc = (name: string, body: unknown) =>
    fetch(`${standIn.url}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: { apikey: publishableKey, 'content-type': 'application/json', origin: 'https://roland.example' },
      body: JSON.stringify(body),
    })

  test('takes the form’s body with the publishable key and answers the new id', async () => {
    const response = await rpc('submit_suggestion', { kind: 'event', payload: event, contact: { name: 'Ann' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(await response.json()).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/))
    expect(await count()).toBe(1)
  })

  test('answers bad input with 400 and too many with 429, each with a message', async () => {
    const bad = await rpc('submit_suggestion', { kind: 'event', payload: { ...event, event_type: 'Rave' } })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ code: 'PT400', message: expect.stringMatching(/event_type/) })
    for (let n = 0; n < 5; n++)
      expect((await rpc('submit_suggestion', { kind: 'event', payload: event })).status).toBe(200)
    const limited = await rpc('submit_suggestion', { kind: 'event', payload: event })
    expect(limited.status).toBe(429)
    expect(await limited.json()).toMatchObject({
      code: 'PT429',
      message: expect.stringMatching(/try again in an hour/),
    })
  })

  test('anon cannot list the submissions through the rpc', async () => {
    const response = await rpc('submission_entries', {})
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ message: expect.stringMatching(/permission denied/) })
  })

  test('the service role’s store reports PT errors as SqlError', async () => {
    const supabase = openSupabaseStore({
      url: standIn.url,
      publicKey: publishableKey,
      secretKey: 'sb_secret_submissions-test',
    })
    await expect(submitSuggestion(supabase, { kind: 'x', payload: {} }, '192.0.2.1')).rejects.toBeInstanceOf(SqlError)
    await supabase.close()
  })
})
