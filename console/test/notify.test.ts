import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { freshStoreIn } from '../../scripts/test/support/fresh-store.ts'
import { startSmtpServer, type TestSmtpServer } from '../../scripts/test/support/smtp-server.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { addTestOperator, call, signIn, startTestConsole, tempDataDir, waitFor } from './support/console.ts'

// "Notify me"'s routes in the console (issue 48), against a real SMTP server on 127.0.0.1: the
// public subscription (202 the same for every address, CORS for the site only, 503 when email is
// off), the confirmation by token, RFC 8058's one-click unsubscribe and the per-topic one, and the
// operators' counts, delivery and an admin's find-and-delete.

const siteOrigin = 'http://127.0.0.1:4321'
let smtp: TestSmtpServer
let server: ConsoleServer
let off: ConsoleServer
const cleanups: Array<() => Promise<unknown>> = []

beforeAll(async () => {
  smtp = await startSmtpServer()
  cleanups.push(() => smtp.close())
  const data = await tempDataDir('roland-notify-console-')
  cleanups.push(() => data.remove())
  // A copy of the seeded store the global setup made: quicker than the console creating one.
  await (await freshStoreIn(data.dir)).close()
  server = await startTestConsole({
    dataDir: data.dir,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'news@roland.example', SITE_URL: siteOrigin, ROLAND_NOTIFY_POLL_MS: '200' },
  })
  cleanups.push(() => server.close())
  const offData = await tempDataDir('roland-notify-console-off-')
  cleanups.push(() => offData.remove())
  await (await freshStoreIn(offData.dir)).close()
  off = await startTestConsole({ dataDir: offData.dir })
  cleanups.push(() => off.close())
}, 400_000)

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** Posts to a public route as the site's page does, from its origin. */
function post(target: ConsoleServer, pathname: string, body: unknown, headers: Record<string, string> = {}) {
  return call(target, pathname, { method: 'POST', auth: 'none', body, headers: { origin: siteOrigin, ...headers } })
}

/** The token of a link to the site's page in an email's text. */
function tokenIn(text: string, page: string): string {
  const match = new RegExp(`/notify/${page}\\?token=([A-Za-z0-9_-]+)`).exec(text)
  if (!match) throw new Error(`No /notify/${page} link in:\n${text}`)
  return match[1]!
}

describe('the public routes', () => {
  test('answers a new, a pending and a confirmed address alike; one confirmation is sent', async () => {
    const first = await post(server, '/api/public/subscriptions', { email: 'ann@example.org', topics: ['alerts'] })
    expect(first.status).toBe(202)
    expect(first.headers.get('access-control-allow-origin')).toBe(siteOrigin)
    const [confirmation] = await smtp.waitFor(1)
    const again = await post(server, '/api/public/subscriptions', { email: 'ann@example.org', topics: ['alerts'] })
    const confirmed = await post(server, '/api/public/subscriptions/confirm', {
      token: tokenIn(confirmation!.mail.text!, 'confirm'),
    })
    expect(confirmed).toMatchObject({ status: 200, json: { status: 'confirmed', topics: ['alerts'] } })
    const known = await post(server, '/api/public/subscriptions', { email: 'ann@example.org', topics: ['alerts'] })
    expect([again.status, again.text]).toEqual([first.status, first.text])
    expect([known.status, known.text]).toEqual([first.status, first.text])
    expect(smtp.received).toHaveLength(1)
  })

  test('refuses bad input with the reason, and other sites', async () => {
    expect(await post(server, '/api/public/subscriptions', { email: 'ann@', topics: ['alerts'] })).toMatchObject({
      status: 400,
      json: { message: expect.stringMatching(/an address such as/) },
    })
    expect(
      await post(server, '/api/public/subscriptions', { email: 'ann@example.org', topics: ['sports'] }),
    ).toMatchObject({ status: 400 })
    const elsewhere = await post(
      server,
      '/api/public/subscriptions',
      { email: 'a@example.org', topics: ['alerts'] },
      {
        origin: 'https://evil.example',
      },
    )
    expect(elsewhere.status).toBe(403)
    expect(await post(server, '/api/public/subscriptions/confirm', { token: 'z'.repeat(64) })).toMatchObject({
      status: 404,
    })
  })

  test('a form posted without JavaScript gets a page', async () => {
    const answer = await call(server, '/api/public/subscriptions', {
      method: 'POST',
      auth: 'none',
      body: 'email=form%40example.org&topics=alerts&topics=events',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: siteOrigin },
    })
    expect(answer.status).toBe(202)
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/)
    expect(answer.text).toContain('Check your email')
  })

  test('with email off, subscribing is refused with 503 and what to set', async () => {
    const answer = await post(off, '/api/public/subscriptions', { email: 'ann@example.org', topics: ['alerts'] })
    expect(answer).toMatchObject({ status: 503, json: { message: expect.stringMatching(/Email is off.*alerts\.xml/) } })
    const view = await call(off, '/api/notify')
    expect(view.json).toMatchObject({ enabled: false, offReason: expect.stringMatching(/SMTP_URL/) })
  })
})

