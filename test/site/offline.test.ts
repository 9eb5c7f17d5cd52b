import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { axeViolations } from '../support/axe.ts'
import { launchBrowser } from '../support/browser.ts'
import { buildSite } from '../support/build-site.ts'
import { addBusinesses, describeBusiness, numberedBusinesses } from '../support/catalog-changes.ts'
import { copyFixtureDataDir } from '../support/fixture-data-dir.ts'
import { serveStatic, type StaticServer } from '../support/static-server.ts'

// The site with no signal (issue 41), in Chromium with the service worker the build writes: a
// visitor opens / and /businesses with the network, then loses it. The fixture site (ten businesses,
// a search manifest holding the whole index) serves the first part; a site of 210 businesses, whose
// index is split into files, built and rebuilt here, serves "Save for offline" and a new deploy.

let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()))
  await browser?.close()
})

/** A new visitor: a browser context of its own, the service worker allowed, no HTTP cache. */
async function visitor(): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await browser.newContext()
  contexts.push(context)
  const page = await context.newPage()
  page.setDefaultTimeout(30_000)
  const devtools = await context.newCDPSession(page)
  await devtools.send('Network.enable')
  await devtools.send('Network.setCacheDisabled', { cacheDisabled: true })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  return { page, context, errors }
}

/**
 * Opens a page and waits until the service worker has activated and controls it: it registers after
 * load, precaches, then claims the page and saves it (the page was loaded before it).
 */
async function openControlled(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.waitForFunction(
    async () =>
      navigator.serviceWorker.controller !== null &&
      (await navigator.serviceWorker.ready).active?.state === 'activated',
  )
}

const description = (page: Page) => page.locator('meta[name="description"]').getAttribute('content')

/** The active worker's script URL and whether it has finished installing: it precached everything then. */
const activeWorker = (page: Page) =>
  page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? null)

/** The precache's copies of the search's manifest, by their revision (Workbox keys them so). */
const precachedIndex = (page: Page) =>
  page.evaluate(async () => {
    const keys: string[] = []
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) {
        const url = new URL(request.url)
        if (url.pathname === '/businesses/search-index.json' && url.searchParams.has('__WB_REVISION__'))
          keys.push(url.href)
      }
    return keys.sort().join(' ')
  })

const savedNote = (page: Page) => page.locator('[data-saved-note]')
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search' })
const cards = (page: Page) => page.locator('[data-directory-results] article[data-business] h2')

describe('after one visit to / and /businesses, with no signal', () => {
  const base = inject('siteUrl')
  const url = (pathname: string) => new URL(pathname, base).href
  let page: Page
  let errors: string[]

  beforeAll(async () => {
    const opened = await visitor()
    page = opened.page
    errors = opened.errors
    await openControlled(page, url('/'))
    expect(await activeWorker(page)).toBe(url('/sw.js'))
    await page.goto(url('/businesses'))
    await opened.context.setOffline(true)
  })

  test('the emergency numbers, never opened, show with the day they were saved', async () => {
    await page.goto(url('/community/emergency'))
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toMatch(/Emergency/)
    await expect(page.getByRole('link', { name: '(501) 340-6600' }).count()).resolves.toBe(1)
    await expect(page.getByRole('link', { name: '911' }).first().getAttribute('href')).resolves.toBe('tel:911')
    // The fixture has an alert showing: the note is at the top of its banner, with the time, and says the alerts may have changed.
    await expect(savedNote(page).innerText()).resolves.toMatch(
      /^Saved on \w+ \d{1,2}, \d{4} at \d{1,2}:\d\d [AP]M: you are offline, and these alerts may have changed since\.$/,
    )
    await expect(page.locator('section[aria-label="Alerts"] > [data-saved-note] + [data-alert]').count()).resolves.toBe(
      1,
    )
  })

  test('a page opened before is served as saved, and says so', async () => {
    await page.goto(url('/'))
    await expect(savedNote(page).innerText()).resolves.toMatch(
      /: you are offline, and these alerts may have changed since\.$/,
    )
    await expect(page.locator('main h1').count()).resolves.toBe(1)
  })

  test('a search on /businesses finds a business', async () => {
    await page.goto(url('/businesses'))
    await searchBox(page).fill('biscuits')
    // The search loads its index (from the saved copy) once the box is used: wait for its answer.
    await expect.poll(() => cards(page).allInnerTexts(), { timeout: 15_000 }).toEqual(['Roland Coffee House'])
  })

  test('"Save for offline" pressed with no signal saves the copies the visit kept, and says so', async () => {
    await page.goto(url('/businesses'))
    const status = page.locator('[data-save-offline] [role="status"]')
    await page.getByRole('button', { name: 'Save for offline' }).click()
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toMatch(/^(Saved|Not saved)/)
    await expect(status.innerText()).resolves.toMatch(/^Saved: the search finds all 10 businesses on this device/)
  })

  test('a business page never opened shows the offline page, with what is saved and the emergency numbers', async () => {
    const response = await page.goto(url('/business/maumelle-smokehouse'))
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('You are offline')
    await expect(page.getByRole('link', { name: '(501) 340-6600' }).count()).resolves.toBe(1)
    const saved = page.locator('[data-saved-pages] a')
    await expect(saved.allInnerTexts()).resolves.toEqual(expect.arrayContaining(['Local Businesses']))
    await expect(page.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).resolves.toBe('/')
    expect(await axeViolations(page)).toEqual([])
  })

  test('the stylesheet and the icons are there with no signal', async () => {
    await page.goto(url('/contact'))
    const styled = await page.evaluate(() => getComputedStyle(document.body).display)
    expect(styled).toBe('flex')
    const sprite = await page.evaluate(async () => (await fetch(document.querySelector('use')!.href.baseVal)).status)
    expect(sprite).toBe(200)
    expect(errors).toEqual([])
  })
})

