import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startSmtpServer, type TestSmtpServer } from '../../scripts/test/support/smtp-server.ts'
import { launchBrowser } from '../../test/support/browser.ts'
import { buildSite, builtPages } from '../../test/support/build-site.ts'
import { ensureXmllint, validateAgainstSchema } from '../../test/support/cap-validator.ts'
import { serveStatic, type StaticServer } from '../../test/support/static-server.ts'
import { ensureAppBuilt } from '../src/server/build-app.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import {
  addTestOperator,
  call,
  freePort,
  signInInBrowser,
  startTestConsole,
  tempDataDir,
  waitFor,
} from './support/console.ts'

// Issue 48's "Done when", end to end, with a real SMTP server in the test (smtp-server, read with
// mailparser): a resident subscribes through the built site's form in Chromium and confirms from
// the email's link; an editor publishes an emergency on the console's Alerts screen in Chromium
// (the form, "Publish now", later "All clear"); the rebuilt site has the banner on every
// page, the alert in /alerts.xml and a CAP file the OASIS CAP 1.2 schema accepts (xmllint); one
// email arrives with the one-click headers. After a one-click unsubscribe POST and the "All clear",
// no further email comes, and the banner is gone.

const editor = 'clerk@example.org'
const resident = 'resident@example.org'
const slow = { timeout: 600_000 }

let browser: Browser
let smtp: TestSmtpServer
let server: ConsoleServer
let site: StaticServer
let outDir: string
const cleanups: Array<() => Promise<unknown>> = []

/** Waits for the rebuild a change queued, and says it succeeded. */
async function rebuilt(before: Set<string>): Promise<void> {
  const { scheduler } = server.services
  const job = await waitFor(
    async () => {
      if (scheduler.state.pending || scheduler.state.running) return undefined
      return (await server.services.jobs.list(50)).find(
        (j) => j.kind === 'rebuild' && !before.has(j.id) && j.finished_at,
      )
    },
    'the rebuild',
    500_000,
  )
  expect(job.status, JSON.stringify({ error: job.error, log: job.log.slice(-8) })).toBe('succeeded')
}

async function jobIds(): Promise<Set<string>> {
  return new Set((await server.services.jobs.list(50)).map((job) => job.id))
}

/** The built pages whose banner shows the alert, out of all of them (redirects aside). */
async function pagesWithBanner(id: string): Promise<{ with: number; of: number }> {
  let count = 0
  let of = 0
  for (const file of await builtPages(outDir)) {
    const html = await readFile(file, 'utf8')
    // The old addresses that only redirect (/businesses/dining…) are not pages.
    if (/<meta http-equiv="refresh"/i.test(html)) continue
    of++
    // The banner, not /alerts and the alert's own page, which list it after it ended too.
    const banner = /<section aria-label="Alerts">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? ''
    if (banner.includes(`data-alert="${id}"`)) count++
  }
  return { with: count, of }
}

beforeAll(async () => {
  ensureXmllint()
  await ensureAppBuilt()
  browser = await launchBrowser()
  cleanups.push(() => browser.close())
  smtp = await startSmtpServer()
  cleanups.push(() => smtp.close())
  const data = await tempDataDir('roland-notify-e2e-')
  cleanups.push(() => data.remove())
  const root = await mkdtemp(path.join(os.tmpdir(), 'roland-notify-e2e-site-'))
  cleanups.push(() => rm(root, { recursive: true, force: true }))
  outDir = path.join(root, 'dist')
  site = await serveStatic(outDir)
  cleanups.push(() => site.close())
  const port = await freePort()
  const env = {
    PORT: String(port),
    SITE_URL: site.url,
    ROLAND_OUT_DIR: outDir,
    PUBLIC_NOTIFY_URL: `http://127.0.0.1:${port}/api/public/subscriptions`,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'alerts@roland.example',
    // The sender goes when told (a subscription, an alert); the site's builds get the database between.
    ROLAND_NOTIFY_POLL_MS: '600000',
  }
  server = await startTestConsole({ dataDir: data.dir, serveApp: true, env })
  cleanups.push(() => server.close())
  await addTestOperator(server, editor, 'editor')
  const build = await buildSite({ outDir, dataDir: data.dir, siteUrl: site.url, env })
  if (build.code !== 0) throw new Error(`The site did not build:\n${build.output}`)
}, 600_000)

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

