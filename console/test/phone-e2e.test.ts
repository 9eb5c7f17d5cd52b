import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { axeViolations, preloadAxe } from '../../test/support/axe.ts'
import { launchBrowser } from '../../test/support/browser.ts'
import { ensureAppBuilt } from '../src/server/build-app.ts'
import { publicSubmissionsPath } from '../src/server/public-submissions.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { addTestOperator, call, startTestConsole, tempDataDir, testPassword, waitForJob } from './support/console.ts'
import { sideways } from './support/fits.ts'

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
// Every screen and editor, each measured and audited: the longest test.
const everyScreen = { timeout: 900_000 }

/**
 * The page's width beyond the phone's, in CSS pixels (0 when nothing scrolls sideways); not the
 * window's, which grows with the page when the phone zooms out to show it whole.
 */
const overflow = async () => (await page.evaluate(() => document.documentElement.scrollWidth)) - phoneWidth

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

/**
 * The buttons that open a screen's editors, in the order tried: the first that makes a new row
 * ("New event") and the first that edits one ("Edit", "Edit /contact", "Edit, then accept").
 */
const editorButtons = [/^New\b/, /^Edit\b/]

/** Editors tried after those: a page with list entries (the first page, the home page, has none). */
const moreEditorsOf = new Map([['Pages', [/^Edit \/community\/emergency$/]]])

/**
 * How many editors the screens known today must open: the test fails if one stops opening. The
 * Town settings, the operators' add form and a feed's form are always open.
 */
const editorsOf = new Map([
  ['Businesses', 2],
  ['Events', 2],
  ['Attractions', 2],
  ['Pages', 2],
  ['Inbox', 1],
])

/** Describes what sticks out sideways and what axe (with its best practices) finds, each line naming `where`. */
async function problemsOf(where: string): Promise<string[]> {
  const lines = [...(await sideways(page, phoneWidth)), ...(await axeViolations(page, { bestPractice: true }))]
  return lines.map((line) => `${where}: ${line}`)
}

/**
 * Opens the screen's editors one after the other, by their buttons' names, waiting for each to show
 * (controls that were not there before) and calling `check` with its button's name while it is
 * open; returns the names. (Opening one may close another: an editing list keeps one open.)
 */
async function eachEditor(buttons: RegExp[], check: (name: string) => Promise<void>): Promise<string[]> {
  const opened: string[] = []
  for (const name of buttons) {
    const button = page.locator('main').getByRole('button', { name }).first()
    if ((await button.count()) === 0) continue
    const label = (await button.getAttribute('aria-label')) ?? (await button.innerText())
    await page.locator('main').evaluate((main) => {
      for (const control of main.querySelectorAll('input, select, textarea')) control.setAttribute('data-seen', '')
    })
    await button.click()
    await page
      .locator('main')
      .locator('input:not([data-seen]), select:not([data-seen]), textarea:not([data-seen])')
      .first()
      .waitFor()
    await screenReady()
    opened.push(label)
    await check(label)
  }
  return opened
}

