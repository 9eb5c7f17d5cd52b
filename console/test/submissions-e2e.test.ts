import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createRow } from '@roland/scripts/content/edit'
import { automationActor } from '@roland/scripts/operators/schema'
import type { EmbeddedStore } from '@roland/scripts/store/embedded'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { freshStore } from '../../scripts/test/support/fresh-store.ts'
import {
  publicSqlFunctions,
  sqlFunctions,
  startSupabaseStandIn,
  type SupabaseStandIn,
} from '../../scripts/test/support/supabase-stand-in.ts'
import { launchBrowser } from '../../test/support/browser.ts'
import { buildSite } from '../../test/support/build-site.ts'
import { serveStatic, type StaticServer } from '../../test/support/static-server.ts'
import { ensureAppBuilt } from '../src/server/build-app.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import {
  addTestOperator,
  call,
  operatorsCli,
  startTestConsole,
  tempDataDir,
  testPassword,
  waitFor,
  freePort,
} from './support/console.ts'

// Visitors' suggestions end to end (issue 27), in Chromium, from the built site: a visitor suggests
// a new phone number for a business and submits an event through the site's forms; an editor finds
// both in the console's Inbox and accepts them; the rebuilt site shows them, and the business's history
// names the editor and the submission. The real console and a real local site build, on each
// store: the embedded one (the forms post to the console's public route), and a Supabase project
// (the stand-in, over a real Postgres: the forms call the submit_suggestion RPC with the
// publishable key, and the console and the builds read and write through its REST API).

const editor = 'volunteer@example.org'
const newPhone = '(501) 555-0188'

// Chromium, the console and two local site builds share the machine with other suites: generous limits, never asserted.
const slow = { timeout: 500_000 }

let browser: Browser
const cleanups: Array<() => Promise<unknown>> = []

beforeAll(async () => {
  await ensureAppBuilt()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** Where the site is built and served from. */
async function siteFolder(): Promise<{ outDir: string; site: StaticServer }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'roland-submissions-site-'))
  cleanups.push(() => rm(root, { recursive: true, force: true }))
  const outDir = path.join(root, 'dist')
  const site = await serveStatic(outDir)
  cleanups.push(() => site.close())
  return { outDir, site }
}

/** A visitor's page, on a clock the test moves: the forms refuse to send within seconds of opening. */
async function visitorPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  cleanups.push(() => context.close())
  const page = await context.newPage()
  page.setDefaultTimeout(60_000)
  await page.clock.install()
  return page
}

/** Opens a suggestion form on a page of the site and waits for it to hydrate. */
async function openForm(page: Page, url: string, kind: string, label: string) {
  await page.goto(url)
  const box = page.locator(`[data-suggestion="${kind}"]`)
  await box.getByText(label, { exact: true }).click()
  const form = box.locator('form')
  await form.waitFor()
  return form
}

/** A business the flow changes: as the API lists it. */
interface Business {
  id: string
  slug: string
  name: string
  phone: string
}

/** The visitor's half: a new phone number on the business page, then an event on /events. */
async function visitorSuggests(siteUrl: string, business: Business): Promise<Page> {
  const visitor = await visitorPage()
  const edit = await openForm(visitor, `${siteUrl}/business/${business.slug}`, 'business-update', 'Suggest an edit')
  expect(await edit.getByLabel('Phone', { exact: true }).inputValue()).toBe(business.phone)
  await edit.getByLabel('Phone', { exact: true }).fill(newPhone)
  await edit.getByLabel('What changed, and how do you know?').fill('They changed numbers in the spring.')
  await visitor.clock.fastForward(5000)
  await edit.getByRole('button', { name: 'Send suggestion' }).click()
  await visitor.locator('[data-suggestion-sent]').waitFor()

  const event = await openForm(visitor, `${siteUrl}/events`, 'event', 'Submit an event')
  await event.getByLabel('Title').fill('Church Bake Sale')
  await event.getByLabel('Type').selectOption('Community')
  await event.getByLabel('Starts (Roland time)').fill('2027-07-04T09:00')
  await event.getByLabel('Ends (Roland time)').fill('2027-07-04T13:00')
  await event.getByLabel('Location').fill('Roland Baptist Church hall')
  await event.getByLabel('Description').fill('Pies, cakes and bread for the food pantry.')
  await visitor.clock.fastForward(5000)
  await event.getByRole('button', { name: 'Send suggestion' }).click()
  await visitor.locator('[data-suggestion-sent]').waitFor()
  return visitor
}

/**
 * The editor's half, in the console's screens: both suggestions wait in the Inbox, the new phone
 * shown against the listing as it is and the event as the draft it would create; the editor
 * accepts both and rebuilds the site; the business's history names the editor and the submission.
 * `beforeRebuild` runs between the decisions and the rebuild.
 */