describe('a site of 210 businesses: "Save for offline", and a new deploy', () => {
  const lakeShops = numberedBusinesses('Lakeshore Outfitter', 200)
  let root: string
  let dataDir: string
  let outDir: string
  let server: StaticServer
  const url = (pathname: string) => new URL(pathname, server.url).href

  async function build() {
    const result = await buildSite({ outDir, dataDir, siteUrl: server.url })
    if (result.code !== 0)
      throw new Error(`The site did not build (exit ${result.code}):\n${result.output.slice(-3000)}`)
  }

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'roland-offline-'))
    dataDir = path.join(root, 'data')
    outDir = path.join(root, 'site')
    copyFixtureDataDir(dataDir)
    await addBusinesses(dataDir, lakeShops)
    server = await serveStatic(outDir)
    await build()
  })

  afterAll(async () => {
    await server?.close()
    if (root) await rm(root, { recursive: true, force: true })
  })

  test('after "Save for offline", any business is found by search with no signal', async () => {
    const { page, context, errors } = await visitor()
    await openControlled(page, url('/businesses'))
    await page.getByRole('button', { name: 'Save for offline' }).click()
    await page.getByText(/^Saved: the search finds all 210 businesses/).waitFor({ timeout: 120_000 })
    await context.setOffline(true)
    await page.goto(url('/businesses'))
    await expect(savedNote(page).count()).resolves.toBe(1)
    for (const [query, name] of [
      ['outfitter 137', 'Lakeshore Outfitter 137'],
      ['biscuits', 'Roland Coffee House'],
      ['hickory', 'Maumelle Smokehouse'],
    ]) {
      await searchBox(page).fill(query!)
      await expect.poll(() => cards(page).allInnerTexts(), { timeout: 15_000 }).toEqual([name])
    }
    expect(errors).toEqual([])
  }, 180_000)

  test('after a rebuild, the next visit serves the new pages and replaces the precache', async () => {
    const { page, context } = await visitor()
    await openControlled(page, url('/business/lakeshore-outfitter-07'))
    await page.goto(url('/businesses'))
    // The first visit's worker has precached the search's manifest of this build.
    let lastBuilds = ''
    // Given as long as the other waits here: on a machine busy with the whole suite, the default
    // second ran out once (2026-12-05) before the copy showed.
    await expect.poll(async () => (lastBuilds = await precachedIndex(page)), { timeout: 60_000 }).not.toBe('')
    const newDescription = 'Canoes for rent at the north landing, by the hour or the day.'
    await describeBusiness(dataDir, 'lakeshore-outfitter-07', newDescription)
    await addBusinesses(dataDir, numberedBusinesses('Harbor Kiosk', 1))
    await build()
    // The next visit, online: the page is the new one; the browser finds a new worker, which
    // installs (precaching the new build's files) and takes over. A check for a new worker the
    // browser began before the rebuild published (after the visit to /businesses) finds the last
    // build's, and an update asked meanwhile joins it: the browser is asked until the new worker's
    // install has begun (its copy of the search's manifest, under the new build's revision, is in
    // the precache).
    await page.goto(url('/business/lakeshore-outfitter-07'))
    await expect(description(page)).resolves.toContain(newDescription)
    await expect
      .poll(
        async () => {
          await page.evaluate(async () => {
            await (await navigator.serviceWorker.getRegistration())!.update()
          })
          return precachedIndex(page)
        },
        { timeout: 60_000 },
      )
      .not.toBe(lastBuilds)
    await page.waitForFunction(async () => {
      const registration = await navigator.serviceWorker.getRegistration()
      return !registration?.installing && !registration?.waiting && registration?.active?.state === 'activated'
    })
    await context.setOffline(true)
    // The saved page is the new one.
    await page.goto(url('/business/lakeshore-outfitter-07'))
    await expect(savedNote(page).count()).resolves.toBe(1)
    await expect(description(page)).resolves.toContain(newDescription)
    // The search's manifest is the new build's: 211 businesses, the kiosk among them.
    const count = await page.evaluate(async () => (await (await fetch('/businesses/search-index.json')).json()).count)
    expect(count).toBe(211)
    // A page never opened is still the offline page, not the browser's error.
    await page.goto(url('/business/harbor-kiosk-01'))
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('You are offline')
  }, 420_000)
})
