import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import {
  claimOutbox,
  confirmSubscription,
  outboxFailed,
  outboxSent,
  subscriberCounts,
  unsubscribe,
} from '../src/notify/outbox.ts'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'

// public.subscribe and the outbox (issue 48), against the real migrations in the embedded
// Postgres: subscribe is called as anon, with the request headers PostgREST would pass, as the
// site's form calls it on Supabase; the sender's functions as the service role, as the sender does.

let store: EmbeddedStore

beforeAll(async () => {
  store = await freshStore()
})

afterAll(async () => {
  await store?.close()
})

beforeEach(async () => {
  await store.db.exec(
    'delete from outbox; delete from subscribers; delete from subscription_attempts; delete from notify_digests; delete from alerts;',
  )
})

/** Calls subscribe as anon from one IP address; answers what it returned, or the error. */
async function subscribeAsAnon(
  email: unknown,
  topics: unknown,
  ip = '203.0.113.7',
): Promise<{ result: unknown } | { code: string; message: string }> {
  try {
    return await store.asRole('anon', async (tx) => {
      await tx.query(`select set_config('request.headers', $1, true)`, [JSON.stringify({ 'x-forwarded-for': ip })])
      const { rows } = await tx.query<{ result: unknown }>('select public.subscribe($1, $2) as result', [
        email,
        JSON.stringify(topics),
      ])
      return { result: rows[0]!.result }
    })
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message }
  }
}

async function rows<T>(sql: string): Promise<T[]> {
  return (await store.db.query<T>(sql)).rows
}

/** Subscribes an address and confirms it, as the confirmation email's link would. */
async function confirmed(email: string, topics: string[] = ['alerts']): Promise<void> {
  await subscribeAsAnon(email, topics, `198.51.100.${Math.floor(Math.random() * 250)}`)
  const claimed = await claimOutbox(store, 'test:1', 100, 10_000)
  for (const message of claimed) {
    if (message.kind === 'confirm' && message.email === email) {
      expect(await confirmSubscription(store, message.confirm_token!)).toEqual({ status: 'confirmed', topics })
    }
    await outboxSent(store, message.id, 'test:1')
  }
}

describe('subscribe as anon', () => {
  test('records the address as pending, lower-cased, and queues one confirmation', async () => {
    expect(await subscribeAsAnon('  Ann@Example.ORG ', ['events', 'alerts'])).toEqual({ result: '' })
    expect(await rows('select email, status, topics, requested_topics from subscribers')).toEqual([
      { email: 'ann@example.org', status: 'pending', topics: [], requested_topics: ['alerts', 'events'] },
    ])
    expect(await rows(`select kind, status from outbox`)).toEqual([{ kind: 'confirm', status: 'queued' }])
  })

  test('ten requests for one address, from ten senders, queue one confirmation', async () => {
    for (let i = 0; i < 10; i++) {
      expect(await subscribeAsAnon('ann@example.org', ['alerts'], `192.0.2.${i + 1}`)).toEqual({ result: '' })
    }
    expect(await rows(`select kind from outbox`)).toEqual([{ kind: 'confirm' }])
  })

  test('one sender gets the suggestions’ rate limit: five an hour, then PT429', async () => {
    const outcomes = []
    for (let i = 0; i < 7; i++) outcomes.push(await subscribeAsAnon(`person${i}@example.org`, ['alerts']))
    expect(outcomes.slice(0, 5)).toEqual(Array(5).fill({ result: '' }))
    expect(outcomes.slice(5)).toEqual(
      Array(2).fill({ code: 'PT429', message: expect.stringMatching(/the most we take from one sender/) }),
    )
    expect(await rows('select count(*)::int as n from subscribers')).toEqual([{ n: 5 }])
  })

  test('the same answer for a new, a pending and a confirmed address, and no new email for the confirmed', async () => {
    await confirmed('old@example.org')
    const answers = [
      await subscribeAsAnon('new@example.org', ['alerts'], '192.0.2.50'),
      await subscribeAsAnon('new@example.org', ['alerts'], '192.0.2.51'),
      await subscribeAsAnon('old@example.org', ['alerts'], '192.0.2.52'),
    ]
    expect(answers).toEqual([{ result: '' }, { result: '' }, { result: '' }])
    expect(
      await rows(`select s.email from outbox o join subscribers s on s.id = o.subscriber_id where o.status = 'queued'`),
    ).toEqual([{ email: 'new@example.org' }])
  })

  test('a confirmed subscriber asking for another topic gets a confirmation for it, a day after the last', async () => {
    await confirmed('old@example.org', ['alerts'])
    await subscribeAsAnon('old@example.org', ['events'], '192.0.2.59')
    expect(await claimOutbox(store, 'test:1', 10, 10_000)).toEqual([])
    await store.db.exec(`update subscribers set confirmation_sent_at = now() - interval '25 hours'`)
    await subscribeAsAnon('old@example.org', ['events'], '192.0.2.60')
    const [message] = await claimOutbox(store, 'test:1', 10, 10_000)
    expect(message).toMatchObject({ kind: 'confirm', topics: ['events'] })
    expect(await confirmSubscription(store, message!.confirm_token!)).toEqual({
      status: 'confirmed',
      topics: ['alerts', 'events'],
    })
  })

  const refusals: Array<[string, unknown, unknown, RegExp]> = [
    ['no address', '', ['alerts'], /Enter your email/],
    ['an address without a domain', 'ann@', ['alerts'], /an address such as/],
    ['an address over 254 characters', `${'a'.repeat(250)}@example.org`, ['alerts'], /at most 254/],
    ['no topic', 'ann@example.org', [], /at least one topic/],
    ['an unknown topic', 'ann@example.org', ['sports'], /"alerts" and "events"/],
    ['topics that are not a list', 'ann@example.org', 'alerts', /at least one topic/],
  ]
  test.each(refusals)('refuses %s with PT400 and stores nothing', async (_, email, topics, message) => {
    expect(await subscribeAsAnon(email, topics)).toEqual({ code: 'PT400', message: expect.stringMatching(message) })
    expect(await rows('select count(*)::int as n from subscribers')).toEqual([{ n: 0 }])
  })

  test('anon reads no subscriber and no outbox row, and calls none of the sender’s functions', async () => {
    await subscribeAsAnon('ann@example.org', ['alerts'])
    for (const sql of [
      'select * from subscribers',
      'select * from outbox',
      'select * from notify_digests',
      'select * from subscription_attempts',
      `select claim_outbox('x', 10, 10)`,
      'select subscriber_counts()',
      `select confirm_subscription('${'a'.repeat(64)}')`,
      `select unsubscribe('${'a'.repeat(64)}')`,
    ]) {
      await expect(
        store.asRole('anon', (tx) => tx.query(sql)),
        sql,
      ).rejects.toThrow(/permission denied/)
    }
  })
})