async function editorAccepts(server: ConsoleServer, business: Business, beforeRebuild?: () => Promise<void>) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } })
  cleanups.push(() => context.close())
  const page = await context.newPage()
  page.setDefaultTimeout(90_000)
  await page.goto(`${server.url}/inbox`)
  await page.getByLabel('Email').fill(editor)
  await page.getByLabel('Password').fill(testPassword)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor()
  await page.locator('[data-testid="inbox-count"]', { hasText: /^2 pending$/ }).waitFor()

  const change = page.locator('li[data-submission]').filter({ hasText: `Suggested edit to ${business.name}` })
  const phone = change.locator('tr[data-field="phone"]')
  expect(await phone.getAttribute('data-changes')).toBe('true')
  expect(await phone.textContent()).toContain(business.phone)
  expect(await phone.textContent()).toContain(newPhone)
  expect(await change.locator('tr[data-field="name"]').getAttribute('data-changes')).toBe('false')
  const changeId = await change.getAttribute('data-submission')
  const event = page.locator('li[data-submission]').filter({ hasText: 'Event: Church Bake Sale' })
  expect(await event.getByTestId('draft').textContent()).toContain('Roland Baptist Church hall')

  await change.getByRole('button', { name: 'Accept', exact: true }).click()
  await page.getByText(`Accepted: Suggested edit to ${business.name}`).waitFor()
  await change.waitFor({ state: 'detached' })
  await event.getByRole('button', { name: 'Accept', exact: true }).click()
  await page.getByText('Accepted: Event: Church Bake Sale').waitFor()
  await page.getByText('Nothing waits for a decision.').waitFor()

  // The accepted changes wait to be published, as any edit does: the editor rebuilds the site.
  await page.getByTestId('unpublished-edits').waitFor()
  await beforeRebuild?.()
  const before = new Set((await server.services.jobs.list(50)).map((job) => job.id))
  await page.getByTestId('rebuild-panel').getByRole('button', { name: 'Rebuild site' }).click()
  // The scheduler's own state, not the jobs table: reading the embedded database in a loop would
  // keep the build from opening it.
  const { scheduler } = server.services
  await waitFor(() => scheduler.state.pending || scheduler.state.running, 'the rebuild to start')
  await waitFor(() => !scheduler.state.pending && !scheduler.state.running, 'the rebuild', 400_000)
  const rebuild = (await server.services.jobs.list(50)).find((job) => job.kind === 'rebuild' && !before.has(job.id))
  expect(rebuild).toBeDefined()
  // Its error and the end of its log, when it failed, are what to look at.
  expect(rebuild!.status, JSON.stringify({ error: rebuild!.error, log: rebuild!.log.slice(-8) })).toBe('succeeded')

  // The business's history names the editor and the submission.
  await page.getByRole('link', { name: 'Businesses' }).click()
  await page.getByLabel('Filter businesses').fill(business.name)
  await page.locator(`article[data-business="${business.slug}"]`).getByRole('button', { name: 'Edit' }).click()
  const history = page.getByTestId('business-editor').getByTestId('history')
  const entry = history.locator('li').filter({ hasText: changeId! })
  await entry.waitFor()
  expect(await entry.textContent()).toContain(editor)
  expect(await entry.textContent()).toContain(newPhone)
}

/** The rebuilt site shows the new phone on the business page and the event on /events. */
async function siteShows(visitor: Page, siteUrl: string, business: Business): Promise<void> {
  await visitor.goto(`${siteUrl}/business/${business.slug}`)
  await visitor.getByRole('link', { name: newPhone }).waitFor()
  await visitor.goto(`${siteUrl}/events`)
  await visitor.getByRole('heading', { name: 'Church Bake Sale' }).waitFor()
}

describe('on the embedded store: the forms post to the console', () => {
  let server: ConsoleServer
  let siteUrl: string

  beforeAll(async () => {
    const data = await tempDataDir('roland-submissions-e2e-')
    cleanups.push(() => data.remove())
    const { outDir, site } = await siteFolder()
    siteUrl = site.url
    const port = await freePort()
    // The console's rebuilds write the site the static server serves, with the same endpoint.
    const env = {
      PORT: String(port),
      SITE_URL: site.url,
      ROLAND_OUT_DIR: outDir,
      PUBLIC_SUBMISSIONS_URL: `http://127.0.0.1:${port}/api/public/submissions`,
    }
    server = await startTestConsole({ dataDir: data.dir, serveApp: true, env })
    cleanups.push(() => server.close())
    await addTestOperator(server, editor, 'editor')
    const build = await buildSite({ outDir, dataDir: data.dir, siteUrl: site.url, env })
    if (build.code !== 0) throw new Error(`The site did not build:\n${build.output}`)
  })

  test('a new phone number and an event go from the site through the Inbox to the rebuilt site', slow, async () => {
    const { json } = await call(server, '/api/businesses')
    const business: Business = json.businesses.find(
      (b: { is_active: boolean; phone: string | null }) => b.is_active && b.phone,
    )
    const visitor = await visitorSuggests(siteUrl, business)
    await editorAccepts(server, business)
    await siteShows(visitor, siteUrl, business)
  })
})

