import { beforeAll, describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { axeViolations, preloadAxe } from '../support/axe.ts'
import { phone, useSite } from '../support/site-session.ts'

const site = useSite()

/** The pages that load axe with every document (every test of this file audits the pages it opens). */
const withAxe = new WeakSet<Page>()

/** Opens a path in a page that loads axe with it. */
async function openWithAxe(path: string, viewport?: { width: number; height: number }) {
  const opened = await site.open('about:blank', viewport ? { viewport } : {})
  if (!withAxe.has(opened.page)) {
    await preloadAxe(opened.page)
    withAxe.add(opened.page)
  }
  await opened.page.goto(site.url(path))
  return opened
}

/** Runs axe (WCAG 2 A and AA) on a page of the site and lists what it finds; gives the page back after. */
async function audit(path: string, viewport?: { width: number; height: number }): Promise<string[]> {
  const { page, release } = await openWithAxe(path, viewport)
  try {
    return (await axeViolations(page)).map((violation) => `${path}: ${violation}`)
  } finally {
    // Forty-odd pages in one test: each page is reused for the next instead of a new one each.
    await release()
  }
}

/** Pages audited at once: two, one per core of the machines this runs on. */
const atOnce = 2

let pages: string[]

beforeAll(async () => {
  const xml = await (await fetch(site.url('/sitemap.xml'))).text()
  pages = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname)
})

describe('accessibility', () => {
  test('every page of the sitemap passes an axe audit', async () => {
    const found: string[] = []
    for (let i = 0; i < pages.length; i += atOnce) {
      found.push(...(await Promise.all(pages.slice(i, i + atOnce).map((path) => audit(path)))).flat())
    }
    expect(pages.length).toBeGreaterThan(40)
    expect(found).toEqual([])
  }, 240_000)

  test('the 404 page, the offline page, a filtered businesses list and the phone menu pass an axe audit', async () => {
    expect([
      ...(await audit('/no-such-page')),
      ...(await audit('/offline')),
      ...(await audit('/businesses?q=zzz')),
      ...(await audit('/', phone)),
    ]).toEqual([])
  })

  test('the phone menu passes an axe audit once opened and hydrated', async () => {
    const { page } = await openWithAxe('/', phone)
    await page.getByText('Menu', { exact: true }).click()
    await page.locator('[data-mobile-menu][data-hydrated]').waitFor({ state: 'attached' })
    expect(await axeViolations(page)).toEqual([])
  })
})
