import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import type { Browser, Page, Response } from 'playwright-core'

// What a page downloads in Chromium, as the weight tests (test/site/weight.test.ts) and the photo
// benchmark (scripts/bench/photos.bench.ts) count it: each text file gzipped as a server would
// send it, images and fonts as they are.

/** The phone Lighthouse's mobile audit emulates (a Moto G Power), with the screen height of a current phone. */
export const lighthousePhone = {
  viewport: { width: 412, height: 915 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
}

/** The resource types that are text, sent gzipped. */
const textTypes = ['document', 'stylesheet', 'script', 'fetch']

/** Bytes of a text gzipped at the level a static host uses. */
export const gzipped = (text: string | Buffer) => gzipSync(text, { level: 9 }).byteLength

/** Bytes a page transferred, by kind. */
export interface Transferred {
  html: number
  images: number
  /** Stylesheets, scripts and what scripts fetched. */
  cssJs: number
  /** Fonts and anything else. */
  other: number
  total: number
  /** Each image fetched, by path, with its bytes. */
  imagesByPath: Map<string, number>
}

/** Adds up what a set of responses transferred, by kind. */
export async function weighResponses(responses: readonly Response[]): Promise<Transferred> {
  const weight: Transferred = { html: 0, images: 0, cssJs: 0, other: 0, total: 0, imagesByPath: new Map() }
  for (const response of responses) {
    // A redirect has no body of its own: the page it leads to is counted as its own response.
    if (response.status() >= 300 && response.status() < 400) continue
    const body = await response.body()
    const type = response.request().resourceType()
    const bytes = textTypes.includes(type) ? gzipped(body) : body.byteLength
    if (type === 'document') weight.html += bytes
    else if (type === 'image') {
      weight.images += bytes
      weight.imagesByPath.set(new URL(response.url()).pathname, bytes)
    } else if (textTypes.includes(type)) weight.cssJs += bytes
    else weight.other += bytes
    weight.total += bytes
  }
  return weight
}

/**
 * Scrolls a page to its end a screen at a time, as a visitor does, so that every lazy image comes
 * (a jump straight to the end would skip the ones between), then waits until the images are loaded
 * and the network is quiet.
 */
export async function scrollToEnd(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
    while (window.scrollY + window.innerHeight < document.documentElement.scrollHeight - 1) {
      const before = window.scrollY
      window.scrollBy(0, window.innerHeight)
      await frame()
      if (window.scrollY === before) break
    }
  })
  await page.waitForFunction(() => [...document.images].every((img) => img.complete))
  await page.waitForLoadState('networkidle')
}

/** What a page transferred as it loaded (nothing scrolled), and in all once the visitor scrolled to its end. */
export interface PageWeight {
  initial: Transferred
  scrolled: Transferred
}

/** Loads a URL in a new context of the browser on a given device and weighs it before and after scrolling. */
export async function weighPage(
  browser: Browser,
  url: string,
  device: Parameters<Browser['newContext']>[0] = lighthousePhone,
): Promise<PageWeight> {
  const context = await browser.newContext(device)
  try {
    const page = await context.newPage()
    const responses: Response[] = []
    page.on('response', (response) => responses.push(response))
    const response = await page.goto(url)
    if (!response?.ok()) throw new Error(`${url} answered ${response?.status() ?? 'nothing'}: is the page built?`)
    await page.waitForLoadState('networkidle')
    const initial = await weighResponses([...responses])
    await scrollToEnd(page)
    return { initial, scrolled: await weighResponses(responses) }
  } finally {
    await context.close()
  }
}

/**
 * The first round trip (issue 30): what a server sends in the first ten TCP segments of 1,460
 * bytes. Every page's HTML (its inline scripts and styles, Astro's island loader among them) and
 * its stylesheets must fit, gzipped.
 */
export const firstRoundTripBudget = 14_600

/** The gzip bytes of a built page's first round trip: its HTML, scripts and styles in it included, and the stylesheets it links. */
export interface FirstRoundTrip {
  html: number
  css: number
  total: number
}

/**
 * The stylesheets a page links for print only (media="print"): the browser fetches them last, at
 * the lowest priority, and paints without them, so they are no part of the first round trip.
 */
export function printStylesheets(html: string): Set<string> {
  const hrefs = new Set<string>()
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    if (!/\brel="?stylesheet"?/.test(tag) || !/\bmedia="?print"?[\s>/]/.test(tag)) continue
    const href = tag.match(/\bhref="?([^"\s>]+)/)?.[1]
    if (href) hrefs.add(href)
  }
  return hrefs
}

/**
 * Weighs a built page's first round trip from the files of the built site: its HTML file gzipped,
 * and each stylesheet it links for the screen (read from outDir; `cssCache` keeps each one's gzip
 * size across pages).
 */
export async function firstRoundTrip(
  outDir: string,
  htmlFile: string,
  cssCache: Map<string, number> = new Map(),
): Promise<FirstRoundTrip> {
  const html = await readFile(htmlFile)
  let css = 0
  for (const [tag] of html.toString('utf8').matchAll(/<link\b[^>]*>/g)) {
    if (!/\brel="?stylesheet"?/.test(tag)) continue
    const href = tag.match(/\bhref="?([^"\s>]+)/)?.[1]
    if (!href || printStylesheets(tag).has(href)) continue
    let bytes = cssCache.get(href)
    if (bytes === undefined) {
      bytes = gzipped(await readFile(path.join(outDir, new URL(href, 'http://site.invalid').pathname)))
      cssCache.set(href, bytes)
    }
    css += bytes
  }
  const htmlBytes = gzipped(html)
  return { html: htmlBytes, css, total: htmlBytes + css }
}
