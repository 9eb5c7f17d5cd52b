import { readMailConfig } from '../src/notify/config.ts'
import { sendOutbox } from '../src/notify/send.ts'
import { openEmbeddedStore } from '../src/store/embedded.ts'
import { startSmtpServer } from '../test/support/smtp-server.ts'
import { countsFromEnv, measure, table } from './measure.ts'

// "Notify me" (issue 48): queueing an alert for 10,000 confirmed subscribers (publishing it: one
// insert ... select in the publishing transaction, by trigger; target under two seconds), then
// sending a part of that outbox to a local SMTP server (smtp-server, every message parsed) over
// the pooled transport: messages a second. ROLAND_BENCH_NOTIFY_SUBSCRIBERS and
// ROLAND_BENCH_NOTIFY_SEND change the counts (default 10000 and 1000).

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const [subscribers] = countsFromEnv('ROLAND_BENCH_NOTIFY_SUBSCRIBERS', '10000')
  const [toSend] = countsFromEnv('ROLAND_BENCH_NOTIFY_SEND', '1000')
  const store = await openEmbeddedStore()
  const smtp = await startSmtpServer()
  try {
    await store.db.exec(`insert into subscribers (email, topics, status, confirmed_at)
      select 'resident' || n || '@example.org', '{alerts}', 'confirmed', now() from generate_series(1, ${subscribers}) n`)
    const [{ id }] = (
      await store.db.query<{ id: string }>(`insert into alerts (title, body, level, kind)
        values ('Boil water notice', 'Boil tap water for **one minute**.', 'emergency', 'water') returning id`)
    ).rows as [{ id: string }]
    const queue = await measure(() => store.db.query(`update alerts set status = 'published' where id = $1`, [id]))
    const queued = (await store.db.query<{ n: number }>(`select count(*)::int as n from outbox`)).rows[0]!.n

    // Only the first toSend messages are due: the rest wait for later.
    await store.db.exec(
      `update outbox set next_attempt_at = now() + interval '1 day' where id > (select min(id) + ${toSend! - 1} from outbox)`,
    )
    const config = readMailConfig({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'alerts@roland.example',
      MAIL_RATE: String(1_000_000),
      SITE_URL: 'https://roland.example',
      PUBLIC_NOTIFY_URL: 'https://console.roland.example/api/public/subscriptions',
    })!
    const send = await measure(() => sendOutbox({ store, config, batch: 200 }))
    await smtp.waitFor(send.result.sent)
    table([
      {
        subscribers: subscribers!,
        'queued by publishing': queued,
        'queue (s)': queue.seconds.toFixed(2),
        sent: send.result.sent,
        'send (s)': send.seconds.toFixed(2),
        'messages/s': (send.result.sent / send.seconds).toFixed(0),
        'SMTP connections': smtp.peakConnections,
        'peak RSS (MB)': send.peakRssMb,
      },
    ])
  } finally {
    await smtp.close()
    await store.close()
  }
}
