import { gzipSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, inject, test } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser } from '../support/browser.ts'

// Opening hours on a business page, and the "Open now" badge worked out in the browser. The
// fixture's Maumelle Smokehouse opens Thursday to Sunday 11:00–20:00 and is closed Monday to
// Wednesday; Roland Coffee House opens Monday to Friday 7:00–17:00 and says nothing about the
// weekend; Lakeside Sweets has no hours at all.

const base = inject('siteUrl')
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  browser = await launchBrowser()
})
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
})
afterAll(async () => {
  await browser?.close()
})

/**
 * Opens a business page for a visitor in a time zone whose clock reads `now`; the clock runs
 * from there, so tests can move it on.
 */
async function visit(
  slug: string,
  options: { now?: string; timezoneId?: string; javaScriptEnabled?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({
    timezoneId: options.timezoneId ?? 'Asia/Tokyo',
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  })
  contexts.push(context)
  if (options.now) await context.clock.install({ time: new Date(options.now) })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  await page.goto(new URL(`/business/${slug}`, base).href)
  await page.waitForLoadState('load')
  expect(errors).toEqual([])
  return page
}

const badge = (page: Page) => page.locator('[data-open-now]')

/** The badge's text (the page's module scripts have run by its load event), or null when it stays hidden. */
async function badgeText(page: Page): Promise<string | null> {
  return (await badge(page).isVisible()) ? badge(page).innerText() : null
}

describe('the opening-hours table', () => {
  test('lists the week from Monday, with a caption and headers for days and hours', async () => {
    const page = await visit('maumelle-smokehouse')
    const table = page.locator('aside table')
    await expect(table.locator('caption').innerText()).resolves.toBe('Opening hours by day, in Central Time')
    await expect(table.locator('thead th[scope="col"]').allTextContents()).resolves.toEqual(['Day', 'Hours'])
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.querySelector('th[scope="row"]')?.textContent, tr.querySelector('td')?.textContent]),
      )
    expect(rows).toEqual([
      ['Monday', 'Closed'],
      ['Tuesday', 'Closed'],
      ['Wednesday', 'Closed'],
      ['Thursday', '11:00 AM – 8:00 PM'],
      ['Friday', '11:00 AM – 8:00 PM'],
      ['Saturday', '11:00 AM – 8:00 PM'],
      ['Sunday', '11:00 AM – 8:00 PM'],
    ])
  })

  test('says a day without hours is not listed, rather than closed', async () => {
    const page = await visit('roland-coffee-house')
    const days = await page.locator('aside table tbody tr').allInnerTexts()
    expect(days[5]).toMatch(/^Saturday\s+Hours not listed$/)
    expect(days[6]).toMatch(/^Sunday\s+Hours not listed$/)
  })

  test('keeps its columns where they are while its rows arrive', async () => {
    // A slow page is painted before the parser has read the whole table. Were the day column as
    // wide as its longest day, the hours already drawn would move when "Wednesday" came in.
    const page = await visit('maumelle-smokehouse')
    const hoursAt = () =>
      page
        .locator('aside table tbody td')
        .first()
        .evaluate((td) => td.getBoundingClientRect().x)
    const whole = await hoursAt()
    await page.locator('aside table tbody tr').evaluateAll((rows) => rows.slice(1).forEach((row) => row.remove()))
    await expect(page.locator('aside table tbody tr').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Monday\s+Closed$/),
    ])
    await expect(hoursAt()).resolves.toBe(whole)
  })

  test('is left out, with the badge, for a business without opening hours', async () => {
    const page = await visit('lakeside-sweets')
    await expect(page.locator('main table').count()).resolves.toBe(0)
    await expect(badge(page).count()).resolves.toBe(0)
  })
})

