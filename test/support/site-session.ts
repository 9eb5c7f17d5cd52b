import { afterAll, afterEach, beforeAll, inject } from 'vitest'
import type { Browser, Page, Response } from 'playwright-core'
import { launchBrowser } from './browser.ts'

/** Screen sizes the site is tested at. */
export const desktop = { width: 1280, height: 900 }
export const phone = { width: 390, height: 844 }

interface OpenOptions {
  viewport?: { width: number; height: number }
  javaScriptEnabled?: boolean
}

/** A page of the built fixture site, opened in Chromium. */
export interface SitePage {
  page: Page
  response: Response | null
  /** Errors the page reported: uncaught exceptions and console errors. */
  errors: string[]
  /** Gives the page back before the test ends, for a test that opens many pages one after another. */
  release: () => Promise<void>
}

/**
 * Starts one Chromium for a test file and closes it afterwards; `open` loads a path of the
 * fixture site the global setup built and serves.
 *
 * A page is reused from one test to the next, as a new tab costs Chromium about three times the
 * page load itself. What a test may leave behind is undone before the next one gets the page: its
 * listeners, routes, cookies, window size and mouse position, and the document (the page goes
 * to about:blank). The HTTP cache is off, so each load fetches what a new visitor's would. A test
 * that adds an init script disposes of it (see recordLayoutShifts), unless every test of its file
 * wants it (accessibility.test.ts loads axe); a test that closes the page or its context gets a new
 * one next time. Service workers are blocked (offline.test.ts has its own contexts).
 */
export function useSite() {
  const base = inject('siteUrl')
  let browser: Browser
  /** Pages ready for the next test, by the options they were opened with. */
  const idle = new Map<string, Page[]>()
  /** Pages the running test holds, with the options they were opened with. */
  const held = new Map<Page, Required<OpenOptions>>()
  const keyOf = ({ viewport, javaScriptEnabled }: Required<OpenOptions>) =>
    `${viewport.width}x${viewport.height}${javaScriptEnabled ? '' : ' no-js'}`

  async function newPage(options: Required<OpenOptions>): Promise<Page> {
    // The service worker stays out (test/site/offline.test.ts drives it in contexts of its own): each
    // test sees what a first visit gets, and its routes see every request the page makes, which they
    // would not once a worker answered them.
    const context = await browser.newContext({ ...options, serviceWorkers: 'block' })
    const page = await context.newPage()
    // As DevTools' "Disable cache": the setting holds only while the session's Network domain is on.
    const devtools = await context.newCDPSession(page)
    await devtools.send('Network.enable')
    await devtools.send('Network.setCacheDisabled', { cacheDisabled: true })
    return page
  }

  async function release(page: Page): Promise<void> {
    const options = held.get(page)
    held.delete(page)
    if (!options || page.isClosed()) return
    try {
      await page.removeAllListeners(undefined, { behavior: 'ignoreErrors' })
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.goto('about:blank')
      await page.context().clearCookies()
      await page.setViewportSize(options.viewport)
      await page.mouse.move(0, 0)
    } catch {
      await page.context().close()
      return
    }
    const key = keyOf(options)
    idle.set(key, [...(idle.get(key) ?? []), page])
  }

  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterEach(async () => {
    await Promise.all([...held.keys()].map(release))
  })
  afterAll(async () => {
    await browser?.close()
  })
  return {
    base,
    url: (path: string) => new URL(path, base).href,
    async open(path: string, options: OpenOptions = {}): Promise<SitePage> {
      const resolved = { viewport: options.viewport ?? desktop, javaScriptEnabled: options.javaScriptEnabled ?? true }
      const page = idle.get(keyOf(resolved))?.pop() ?? (await newPage(resolved))
      held.set(page, resolved)
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(String(error)))
      page.on('console', (message) => {
        // The fixture's one unloadable photo (port 9) is meant to fail; any other error counts.
        if (message.type() === 'error' && !/ERR_UNSAFE_PORT/.test(message.text())) errors.push(message.text())
      })
      const response = await page.goto(new URL(path, base).href)
      return { page, response, errors, release: () => release(page) }
    },
  }
}