describe('unsubscribing and the operators’ view', () => {
  test('a GET leads to the site’s page; one per-topic POST keeps the rest; one-click removes the address', async () => {
    await post(server, '/api/public/subscriptions', { email: 'bob@example.org', topics: ['alerts', 'events'] })
    const mail = (await waitFor(() => smtp.received.find((r) => r.to === 'bob@example.org'), 'the confirmation')).mail
    await post(server, '/api/public/subscriptions/confirm', { token: tokenIn(mail.text!, 'confirm') })
    const token = tokenIn(mail.text!, 'unsubscribe')

    const look = await fetch(`${server.url}/api/public/unsubscribe?token=${token}`, { redirect: 'manual' })
    expect(look.status).toBe(303)
    expect(look.headers.get('location')).toBe(`${siteOrigin}/notify/unsubscribe?token=${token}`)
    expect(await call(server, '/api/notify')).toMatchObject({ json: { counts: { alerts: 2, events: 1 } } })

    expect(await post(server, `/api/public/unsubscribe`, { token, topics: ['events'] })).toMatchObject({
      status: 200,
      json: { status: 'unsubscribed', topics: ['alerts'] },
    })
    // A mail program's one-click: a form POST of List-Unsubscribe=One-Click, from no site.
    const oneClick = await call(server, `/api/public/unsubscribe?token=${token}`, {
      method: 'POST',
      auth: 'none',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(oneClick.status).toBe(200)
    expect(await call(server, '/api/notify')).toMatchObject({ json: { counts: { alerts: 1, events: 0 } } })
  })

  test('publishing an alert through the API sends it; the delivery says so', async () => {
    const created = await call(server, '/api/alerts', {
      method: 'POST',
      body: { title: 'Boil water notice', level: 'emergency', kind: 'water', body: 'Boil tap water.', publish: true },
    })
    expect(created.status).toBe(201)
    const id = created.json.alert.id as string
    const email = await waitFor(
      () => smtp.received.find((r) => r.mail.subject === 'Emergency: Boil water notice'),
      'the alert email',
    )
    expect(email.to).toBe('ann@example.org')
    const view = await waitFor(async () => {
      const answer = await call(server, '/api/notify')
      return answer.json.delivery.alerts.find(
        (d: { alert_id: string; sent: number }) => d.alert_id === id && d.sent === 1,
      )
    }, 'the delivery to be recorded')
    expect(view).toMatchObject({ kind: 'alert', total: 1, sent: 1, failed: 0 })
  })

  test('an admin finds and deletes one address; an editor may not', async () => {
    await addTestOperator(server, 'editor@example.org', 'editor')
    const editor = await signIn(server, 'editor@example.org')
    expect(
      (
        await call(server, '/api/notify/subscribers?email=ann@example.org', {
          auth: 'none',
          headers: { cookie: editor },
        })
      ).status,
    ).toBe(403)
    const found = await call(server, '/api/notify/subscribers?email=ANN@example.org')
    expect(found.json.subscriber).toMatchObject({ email: 'ann@example.org', status: 'confirmed' })
    const deleted = await call(server, `/api/notify/subscribers/${found.json.subscriber.id}`, { method: 'DELETE' })
    expect(deleted.status).toBe(200)
    expect((await call(server, '/api/notify/subscribers?email=ann@example.org')).json.subscriber).toBeNull()
  })
})