describe('Notify me, end to end', () => {
  test(
    'subscribe on the site, confirm, an emergency by email and on every page, one-click unsubscribe, All clear',
    slow,
    async () => {
      // A resident subscribes through the site's form, in Chromium.
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
      cleanups.push(() => context.close())
      const visitor = await context.newPage()
      visitor.setDefaultTimeout(60_000)
      await visitor.goto(`${site.url}/notify`)
      await visitor.getByLabel('Your email address').fill(resident)
      await visitor.getByRole('button', { name: 'Notify me' }).click()
      // The form wakes on first touch (client:interact): a click before it woke posts the plain form
      // and the console's answer page says so; after, the island says it in place. Both as a status.
      await visitor.getByRole('status').filter({ hasText: 'Check your email' }).waitFor()

      // The confirmation email's link opens the site's page; its button confirms.
      const [confirmation] = await smtp.waitFor(1)
      expect(confirmation!.to).toBe(resident)
      const link = /(http:\/\/\S+\/notify\/confirm\?token=[A-Za-z0-9_-]+)/.exec(confirmation!.mail.text!)![1]!
      expect(link.startsWith(`${site.url}/notify/confirm?token=`)).toBe(true)
      await visitor.goto(link)
      expect(await call(server, '/api/notify')).toMatchObject({ json: { counts: { alerts: 0, pending: 1 } } })
      await visitor.getByRole('button', { name: 'Confirm' }).click()
      await visitor.getByRole('status').filter({ hasText: 'Confirmed' }).waitFor()
      expect(await call(server, '/api/notify')).toMatchObject({ json: { counts: { alerts: 1, pending: 0 } } })

      // The clerk publishes an emergency from the console's Alerts screen, as on any morning.
      const console = await browser.newContext({ viewport: { width: 1200, height: 900 } })
      cleanups.push(() => console.close())
      const clerk = await console.newPage()
      clerk.setDefaultTimeout(90_000)
      await signInInBrowser(clerk, `${server.url}/alerts`, editor)
      await clerk.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor()
      const form = clerk.locator('section', { has: clerk.getByRole('heading', { name: 'New alert' }) })
      await form.getByLabel('Title').fill('Boil water notice')
      await form.getByLabel('Level').selectOption('emergency')
      await form.getByLabel('Kind').selectOption('water')
      await form.getByLabel('Text (Markdown)').fill('Boil tap water for **one minute** before drinking.')
      const before = await jobIds()
      await form.getByRole('button', { name: 'Publish now' }).click()
      // It shows on top, with its All clear.
      const onSite = clerk.locator('section', { has: clerk.getByRole('heading', { name: 'On the site now' }) })
      const card = onSite.locator('article[data-alert]', { hasText: 'Boil water notice' })
      await card.getByRole('button', { name: 'All clear' }).waitFor()
      const id = (await card.getAttribute('data-alert'))!
      expect((await call(server, '/api/alerts')).json.alerts).toEqual([
        expect.objectContaining({
          id,
          title: 'Boil water notice',
          level: 'emergency',
          kind: 'water',
          status: 'published',
          body: 'Boil tap water for **one minute** before drinking.',
        }),
      ])

      // One email, with the headers of RFC 8058.
      const [, alertMail] = await smtp.waitFor(2)
      expect(alertMail!.to).toBe(resident)
      expect(alertMail!.mail.subject).toBe('Emergency: Boil water notice')
      const header = (name: string) =>
        alertMail!.mail.headerLines.find((line) => line.key === name)?.line.replace(/\r\n(?=[ \t])/g, '')
      const oneClick =
        /^List-Unsubscribe: <(http:\/\/127\.0\.0\.1:\d+\/api\/public\/unsubscribe\?token=[A-Za-z0-9_-]+)>$/.exec(
          header('list-unsubscribe') ?? '',
        )?.[1]
      expect(oneClick, header('list-unsubscribe')).toBeDefined()
      expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click')
      expect(alertMail!.mail.text).toContain(`${site.url}/notify/unsubscribe?token=`)

      // The rebuilt site: the banner on every page, the alert in the Atom feed and a valid CAP file.
      await rebuilt(before)
      const banner = await pagesWithBanner(id)
      expect(banner.with).toBe(banner.of)
      expect(await readFile(path.join(outDir, 'alerts.xml'), 'utf8')).toContain('Boil water notice')
      const cap = path.join(outDir, 'alerts', `${id}.cap.xml`)
      expect(await validateAgainstSchema([cap])).toBe('')
      await visitor.goto(`${site.url}/`)
      expect(await visitor.locator(`[data-alert="${id}"]`).textContent()).toContain('Boil water notice')

      // The mail program's one-click unsubscribe, then the All clear.
      const unsubscribed = await fetch(oneClick!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      })
      expect(unsubscribed.status).toBe(200)
      // The clerk comes back to the screen for the all clear (the alert as it is now, not as published).
      await clerk.reload()
      await card.getByRole('button', { name: 'All clear' }).waitFor()
      const beforeEnd = await jobIds()
      await card.getByRole('button', { name: 'All clear' }).click()
      await card.getByLabel('All clear message (optional)').fill('The water is safe to drink again.')
      await card.getByRole('button', { name: 'Give the all clear' }).click()
      // Under History now, marked all clear.
      await clerk.locator(`article[data-alert="${id}"]`).getByText('all clear', { exact: true }).waitFor()
      expect((await call(server, '/api/alerts')).json.alerts).toEqual([
        expect.objectContaining({ id, status: 'ended', all_clear: 'The water is safe to drink again.' }),
      ])
      await rebuilt(beforeEnd)
      expect((await pagesWithBanner(id)).with).toBe(0)
      // The sender has looked at the outbox since the end: nothing was queued for the address that left.
      server.services.notify.kick()
      await server.services.notify.idle()
      const view = await call(server, '/api/notify')
      expect(view.json.delivery.queued).toBe(0)
      expect(view.json.delivery.alerts).toEqual([
        expect.objectContaining({ alert_id: id, kind: 'alert', sent: 1, total: 1 }),
      ])
      // The Alerts screen, opened again, says so under the alert.
      await clerk.reload()
      const delivered = clerk.locator(`article[data-alert="${id}"]`).getByTestId('alert-delivery')
      await expect(delivered.textContent()).resolves.toBe('By email: sent 1 of 1')
      expect(smtp.received).toHaveLength(2)
    },
  )
})
