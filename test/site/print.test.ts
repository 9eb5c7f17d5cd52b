import { beforeAll, describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { activeFixtureBusinesses, fixtureBusinesses } from '../support/fixture-catalog.ts'
import { ensurePdftotext, pdfPages } from '../support/pdf-text.ts'
import { useSite } from '../support/site-session.ts'

// On paper (issue 41): the printable directory and the print stylesheet, printed by Chromium
// (page.pdf(), which lays the page out for print) on Letter paper and read back with pdftotext.

const site = useSite()
let pdftotext: string

beforeAll(() => {
  pdftotext = ensurePdftotext()
})

/** Prints the page as it stands on Letter paper, with the page's own @page rules, and reads its text. */
async function print(page: Page): Promise<string[]> {
  await page.waitForLoadState('load')
  const pdf = await page.pdf({ format: 'Letter', preferCSSPageSize: true, printBackground: true })
  return pdfPages(pdf, pdftotext)
}

/** Text with its line breaks and runs of spaces as single spaces: a name may wrap in a column. */
const flat = (text: string) => text.replace(/\s+/g, ' ')

describe('/directory', () => {
  test('prints every active business, and no closed one, on fewer than 8 Letter pages', async () => {
    const { page } = await site.open('/directory')
    const pages = await print(page)
    expect(pages.length).toBeGreaterThan(0)
    expect(pages.length).toBeLessThan(8)
    const text = flat(pages.join(' '))
    for (const business of activeFixtureBusinesses) expect(text, business.name).toContain(flat(business.name))
    const closed = fixtureBusinesses.find((b) => b.slug === 'closed-diner')!
    expect(text).not.toContain(closed.name)
    // No navigation, buttons or footer on paper.
    expect(text).not.toContain('Skip to main content')
    expect(text).not.toMatch(/\bPrint\b/)
  })

  test('lists each business under its category with its phone, address and hours, and the day it was made', async () => {
    const { page, errors } = await site.open('/directory')
    const coffee = page.locator('li', { has: page.getByRole('heading', { name: 'Roland Coffee House', level: 3 }) })
    const section = page.locator('section', { has: coffee })
    await expect(section.getByRole('heading', { level: 2 }).innerText()).resolves.toBe('Dining & Refreshments')
    const fixture = activeFixtureBusinesses.find((b) => b.name === 'Roland Coffee House')!
    await expect(coffee.innerText()).resolves.toContain(fixture.phone!)
    await expect(coffee.innerText()).resolves.toContain(fixture.address!)
    await expect(coffee.innerText()).resolves.toMatch(/(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\S* \d{1,2}:\d{2} [AP]M/)
    await expect(page.locator('main').innerText()).resolves.toMatch(/Made on \w+ \d{1,2}, \d{4}/)
    // On screen, the Print button opens the browser's print dialog.
    await page.evaluate(() => {
      ;(window as unknown as { printed: boolean }).printed = false
      window.print = () => ((window as unknown as { printed: boolean }).printed = true)
    })
    await page.getByRole('button', { name: 'Print' }).click()
    await expect(page.evaluate(() => (window as unknown as { printed: boolean }).printed)).resolves.toBe(true)
    expect(errors).toEqual([])
  })

  test('lays the list in two columns on a wide screen and on paper', async () => {
    const { page } = await site.open('/directory')
    await expect(page.locator('.directory-columns').evaluate((e) => getComputedStyle(e).columnCount)).resolves.toBe('2')
    await page.emulateMedia({ media: 'print' })
    await expect(page.locator('.directory-columns').evaluate((e) => getComputedStyle(e).columnCount)).resolves.toBe('2')
    await expect(page.locator('header').first().isVisible()).resolves.toBe(false)
    await page.emulateMedia({ media: null })
  })
})

describe('the print stylesheet', () => {
  test('prints a business page as a one-page card, with its website written out and no navigation', async () => {
    const { page } = await site.open('/business/roland-auto-repair')
    const pages = await print(page)
    expect(pages).toHaveLength(1)
    const text = flat(pages[0]!)
    expect(text).toContain('Roland Auto Repair')
    const fixture = activeFixtureBusinesses.find((b) => b.slug === 'roland-auto-repair')!
    expect(text).toContain(fixture.phone!)
    if (fixture.website) expect(text).toContain(fixture.website.replace(/\/$/, ''))
    expect(text).not.toContain('Skip to main content')
    expect(text).not.toContain('Suggest an edit')
  })

  test('prints the emergency numbers without the menu or the footer', async () => {
    const { page } = await site.open('/community/emergency')
    const text = flat((await print(page)).join(' '))
    expect(text).toContain('(501) 340-6600')
    expect(text).not.toContain('Skip to main content')
    expect(text).not.toMatch(/All rights reserved|©/)
  })
})
