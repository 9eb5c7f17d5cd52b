import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { axeViolations, preloadAxe } from '../../test/support/axe.ts'
import { launchBrowser } from '../../test/support/browser.ts'
import { ensureAppBuilt } from '../src/server/build-app.ts'
import { publicSubmissionsPath } from '../src/server/public-submissions.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { addTestOperator, call, startTestConsole, tempDataDir, testPassword, waitForJob } from './support/console.ts'

// The console on a phone (issue 43): the webhook's message lands on a volunteer's phone and they
// open the Inbox there. At 390 px wide no screen is wider than the viewport, the navigation folds
// behind a Menu button, the Inbox's comparison stacks its fields, and Needs attention works, with
// no sideways scrolling. Every screen passes axe. The built app in Chromium, the real server and
// embedded Postgres (the sample Roland.txt).

const phoneWidth = 390

let data: Awaited<ReturnType<typeof tempDataDir>>
let server: ConsoleServer
let browser: Browser
let page: Page
let business: { id: string; slug: string; name: string; phone: string }

// Chromium and the console share the machine with other suites: generous limits, never asserted.
const slow = { timeout: 300_000 }

/** The page's width beyond the viewport's, in CSS pixels (0 when nothing scrolls sideways). */
const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)

/** Waits until the screen shows its heading and has loaded what it shows. */
async function screenReady(): Promise<void> {
  await page.waitForFunction(() => {
    const main = document.querySelector('main')
    return main?.querySelector('h1, h2') && !/Loading/.test(main.textContent ?? '')
  })
}

/** Opens a screen as a volunteer does on a phone: Menu, then the screen's link. */
async function openScreen(label: string | RegExp): Promise<void> {
  const menu = page.getByRole('button', { name: /^Menu/ })
  await menu.click()
  expect(await menu.getAttribute('aria-expanded')).toBe('true')
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: label }).click()
  // Choosing a screen folds the menu again.
  await page.getByRole('navigation', { name: 'Screens' }).waitFor({ state: 'hidden' })
  await screenReady()
}

beforeAll(async () => {
  await ensureAppBuilt()
  data = await tempDataDir('roland-console-phone-')
  server = await startTestConsole({ dataDir: data.dir, serveApp: true })
  await addTestOperator(server, 'webmaster@example.org', 'admin')
  const { json } = await call(server, '/api/businesses')
  business = json.businesses.find((row: { is_active: boolean; phone: string | null }) => row.is_active && row.phone)
  // Findings for Needs attention: the sample's websites are .example addresses nobody answers for.
  const started = await call(server, '/api/jobs/check', { method: 'POST' })
  expect((await waitForJob(server, started.json.job.id)).status).toBe('succeeded')
  browser = await launchBrowser()
  const context = await browser.newContext({
    viewport: { width: phoneWidth, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  })
  page = await context.newPage()
  page.setDefaultTimeout(90_000)
  await preloadAxe(page)
  await page.goto(`${server.url}/today`)
  expect(await overflow()).toBeLessThanOrEqual(0)
  await page.getByLabel('Email').fill('webmaster@example.org')
  await page.getByLabel('Password').fill(testPassword)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Today', level: 1 }).waitFor()
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await data?.remove()
})

describe('the console at 390 px wide, in Chromium', () => {
  test('folds the navigation behind a Menu button; every screen fits the width and passes axe', slow, async () => {
    const navigation = page.getByRole('navigation', { name: 'Screens' })
    expect(await navigation.isVisible()).toBe(false)
    expect(await page.getByRole('button', { name: /^Menu/ }).getAttribute('aria-expanded')).toBe('false')
    const labels = await page
      .locator('#screens-nav a')
      .evaluateAll((links) => links.map((link) => link.firstChild?.textContent ?? ''))
    expect(labels).toContain('Inbox')
    expect(labels).toContain('Operators')
    // Every screen is looked at before the verdict, so one run names every screen that fails.
    const problems: string[] = []
    for (const label of labels) {
      await openScreen(label)
      const wider = await overflow()
      if (wider !== 0) problems.push(`${label}: ${wider} px wider than the screen`)
      for (const violation of await axeViolations(page)) problems.push(`${label}: ${violation}`)
    }
    expect(problems).toEqual([])
    // And with the menu open.
    await page.getByRole('button', { name: /^Menu/ }).click()
    await navigation.waitFor()
    expect(await overflow()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole('button', { name: /^Menu/ }).click()
    await navigation.waitFor({ state: 'hidden' })
  })

  test('accepts a suggested edit in the Inbox: the change first, stacked, the rest folded', slow, async () => {
    const sent = await call(server, publicSubmissionsPath, {
      method: 'POST',
      auth: 'none',
      headers: { origin: 'http://127.0.0.1:4321' },
      body: { kind: 'business-update', payload: { business: business.slug, phone: '(501) 555-0188' } },
    })
    expect(sent.status).toBe(201)
    // The count reaches the folded navigation's Menu button, live.
    await page.getByRole('button', { name: /^Menu.*1 pending in the Inbox/ }).waitFor()
    await openScreen(/^Inbox/)
    const card = page.locator(`li[data-submission="${sent.json.id}"]`)
    await card.waitFor()

    // The phone changes: its row comes first, its values one under the other.
    const phone = card.locator('tr[data-field="phone"]')
    expect(await phone.getAttribute('data-changes')).toBe('true')
    expect(await phone.isVisible()).toBe(true)
    const [now, suggested] = await phone
      .locator('td')
      .evaluateAll((cells) => cells.slice(0, 2).map((cell) => cell.getBoundingClientRect()))
    expect(suggested!.top).toBeGreaterThanOrEqual(now!.bottom)
    expect(await phone.textContent()).toContain(business.phone)
    expect(await phone.textContent()).toContain('(501) 555-0188')

    // The fields that stay are folded under it.
    const name = card.locator('tr[data-field="name"]')
    expect(await name.getAttribute('data-changes')).toBe('false')
    expect(await name.isVisible()).toBe(false)
    await card.getByText('9 fields stay as listed').click()
    await name.waitFor()
    expect(await overflow()).toBe(0)
    expect(await axeViolations(page)).toEqual([])

    await card.getByRole('button', { name: 'Accept', exact: true }).click()
    await page.getByText(`Accepted: Suggested edit to ${business.name}`).waitFor()
    await card.waitFor({ state: 'detached' })
    expect((await call(server, `/api/businesses/${business.id}`)).json.business.phone).toBe('(501) 555-0188')
    expect(await overflow()).toBe(0)
  })

  test('Needs attention: dismisses a finding and restores it, with no sideways scrolling', slow, async () => {
    await openScreen('Needs attention')
    const section = page.locator('section[data-kind="no-photo"]')
    const first = section.locator('li').first()
    const slug = await first.getAttribute('data-business')
    const listed = section.locator(`li[data-business="${slug}"]`)
    const name = (await listed.locator('span.font-semibold').first().textContent())!
    expect(await overflow()).toBe(0)

    await listed.getByRole('button', { name: `Dismiss ${name}: not a problem` }).click()
    await listed.waitFor({ state: 'detached' })
    const dismissed = page.getByTestId('dismissed')
    await dismissed.getByText(/Dismissed as false positives/).click()
    const restore = dismissed.getByRole('button', { name: `Restore ${name}: No photo` })
    await restore.waitFor()
    expect(await overflow()).toBe(0)
    expect(await axeViolations(page)).toEqual([])

    await restore.click()
    await page.getByText(`${name}: "No photo" shows again`).waitFor()
    await listed.waitFor()
    expect(await overflow()).toBe(0)
  })
})