/** Sends a visitor's suggestion to the public route, as the site's form does; returns its id. */
async function suggest(body: { kind: string; payload: Record<string, unknown> }): Promise<string> {
  const sent = await call(server, publicSubmissionsPath, {
    method: 'POST',
    auth: 'none',
    headers: { origin: 'http://127.0.0.1:4321' },
    body,
  })
  expect(sent.status).toBe(201)
  return sent.json.id
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
  // A feed and a second operator with a long address, so their lists have rows to fit.
  const feed = {
    name: 'Roland Elementary School',
    url: 'https://calendar.example.org/ical/roland-elementary/public/basic.ics',
  }
  expect((await call(server, '/api/feeds', { method: 'POST', body: feed })).status).toBe(201)
  await addTestOperator(server, 'events.coordinator.volunteer@roland-arkansas.example.org', 'editor')
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
  await page.getByLabel('Email').waitFor()
  expect(await sideways(page, phoneWidth)).toEqual([])
  expect(await axeViolations(page, { bestPractice: true })).toEqual([])
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
  test(
    'folds the navigation behind a Menu button; every screen, with its first editors open, fits the width and passes axe with its best practices',
    everyScreen,
    async () => {
      const navigation = page.getByRole('navigation', { name: 'Screens' })
      expect(await navigation.isVisible()).toBe(false)
      expect(await page.getByRole('button', { name: /^Menu/ }).getAttribute('aria-expanded')).toBe('false')
      // Something in the Inbox, so its item's editor is tried too: an event, whose form has the widest fields.
      const suggested = await suggest({
        kind: 'event',
        payload: {
          title: 'Lakeside clean-up',
          starts_at: '2027-05-01T09:00:00-05:00',
          location: 'Roland boat ramp',
          event_type: 'Community',
        },
      })
      await page.getByRole('button', { name: /^Menu.*1 pending in the Inbox/ }).waitFor()
      // The screens the navigation offers, whatever they are: a screen added later is covered too.
      const labels = await page
        .locator('#screens-nav a')
        .evaluateAll((links) => links.map((link) => link.firstChild?.textContent ?? ''))
      expect(labels).toEqual(expect.arrayContaining([...editorsOf.keys()]))
      // Every screen is looked at before the verdict, so one run names every screen that fails.
      const problems: string[] = []
      for (const label of labels) {
        await openScreen(label)
        problems.push(...(await problemsOf(label)))
        const buttons = [...editorButtons, ...(moreEditorsOf.get(label) ?? [])]
        const opened = await eachEditor(buttons, async (editor) => {
          problems.push(...(await problemsOf(`${label}, ${editor}`)))
        })
        const expected = editorsOf.get(label) ?? 0
        if (opened.length < expected) {
          problems.push(`${label}: opened ${opened.length} editor(s) (${opened.join(', ')}), expected ${expected}`)
        }
      }
      expect(problems).toEqual([])
      // And with the menu open.
      await page.getByRole('button', { name: /^Menu/ }).click()
      await navigation.waitFor()
      expect(await problemsOf('the menu')).toEqual([])
      await page.getByRole('button', { name: /^Menu/ }).click()
      await navigation.waitFor({ state: 'hidden' })
      // The suggestion goes, so the next test counts its own.
      expect((await call(server, `/api/submissions/${suggested}/spam`, { method: 'POST' })).status).toBe(200)
      await page.waitForFunction(
        () => !/pending/.test(document.querySelector('button[aria-controls="screens-nav"]')?.textContent ?? 'pending'),
      )
    },
  )

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

describe('the Events list', () => {
  test(
    'shows the next event first, the others coming after it, and past events below, latest first',
    slow,
    async () => {
      const hour = 3_600_000
      const add = async (title: string, startsAt: number) => {
        const body = {
          title,
          starts_at: new Date(startsAt).toISOString(),
          location: 'Town hall',
          event_type: 'Community',
        }
        const { status, json } = await call(server, '/api/events', { method: 'POST', body })
        expect(status).toBe(201)
        return json.event.slug as string
      }
      // The API answers latest first; the screen puts the soonest first.
      const past = await add('Last spring fair', Date.now() - 200 * 24 * hour)
      const yesterday = await add('Yesterday’s potluck', Date.now() - 24 * hour)
      const soon = await add('Soon: town meeting', Date.now() + hour)
      await openScreen('Events')
      const listed = await page.locator('article[data-event]').evaluateAll((items) =>
        items.map((item) => ({
          slug: item.getAttribute('data-event')!,
          past: [...item.querySelectorAll('span')].some((badge) => badge.textContent === 'past'),
        })),
      )
      const slugs = listed.map((item) => item.slug)
      expect(slugs[0]).toBe(soon)
      // Everything coming, then everything past: one change from one to the other.
      const firstPast = listed.findIndex((item) => item.past)
      expect(listed.slice(firstPast).every((item) => item.past)).toBe(true)
      expect(slugs.indexOf(yesterday)).toBe(firstPast)
      expect(slugs.indexOf(past)).toBeGreaterThan(slugs.indexOf(yesterday))
    },
  )
})
