import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launchBrowser } from '../../test/support/browser.ts'
import { buildSite } from '../../test/support/build-site.ts'
import { serveStatic, type StaticServer } from '../../test/support/static-server.ts'
import { ensureAppBuilt } from '../src/server/build-app.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { addTestOperator, call, signIn, startTestConsole, tempDataDir, waitFor } from './support/console.ts'

// Visitors' suggestions end to end (issue 27), in Chromium, from the built site: a visitor suggests
// a new phone number for a business and submits an event through the site's forms; an editor finds
// both in the console and accepts them; the rebuilt site shows them, and the business's history
// names the editor and the submission. The real console, its embedded Postgres (the sample
// Roland.txt) and a real local site build, whose forms post to the console's public route.

const endpointPath = '/api/public/submissions'
const editor = 'volunteer@example.org'

let data: Awaited<ReturnType<typeof tempDataDir>>
let root: string
let site: StaticServer
let server: ConsoleServer
let browser: Browser

/** A port of 127.0.0.1 free now: the build must know the console's address before the console starts. */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

beforeAll(async () => {
  await ensureAppBuilt()
  data = await tempDataDir('roland-submissions-e2e-')
  root = await mkdtemp(path.join(os.tmpdir(), 'roland-submissions-site-'))
  const outDir = path.join(root, 'dist')
  site = await serveStatic(outDir)
  const port = await freePort()
  // The console's rebuilds write the site the static server serves, with the same endpoint.
  const env = {
    PORT: String(port),
    SITE_URL: site.url,
    ROLAND_OUT_DIR: outDir,
    PUBLIC_SUBMISSIONS_URL: `http://127.0.0.1:${port}${endpointPath}`,
  }
  server = await startTestConsole({ dataDir: data.dir, serveApp: true, env })
  await addTestOperator(server, editor, 'editor')
  const build = await buildSite({ outDir, dataDir: data.dir, siteUrl: site.url, env })
  if (build.code !== 0) throw new Error(`The site did not build:\n${build.output}`)
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await site?.close()
  await data?.remove()
  if (root) await rm(root, { recursive: true, force: true })
})

// Chromium, the console and a local site build share the machine with other suites: generous limits, never asserted.
const slow = { timeout: 500_000 }

/** A visitor's page, on a clock the test moves: the forms refuse to send within seconds of opening. */
async function visitorPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  page.setDefaultTimeout(60_000)
  await page.clock.install()
  return page
}

/** Opens a suggestion form on a page of the site and waits for it to hydrate. */
async function openForm(page: Page, pathname: string, kind: string, label: string) {
  await page.goto(`${site.url}${pathname}`)
  const box = page.locator(`[data-suggestion="${kind}"]`)
  await box.getByText(label, { exact: true }).click()
  const form = box.locator('form')
  await form.waitFor()
  return form
}

/** The first business of the sample data with a phone number, as the API lists it. */
async function businessWithPhone(): Promise<{ id: string; slug: string; name: string; phone: string }> {
  const { json } = await call(server, '/api/businesses')
  return json.businesses.find((b: { is_active: boolean; phone: string | null }) => b.is_active && b.phone)
}

describe('a visitor suggests, an editor accepts, the site shows it', () => {
  test('a new phone number and an event go from the site through the Inbox to the rebuilt site', slow, async () => {
    const business = await businessWithPhone()
    const newPhone = '(501) 555-0188'
    expect(business.phone).not.toBe(newPhone)

    // The visitor: a new phone number on the business page.
    const visitor = await visitorPage()
    const edit = await openForm(visitor, `/business/${business.slug}`, 'business-update', 'Suggest an edit')
    expect(await edit.getByLabel('Phone', { exact: true }).inputValue()).toBe(business.phone)
    await edit.getByLabel('Phone', { exact: true }).fill(newPhone)
    await edit.getByLabel('What changed, and how do you know?').fill('They changed numbers in the spring.')
    await visitor.clock.fastForward(5000)
    await edit.getByRole('button', { name: 'Send suggestion' }).click()
    await visitor.locator('[data-suggestion-sent]').waitFor()

    // The visitor: an event on /events.
    const event = await openForm(visitor, '/events', 'event', 'Submit an event')
    await event.getByLabel('Title').fill('Church Bake Sale')
    await event.getByLabel('Type').selectOption('Community')
    await event.getByLabel('Starts (Roland time)').fill('2027-07-04T09:00')
    await event.getByLabel('Ends (Roland time)').fill('2027-07-04T13:00')
    await event.getByLabel('Location').fill('Roland Baptist Church hall')
    await event.getByLabel('Description').fill('Pies, cakes and bread for the food pantry.')
    await visitor.clock.fastForward(5000)
    await event.getByRole('button', { name: 'Send suggestion' }).click()
    await visitor.locator('[data-suggestion-sent]').waitFor()

    // The editor: both wait in the Inbox, the change shown against the listing; they accept both.
    const cookie = await signIn(server, editor)
    const asEditor = { auth: 'none' as const, headers: { cookie } }
    const { json } = await call(server, '/api/submissions?status=pending', asEditor)
    const update = json.submissions.find((s: { kind: string }) => s.kind === 'business-update')
    const submitted = json.submissions.find((s: { kind: string }) => s.kind === 'event')
    expect(update).toMatchObject({ payload: { business: business.slug, phone: newPhone } })
    expect(update.target).toMatchObject({ id: business.id, phone: business.phone })
    expect(submitted).toMatchObject({ payload: { title: 'Church Bake Sale', location: 'Roland Baptist Church hall' } })
    const rebuildsBefore = new Set(
      (await server.services.jobs.list(50)).filter((job) => job.kind === 'rebuild').map((job) => job.id),
    )
    for (const submission of [update, submitted]) {
      const accepted = await call(server, `/api/submissions/${submission.id}/accept`, { ...asEditor, method: 'POST' })
      expect(accepted.status, accepted.text).toBe(200)
    }

    // The accepted changes wait to be published, as any edit does: the editor rebuilds the site.
    expect(server.services.scheduler.state).toMatchObject({ unpublishedEdits: 2 })
    expect((await call(server, '/api/rebuild', { ...asEditor, method: 'POST' })).status).toBe(202)
    await waitFor(
      async () =>
        !server.services.scheduler.state.pending &&
        !server.services.scheduler.state.running &&
        (await server.services.jobs.list(50)).some((job) => job.kind === 'rebuild' && !rebuildsBefore.has(job.id)),
      'the rebuild after the accepted suggestions',
      400_000,
    )
    const rebuild = (await server.services.jobs.list(50)).find((job) => job.kind === 'rebuild')
    expect({ status: rebuild?.status, error: rebuild?.error, log: rebuild?.log.slice(-8) }).toMatchObject({
      status: 'succeeded',
    })

    // The rebuilt site: the new phone on the business page, the event on /events.
    await visitor.goto(`${site.url}/business/${business.slug}`)
    await visitor.getByRole('link', { name: newPhone }).waitFor()
    await visitor.goto(`${site.url}/events`)
    await visitor.getByRole('heading', { name: 'Church Bake Sale' }).waitFor()

    // The business's history names the editor and the submission.
    const history = await call(server, `/api/audit?table=businesses&row=${business.id}`, asEditor)
    const change = history.json.entries.find(
      (entry: { after: { phone?: string } | null }) => entry.after?.phone === newPhone,
    )
    expect(change).toMatchObject({ actor: editor, submission_id: update.id })
  })
})