describe('the open-now badge', () => {
  test("reads Roland's clock, not the visitor's: open at noon on a Thursday in Roland", async () => {
    // Thursday 15 January 2026, 12:00 in Roland; already 3:00 on Friday morning in Tokyo.
    const page = await visit('maumelle-smokehouse', { now: '2026-01-15T18:00:00Z' })
    await expect(page.evaluate(() => new Date().toString())).resolves.toContain('Fri Jan 16 2026 03:00')
    await expect(badgeText(page)).resolves.toBe('Open now')
    await expect(badge(page).getAttribute('data-state')).resolves.toBe('open')
  })

  test("names the next opening in Roland's days, even when the visitor is already a day ahead", async () => {
    // Wednesday 14 January, 3:00 PM in Roland: Thursday 6:00 AM in Tokyo.
    const page = await visit('maumelle-smokehouse', { now: '2026-01-14T21:00:00Z' })
    await expect(badgeText(page)).resolves.toBe('Closed · opens tomorrow 11:00 AM')
    await expect(badge(page).getAttribute('data-state')).resolves.toBe('closed')
  })

  test('counts daylight saving time: 11:30 AM in Roland on the Sunday clocks go forward', async () => {
    // 16:30 UTC is 11:30 CDT on 8 March 2026; on standard time it would still be 10:30.
    const page = await visit('maumelle-smokehouse', { now: '2026-03-08T16:30:00Z', timezoneId: 'Europe/London' })
    await expect(badgeText(page)).resolves.toBe('Open now')
  })

  test('turns from closed to open as the clock passes the opening time', async () => {
    // Thursday 15 January, 10:59:30 AM in Roland, for a visitor in Honolulu.
    const page = await visit('maumelle-smokehouse', { now: '2026-01-15T16:59:30Z', timezoneId: 'Pacific/Honolulu' })
    await expect(badgeText(page)).resolves.toBe('Closed · opens today 11:00 AM')
    await page.clock.runFor('01:00')
    await expect(badgeText(page)).resolves.toBe('Open now')
  })

  test("says only 'Closed' when the next days' hours are unknown, and nothing on a day they are unknown", async () => {
    // Friday 16 January, 6:00 PM in Roland: the coffee house has closed and says nothing about Saturday.
    const friday = await visit('roland-coffee-house', { now: '2026-01-17T00:00:00Z' })
    await expect(badgeText(friday)).resolves.toBe('Closed')
    // Saturday 17 January, noon in Roland.
    const saturday = await visit('roland-coffee-house', { now: '2026-01-17T18:00:00Z' })
    await expect(badgeText(saturday)).resolves.toBeNull()
  })

  test('shows nothing and takes no room without JavaScript', async () => {
    const page = await visit('maumelle-smokehouse', { javaScriptEnabled: false })
    await expect(badge(page).count()).resolves.toBe(1)
    await expect(badge(page).isVisible()).resolves.toBe(false)
    await expect(badge(page).innerText()).resolves.toBe('')
    await expect(badge(page).evaluate((el) => el.getBoundingClientRect().width)).resolves.toBe(0)
  })

  test('ships as one small classic script right after the badge, so it is filled in before anything below it is laid out, under 1 KB gzipped', async () => {
    const html = await (await fetch(new URL('/business/maumelle-smokehouse', base))).text()
    const scripts = [...html.matchAll(/<script(?: type="module")?>([\s\S]*?)<\/script>/g)].map((m) => m[0])
    const openNow = scripts.filter((script) => script.includes('data-open-now'))
    expect(openNow).toHaveLength(1)
    // Classic, not a module: a module runs only once the whole page has been parsed.
    expect(openNow[0]).toMatch(/^<script>/)
    // The town's time zone comes with the badge as data (issue 39: it is a setting, not code).
    expect(html).toMatch(/<span data-open-now="[^"]*" data-time-zone="America\/Chicago" hidden [^>]*><\/span><script>/)
    expect(openNow[0]).not.toContain('America/Chicago')
    // Self-contained: nothing imported, so no framework comes with it.
    expect(openNow[0]).not.toMatch(/\bimport\b/)
    expect(gzipSync(openNow[0]!, { level: 9 }).length).toBeLessThan(1024)
  })
})
