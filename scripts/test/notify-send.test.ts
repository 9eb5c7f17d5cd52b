import { execFile, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { nextStarts } from '../src/events/recurrence.ts'
import { readMailConfig, type MailConfig } from '../src/notify/config.ts'
import { confirmSubscription, subscribe } from '../src/notify/outbox.ts'
import { sendOutbox } from '../src/notify/send.ts'
import { openEmbeddedStore, type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore, freshStoreIn } from './support/fresh-store.ts'
import { startSmtpServer, type TestSmtpServer } from './support/smtp-server.ts'

// Sending "Notify me" email (issue 48) to a real SMTP server on 127.0.0.1 (smtp-server), each
// message read back with mailparser: the confirmation, the one a day, the headers and parts every
// email has, 4xx retries and 5xx failures; then `roland notify send` killed with SIGKILL
// mid-batch and run again, and `roland notify digest --dry-run --json`.

const execute = promisify(execFile)
const cli = path.join(import.meta.dirname, '..', 'src', 'cli.ts')
const siteUrl = 'http://127.0.0.1:4321'
const apiUrl = 'http://127.0.0.1:4322/api/public/subscriptions'

let smtp: TestSmtpServer
let store: EmbeddedStore
let config: MailConfig

function mailEnv(url: string): NodeJS.ProcessEnv {
  return {
    SMTP_URL: url,
    MAIL_FROM: 'news@roland.example',
    MAIL_RATE: '100000',
    SITE_URL: siteUrl,
    PUBLIC_NOTIFY_URL: apiUrl,
  }
}

beforeAll(async () => {
  smtp = await startSmtpServer()
  store = await freshStore()
  config = readMailConfig(mailEnv(smtp.url))!
})

afterAll(async () => {
  await store?.close()
  await smtp?.close()
})

beforeEach(async () => {
  smtp.received.length = 0
  await store.db.exec(
    'delete from outbox; delete from subscribers; delete from subscription_attempts; delete from alerts;',
  )
})

/** The token in a link of an email's text. */
function tokenIn(text: string, pathname: string): string {
  const match = new RegExp(`${pathname.replace(/\//g, '\\/')}\\?token=([A-Za-z0-9_-]+)`).exec(text)
  if (!match) throw new Error(`No ${pathname} link in:\n${text}`)
  return match[1]!
}

async function confirmedSubscriber(email: string, ip: string): Promise<void> {
  await subscribe(store, email, ['alerts', 'events'], ip)
  const before = smtp.received.length
  await sendOutbox({ store, config })
  const [mail] = (await smtp.waitFor(before + 1)).slice(before)
  expect(await confirmSubscription(store, tokenIn(mail!.mail.text!, '/notify/confirm'))).toMatchObject({
    status: 'confirmed',
  })
}

describe('the sender', () => {
  test('sends a confirmation with text and HTML parts, the town as sender, why, and one-click unsubscribe', async () => {
    await subscribe(store, 'ann@example.org', ['alerts'], '192.0.2.1')
    expect(await sendOutbox({ store, config })).toMatchObject({ sent: 1, failed: 0 })
    const [{ to, mail }] = (await smtp.waitFor(1)) as [{ to: string; mail: import('mailparser').ParsedMail }]
    expect(to).toBe('ann@example.org')
    expect(mail.from?.value).toEqual([{ name: 'Roland', address: 'news@roland.example' }])
    expect(mail.subject).toBe('Confirm your email for Roland')
    expect(mail.text).toMatch(/because someone entered this address on the Roland website to get town alerts/)
    expect(mail.text).toContain(`${siteUrl}/notify/confirm?token=`)
    expect(mail.text).toContain(`${siteUrl}/notify/unsubscribe?token=`)
    expect(mail.html).toContain(`href="${siteUrl}/notify/unsubscribe?token=`)
    const token = tokenIn(mail.text!, '/notify/unsubscribe')
    const header = (name: string) =>
      mail.headerLines.find((line) => line.key === name)?.line.replace(/\r\n(?=[ \t])/g, '')
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click')
    expect(header('list-unsubscribe')).toBe(
      `List-Unsubscribe: <http://127.0.0.1:4322/api/public/unsubscribe?token=${token}>`,
    )
  })

  test('ten requests for one address send one confirmation', async () => {
    for (let i = 0; i < 10; i++) await subscribe(store, 'ann@example.org', ['alerts'], `192.0.2.${10 + i}`)
    await sendOutbox({ store, config })
    await sendOutbox({ store, config })
    await smtp.waitFor(1)
    expect(await store.db.query(`select count(*)::int as n from outbox where status = 'queued'`)).toMatchObject({
      rows: [{ n: 0 }],
    })
    expect(smtp.received.map((r) => r.to)).toEqual(['ann@example.org'])
  })

  test('an alert email escapes its HTML and says what it is; the All clear follows', async () => {
    await confirmedSubscriber('ann@example.org', '192.0.2.30')
    await store.db.exec(`insert into alerts (title, body, level, status)
      values ('Boil <water> notice', 'Boil water **1 minute**. <script>alert(1)</script>', 'emergency', 'published')`)
    expect(await sendOutbox({ store, config })).toMatchObject({ sent: 1 })
    const alert = (await smtp.waitFor(2))[1]!.mail
    expect(alert.subject).toBe('Emergency: Boil <water> notice')
    expect(alert.text).toMatch(/EMERGENCY: Boil <water> notice/)
    expect(alert.text).toMatch(/because you subscribed to town alerts and the weekly events digest/)
    expect(alert.html).toContain('Boil &#60;water&#62; notice')
    expect(alert.html).toContain('<strong>1 minute</strong>')
    expect(alert.html).not.toContain('<script>')
    await store.db.exec(`update alerts set status = 'ended', all_clear = 'Tap water is safe again.'`)
    await sendOutbox({ store, config })
    const clear = (await smtp.waitFor(3))[2]!.mail
    expect(clear.subject).toBe('All clear: Boil <water> notice')
    expect(clear.text).toContain('Tap water is safe again.')
  })

  test('a 4xx is tried again later; a 5xx fails at once; three in a row stop the address', async () => {
    await confirmedSubscriber('busy@example.org', '192.0.2.40')
    await confirmedSubscriber('gone@example.org', '192.0.2.41')
    smtp.refuse('busy@example.org', 451)
    smtp.refuse('gone@example.org', 550)
    await store.db.exec(`insert into alerts (title, level, status) values ('Storm', 'advisory', 'published')`)
    const first = await sendOutbox({ store, config })
    expect(first).toMatchObject({ sent: 0, retried: 1, failed: 1 })
    expect(first.errors[0]!.error).toMatch(/^550/)
    // The server takes it now; the retry waits for its time.
    smtp.refuse('busy@example.org', null)
    expect(await sendOutbox({ store, config })).toMatchObject({ sent: 0, retried: 0 })
    await store.db.exec(`update outbox set next_attempt_at = now() where status = 'queued'`)
    expect(await sendOutbox({ store, config })).toMatchObject({ sent: 1 })
    expect(smtp.received.at(-1)!.to).toBe('busy@example.org')

    for (const title of ['Two', 'Three']) {
      await store.db.exec(`insert into alerts (title, level, status) values ('${title}', 'notice', 'published')`)
      await sendOutbox({ store, config })
    }
    const { rows } = await store.db.query(
      `select email, hard_failures, stopped_at is not null as stopped from subscribers order by email`,
    )
    expect(rows).toEqual([
      { email: 'busy@example.org', hard_failures: 0, stopped: false },
      { email: 'gone@example.org', hard_failures: 3, stopped: true },
    ])
    await store.db.exec(`insert into alerts (title, level, status) values ('Four', 'notice', 'published')`)
    const { rows: queued } = await store.db.query(
      `select s.email from outbox o join subscribers s on s.id = o.subscriber_id where o.status = 'queued'`,
    )
    expect(queued).toEqual([{ email: 'busy@example.org' }])
  })
})

describe('roland notify', () => {
  let dataDir: string
  let slow: TestSmtpServer

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'roland-notify-cli-'))
    await (await freshStoreIn(dataDir)).close()
    slow = await startSmtpServer({ holdMs: 40 })
  })

  afterAll(async () => {
    await slow?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  function env(): NodeJS.ProcessEnv {
    return { ...process.env, SUPABASE_URL: '', ROLAND_DATA_DIR: dataDir, ...mailEnv(slow.url) }
  }

  async function withDataStore<T>(work: (s: EmbeddedStore) => Promise<T>): Promise<T> {
    const opened = await openEmbeddedStore({ dir: dataDir })
    try {
      return await work(opened)
    } finally {
      await opened.close()
    }
  }

  test('a sender killed mid-batch and run again delivers every message, and none recorded as sent twice', async () => {
    const count = 60
    await withDataStore((s) =>
      s.db.exec(`
        insert into subscribers (email, topics, status, confirmed_at)
          select 'resident' || n || '@example.org', '{alerts}', 'confirmed', now() from generate_series(1, ${count}) n;
        insert into alerts (title, level, status) values ('Boil water', 'emergency', 'published');`),
    )
    const child = spawn(process.execPath, [cli, 'notify', 'send', '--json'], { env: env(), stdio: 'ignore' })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    await slow.waitFor(10, 60_000)
    child.kill('SIGKILL')
    await exited
    const before = await withDataStore(
      async (s) => (await s.db.query<{ id: number; status: string }>(`select id, status from outbox order by id`)).rows,
    )
    const sentBefore = before.filter((row) => row.status === 'sent').map((row) => row.id)
    expect(sentBefore.length).toBeGreaterThan(0)
    expect(sentBefore.length).toBeLessThan(count)
    expect(before.some((row) => row.status === 'sending')).toBe(true)

    const { stdout } = await execute(process.execPath, [cli, 'notify', 'send', '--json'], { env: env() })
    const summary = JSON.parse(stdout) as { sent: number; released: number; failed: number }
    expect(summary.released).toBeGreaterThan(0)
    expect(summary.failed).toBe(0)
    const after = await withDataStore(
      async (s) => (await s.db.query<{ id: number; status: string }>(`select id, status from outbox order by id`)).rows,
    )
    expect(after.every((row) => row.status === 'sent')).toBe(true)

    const deliveries = new Map<number, number>()
    for (const { mail } of slow.received) {
      const id = Number(/outbox-(\d+)@/.exec(mail.messageId ?? '')?.[1])
      deliveries.set(id, (deliveries.get(id) ?? 0) + 1)
    }
    for (const row of after) expect(deliveries.get(row.id), `message ${row.id}`).toBeGreaterThanOrEqual(1)
    for (const id of sentBefore) expect(deliveries.get(id), `message ${id}, recorded as sent before the kill`).toBe(1)
  }, 180_000)

  test('digest --dry-run --json lists a recurring event’s next date for an events subscriber', async () => {
    const zone = 'America/Chicago'
    const firstStart = new Date(Date.now() - 9 * 86_400_000).toISOString()
    await withDataStore(async (s) => {
      await s.db.exec(`insert into subscribers (email, topics, status, confirmed_at)
        values ('weekly@example.org', '{events}', 'confirmed', now())`)
      await s.db.query(
        `insert into community_events (slug, title, starts_at, location, event_type, rrule)
           values ('quilting-circle', 'Quilting circle', $1, 'Library', 'Social', 'FREQ=WEEKLY')`,
        [firstStart],
      )
    })
    const { stdout } = await execute(process.execPath, [cli, 'notify', 'digest', '--dry-run', '--json'], { env: env() })
    const digest = JSON.parse(stdout) as {
      recipients: string[]
      events: Array<{ title: string; starts_at: string; url: string }>
    }
    const [next] = nextStarts({ starts_at: firstStart, ends_at: null, rrule: 'FREQ=WEEKLY' }, new Date(), 1, zone)
    expect(digest.recipients).toContain('weekly@example.org')
    expect(digest.events).toContainEqual(
      expect.objectContaining({
        title: 'Quilting circle',
        starts_at: next,
        url: expect.stringContaining('/events#quilting-circle-'),
      }),
    )
  }, 120_000)
})