describe('confirming and unsubscribing', () => {
  test('a wrong token confirms nothing; the token is stored only hashed', async () => {
    await subscribeAsAnon('ann@example.org', ['alerts'])
    const [message] = await claimOutbox(store, 'test:1', 10, 10_000)
    expect(await confirmSubscription(store, 'x'.repeat(64))).toEqual({ status: 'unknown' })
    const [row] = await rows<{ confirm_token_hash: string }>('select confirm_token_hash from subscribers')
    expect(row!.confirm_token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(row!.confirm_token_hash).not.toBe(message!.confirm_token)
    expect(JSON.stringify(await rows('select * from outbox'))).not.toContain(message!.unsubscribe_token)
  })

  test('an address left unconfirmed for 7 days is deleted', async () => {
    await subscribeAsAnon('late@example.org', ['alerts'])
    await store.db.exec(`update subscribers set created_at = now() - interval '8 days'`)
    await subscribeAsAnon('fresh@example.org', ['alerts'], '192.0.2.70')
    expect(await rows('select email from subscribers')).toEqual([{ email: 'fresh@example.org' }])
  })

  test('one topic off keeps the other; everything off deletes the address', async () => {
    await confirmed('ann@example.org', ['alerts', 'events'])
    await store.db.exec(`insert into alerts (title, level, status) values ('Boil water', 'emergency', 'published')`)
    const [message] = await claimOutbox(store, 'test:1', 10, 10_000)
    expect(await unsubscribe(store, message!.unsubscribe_token, ['alerts'])).toEqual({
      status: 'unsubscribed',
      topics: ['events'],
    })
    expect(await unsubscribe(store, message!.unsubscribe_token)).toEqual({ status: 'unsubscribed', topics: [] })
    expect(await rows('select * from subscribers')).toEqual([])
    expect(await unsubscribe(store, 'y'.repeat(64))).toEqual({ status: 'unknown' })
  })
})

describe('queueing and sending', () => {
  test('publishing an alert queues one email per confirmed alerts subscriber; ending it, the All clear', async () => {
    await confirmed('a@example.org', ['alerts'])
    await confirmed('b@example.org', ['alerts', 'events'])
    await confirmed('c@example.org', ['events'])
    await subscribeAsAnon('pending@example.org', ['alerts'], '192.0.2.80')
    const [{ id }] = (await rows<{ id: string }>(
      `insert into alerts (title, level) values ('Road closed', 'advisory') returning id`,
    )) as [{ id: string }]
    expect(await rows(`select count(*)::int as n from outbox where alert_id is not null`)).toEqual([{ n: 0 }])
    await store.db.exec(`update alerts set status = 'published' where id = '${id}'`)
    await store.db.exec(`update alerts set title = 'Road closed on Main' where id = '${id}'`)
    expect(await rows(`select kind, count(*)::int as n from outbox where alert_id = '${id}' group by kind`)).toEqual([
      { kind: 'alert', n: 2 },
    ])
    await store.db.exec(`update alerts set status = 'ended', all_clear = 'Open again' where id = '${id}'`)
    expect(
      await rows(`select kind, count(*)::int as n from outbox where alert_id = '${id}' group by kind order by kind`),
    ).toEqual([
      { kind: 'alert', n: 2 },
      { kind: 'all-clear', n: 2 },
    ])
    expect(await subscriberCounts(store)).toEqual({ alerts: 2, events: 2, pending: 1, stopped: 0 })
  })

  test('alerts are claimed before confirmations, within the per-minute limit', async () => {
    await confirmed('a@example.org', ['alerts'])
    await subscribeAsAnon('new@example.org', ['alerts'], '192.0.2.90')
    await store.db.exec(`insert into alerts (title, level, status) values ('Fire', 'emergency', 'published')`)
    await store.db.exec(`update outbox set claimed_at = null`)
    const first = await claimOutbox(store, 'test:1', 10, 1)
    expect(first.map((m) => m.kind)).toEqual(['alert'])
    expect(first[0]!.content).toMatchObject({ title: 'Fire', level: 'emergency' })
    expect(await claimOutbox(store, 'test:1', 10, 1)).toEqual([])
  })

  test('a 4xx is retried later, a 5xx fails, and three 5xx in a row stop mail to the address', async () => {
    await confirmed('bounce@example.org', ['alerts'])
    for (let i = 0; i < 3; i++) {
      await store.db.exec(`insert into alerts (title, level, status) values ('Alert ${i}', 'notice', 'published')`)
    }
    const claimed = await claimOutbox(store, 'test:1', 10, 10_000)
    expect(claimed).toHaveLength(3)
    expect(await outboxFailed(store, claimed[0]!.id, 'test:1', false, '451: try later')).toBe('retry')
    expect(
      await rows(`select status, next_attempt_at > now() as later from outbox where id = ${claimed[0]!.id}`),
    ).toEqual([{ status: 'queued', later: true }])
    expect(await outboxFailed(store, claimed[1]!.id, 'test:1', true, '550: no such user')).toBe('failed')
    expect(await rows(`select stopped_at is null as going from subscribers`)).toEqual([{ going: true }])
    expect(await outboxFailed(store, claimed[2]!.id, 'test:1', true, '550: no such user')).toBe('failed')
    await store.db.exec(`update outbox set next_attempt_at = now(), claimed_at = null`)
    const [again] = await claimOutbox(store, 'test:1', 10, 10_000)
    expect(await outboxFailed(store, again!.id, 'test:1', true, '550: no such user')).toBe('failed')
    expect(await rows(`select hard_failures, stopped_at is not null as stopped from subscribers`)).toEqual([
      { hard_failures: 3, stopped: true },
    ])
    await store.db.exec(`insert into alerts (title, level, status) values ('Later', 'notice', 'published')`)
    expect(await rows(`select count(*)::int as n from outbox where status = 'queued'`)).toEqual([{ n: 0 }])
  })

  test('a message 4xx-refused for a day fails', async () => {
    await confirmed('slow@example.org', ['alerts'])
    await store.db.exec(`insert into alerts (title, level, status) values ('Storm', 'advisory', 'published')`)
    await store.db.exec(`update outbox set created_at = now() - interval '25 hours', claimed_at = null`)
    const [message] = await claimOutbox(store, 'test:1', 10, 10_000)
    expect(await outboxFailed(store, message!.id, 'test:1', false, '421: busy')).toBe('failed')
  })

  test('another process’s claims are put back only when it is named gone', async () => {
    await confirmed('a@example.org', ['alerts'])
    await store.db.exec(`insert into alerts (title, level, status) values ('Storm', 'advisory', 'published')`)
    const [message] = await claimOutbox(store, 'host:41', 10, 10_000)
    expect(await outboxSent(store, message!.id, 'host:42')).toBe(false)
    expect(await store.call('release_outbox_claims', { claimers: ['host:42'] })).toBe(0)
    expect(await store.call('release_outbox_claims', { claimers: ['host:41'] })).toBe(1)
    expect((await claimOutbox(store, 'host:42', 10, 10_000)).map((m) => m.id)).toEqual([message!.id])
  })

  test('queueing an alert for 10,000 subscribers is one statement', async () => {
    await store.db.exec(`insert into subscribers (email, topics, status, confirmed_at)
      select 'resident' || n || '@example.org', '{alerts}', 'confirmed', now() from generate_series(1, 10000) n`)
    await store.db.exec(`insert into alerts (title, level, status) values ('Boil water', 'emergency', 'published')`)
    expect(await rows(`select count(*)::int as n from outbox where kind = 'alert'`)).toEqual([{ n: 10000 }])
  })
})
