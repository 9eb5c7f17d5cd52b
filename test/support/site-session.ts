import { afterAll, afterEach, beforeAll, inject } from 'vitest'
import type { Browser, BrowserContext, Page, Response } from 'playwright-core'
import { launchBrowser } from './browser.ts'

/** Screen sizes the site is tested at. */
export const desktop = { width: 1280, height: 900 }
export const phone = { width: 390, height: 844 }

/** A page of the built fixture site, opened in Chromium. */
export interface SitePage {
  page: Page
  response: Response | null
  /** Errors the page reported: uncaught exceptions and console errors. */
  errors: string[]
}

/**
 * Starts one Chromium for a test file and closes it afterwards; `open` loads a path of the
 * fixture site the global setup built and serves.
 */
export function useSite() {
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
  return {
    base,
    url: (path: string) => new URL(path, base).href,
    async open(
      path: string,
      options: { viewport?: { width: number; height: number }; javaScriptEnabled?: boolean } = {},
    ): Promise<SitePage> {
      const context = await browser.newContext({
        viewport: options.viewport ?? desktop,
        javaScriptEnabled: options.javaScriptEnabled ?? true,
      })
      contexts.push(context)
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(String(error)))
      page.on('console', (message) => {
        // The fixture's one unloadable photo (port 9) is meant to fail; any other error counts.
        if (message.type() === 'error' && !/ERR_UNSAFE_PORT/.test(message.text())) errors.push(message.text())
      })
      const response = await page.goto(new URL(path, base).href)
      return { page, response, errors }
    },
  }
}
