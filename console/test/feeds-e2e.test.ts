import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { feedFixture, startFeedServer, type FeedServer } from '../../scripts/test/support/feed-server.ts'
import { axeViolations, preloadAxe } from '../../test/support/axe.ts'
import { launchBrowser } from '../../test/support/browser.ts'
import { ensureAppBuilt } from '../src/server/build-app.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import {
  addTestOperator,
  call,
  startHookReceiver,
  startTestConsole,
  tempDataDir,
  testPassword,
  waitFor,
  type HookReceiver,
} from './support/console.ts'

// The "Calendar feeds" screen (issue 40) in a real Chromium, over the real console server and
// embedded Postgres; the feeds served on 127.0.0.1 in LibCal's and Apple's shapes. A sync that
// changes events queues a rebuild (the deploy hook's stand-in counts it); a failing feed shows
// its error here and in Needs attention.

let data: Awaited<ReturnType<typeof tempDataDir>>
let server: ConsoleServer
let feeds: FeedServer
let hook: HookReceiver
let browser: Browser
let page: Page

beforeAll(async () => {
  await ensureAppBuilt()
  feeds = await startFeedServer()
  feeds.set('/library.ics', feedFixture('libcal'))
  feeds.set('/garden.ics', feedFixture('apple'))
  hook = await startHookReceiver()
  data = await tempDataDir('roland-console-feeds-')
  server = await startTestConsole({
    dataDir: data.dir,
    serveApp: true,
    env: { ROLAND_FEEDS_EVERY: 'off', ROLAND_ALLOW_PRIVATE_NETWORK: '1', REBUILD_HOOK_URL: hook.url },
  })
  await addTestOperator(server, 'coordinator@example.org', 'editor')
  browser = await launchBrowser()
  page = await (await browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage()
  page.setDefaultTimeout(120_000)
  // Loaded as an init script: the console's Content-Security-Policy refuses an injected one.
  await preloadAxe(page)
  await page.goto(server.url)
  await page.getByLabel('Email').fill('coordinator@example.org')
  await page.getByLabel('Password').fill(testPassword)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Today', level: 1 }).waitFor()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await hook?.close()
  await feeds?.close()
  await data?.remove()
})

const slow = { timeout: 300_000 }
const feedItem = (name: string) => page.locator(`li[data-feed="${name}"]`)

describe('Calendar feeds, in Chromium', () => {
  test('an editor adds a feed, syncs it, and its events queue a rebuild', slow, async () => {
    await page.getByRole('link', { name: 'Calendar feeds' }).first().click()
    await page.getByRole('heading', { name: 'Calendar feeds', level: 1 }).waitFor()
    await page.getByText('Scheduled syncs are off (ROLAND_FEEDS_EVERY=off).', { exact: false }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.getByLabel('Name').fill('Branch Library')
    await page.getByLabel('iCal address').fill(feeds.url('/library.ics'))
    await page.getByRole('button', { name: 'Add feed' }).click()
    await feedItem('Branch Library').getByText('not synced yet').waitFor()

    const hooksBefore = hook.calls.length
    await feedItem('Branch Library').getByRole('button', { name: 'Sync Branch Library now' }).click()
    await feedItem('Branch Library').getByText('3 event(s); last synced', { exact: false }).waitFor()
    // The screen with its success toast showing passes axe too.
    await page.locator('li[data-variant="default"]').first().waitFor()
    expect(await axeViolations(page)).toEqual([])
    await waitFor(() => hook.calls.length > hooksBefore, 'the rebuild the sync queued')
  })

  test('a name taken, or an address that is not http(s), is refused with what to do', slow, async () => {
    await page.getByLabel('Name').fill('Branch Library')
    await page.getByLabel('iCal address').fill(feeds.url('/garden.ics'))
    await page.getByRole('button', { name: 'Add feed' }).click()
    await page.getByText('A feed named "Branch Library" exists already', { exact: false }).waitFor()
    const bad = await call(server, '/api/feeds', { method: 'POST', body: { name: 'Garden', url: 'webcal://x/y.ics' } })
    expect(bad.status).toBe(400)
    expect(bad.json.error).toMatch(/url: give the calendar's full http\(s\) iCal address/)
  })

  test('a failing feed keeps its events, shows its error here and in Needs attention', slow, async () => {
    feeds.fail('/library.ics', 404)
    await feedItem('Branch Library').getByRole('button', { name: 'Sync Branch Library now' }).click()
    await feedItem('Branch Library').getByText('last sync failed').waitFor()
    await feedItem('Branch Library')
      .getByText(/HTTP 404/)
      .waitFor()
    await feedItem('Branch Library').getByText('3 event(s)', { exact: false }).waitFor()
    await page.getByRole('link', { name: 'Needs attention' }).first().click()
    await page
      .locator('li[data-feed="Branch Library"]')
      .getByText(/HTTP 404/)
      .waitFor()
    const { json } = await call(server, '/api/findings')
    expect(json.failingFeeds.map((feed: { name: string }) => feed.name)).toEqual(['Branch Library'])
  })

  test('removing a feed removes its events', slow, async () => {
    const { json } = await call(server, '/api/feeds')
    const id = json.feeds[0].id as string
    const removed = await call(server, `/api/feeds/${id}`, { method: 'DELETE' })
    expect(removed.json).toEqual({ removed: 'Branch Library', events: 3 })
    expect((await call(server, `/api/feeds/${id}`, { method: 'DELETE' })).status).toBe(404)
    expect((await call(server, '/api/feeds')).json.feeds).toEqual([])
  })
})