describe('on Supabase (the stand-in): the forms call the submit_suggestion RPC', () => {
  const publishableKey = 'sb_publishable_submissions-e2e'
  const secretKey = 'sb_secret_submissions-e2e'
  let postgres: EmbeddedStore
  let standIn: SupabaseStandIn
  let server: ConsoleServer
  let siteUrl: string
  let business: Business

  /**
   * Gives the stand-in's tables the catalog as the Postgres behind it holds it now, as PostgREST
   * would read it: a build reads the catalog from the tables, the rest goes through SQL functions.
   */
  async function publishTables(): Promise<void> {
    const catalog = await postgres.loadCatalog()
    Object.assign(standIn.tables, {
      town_settings: [{ id: 1, ...catalog.town }],
      businesses: catalog.businesses,
      location_categories: catalog.categories,
      attractions: catalog.attractions.map((attraction) => ({ ...attraction, is_active: true })),
      community_events: catalog.events.map((event) => ({ ...event, is_active: true })),
      pages: catalog.pages.map((page) => ({ ...page, is_published: true })),
      alerts: catalog.alerts,
    })
  }

  beforeAll(async () => {
    postgres = await freshStore()
    cleanups.push(() => postgres.close())
    const created = await createRow(
      postgres,
      'businesses',
      {
        slug: 'roland-feed-store',
        name: 'Roland Feed Store',
        category: 'Shopping & Convenience',
        phone: '(501) 555-0142',
        address: '17 Highway 300, Roland, AR 72135',
      },
      automationActor,
    )
    if (created.status !== 'ok') throw new Error(`could not create the test business: ${JSON.stringify(created)}`)
    business = {
      id: String(created.row.id),
      slug: 'roland-feed-store',
      name: 'Roland Feed Store',
      phone: '(501) 555-0142',
    }
    const functions = [
      'create_row',
      'edit_row',
      'delete_row',
      'undo_change',
      'audit_entries',
      'content_row',
      'content_rows',
      'submission_entries',
      'submission_by_id',
      'pending_submission_count',
      'accept_submission',
      'decide_submission',
      'forget_submission_senders',
    ]
    standIn = await startSupabaseStandIn({
      publishableKey,
      secretKey,
      tables: { operators: [], operator_sessions: [], jobs: [], sign_in_failures: [] },
      privateTables: ['operators', 'operator_sessions', 'jobs', 'sign_in_failures'],
      rpc: { ...sqlFunctions(postgres, functions), ...publicSqlFunctions(postgres, ['submit_suggestion']) },
    })
    cleanups.push(() => standIn.close())
    await publishTables()

    const data = await tempDataDir('roland-submissions-supabase-')
    cleanups.push(() => data.remove())
    const { outDir, site } = await siteFolder()
    siteUrl = site.url
    const env = {
      SUPABASE_URL: standIn.url,
      SUPABASE_PUBLISHABLE_KEY: publishableKey,
      SUPABASE_SECRET_KEY: secretKey,
      SITE_URL: site.url,
      ROLAND_OUT_DIR: outDir,
      PUBLIC_SUBMISSIONS_URL: `${standIn.url}/rest/v1/rpc/submit_suggestion`,
    }
    server = await startTestConsole({ dataDir: data.dir, serveApp: true, env })
    cleanups.push(() => server.close())
    const added = await operatorsCli(['add', editor, '--role', 'editor', '--password-stdin'], {
      dataDir: data.dir,
      stdin: testPassword,
      env,
    })
    if (added.code !== 0) throw new Error(`could not add the editor: ${added.stderr}`)
    const build = await buildSite({ outDir, siteUrl: site.url, env })
    if (build.code !== 0) throw new Error(`The site did not build from the stand-in:\n${build.output}`)
  })

  test(
    'a new phone number and an event go from the site through the RPC and the Inbox to the rebuilt site',
    slow,
    async () => {
      const visitor = await visitorSuggests(siteUrl, business)
      const calls = standIn.requests.filter((r) => r.path === '/rest/v1/rpc/submit_suggestion' && r.method === 'POST')
      expect(calls.map((r) => r.headers.apikey)).toEqual([publishableKey, publishableKey])
      await editorAccepts(server, business, publishTables)
      await siteShows(visitor, siteUrl, business)
    },
  )
})
