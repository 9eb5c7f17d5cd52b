import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Browser } from 'playwright-core'
import { axeViolations } from '../support/axe.ts'
import { launchBrowser } from '../support/browser.ts'
import { buildSite, type BuildResult } from '../support/build-site.ts'
import {
  addBusinesses,
  closeBusiness,
  describeBusiness,
  numberedBusinesses,
  runSql,
} from '../support/catalog-changes.ts'
import type { SearchManifest } from '../../site/lib/search-shards.ts'
import { activeFixtureBusinesses } from '../support/fixture-catalog.ts'
import { copyFixtureDataDir } from '../support/fixture-data-dir.ts'
import { serveStatic, type StaticServer } from '../support/static-server.ts'
import { escapeRegExp } from '../../scripts/src/text/index.ts'
import { reusedMessage } from '../../site/integrations/bundle-cache.ts'

// A site of ninety businesses (the fixture's ten and eighty "Ozark Shop"s): enough for four pages
// of the businesses list, and four of Shopping & Convenience (its featured location and 82 cards).
// It is built once, then rebuilt after one business changed, after another closed, and after a
// failed build. Each rebuild must give the site a full build would.

const ozarkShops = numberedBusinesses('Ozark Shop', 80)
/** On the third page of the list, and of Shopping & Convenience: its description changes. */
const changed = 'ozark-shop-50'
/** On the fourth page of both: it closes. */
const closed = 'valley-hardware'
const newDescription = 'Now open on Sundays, with a bait fridge by the door.'

let root: string
let dataDir: string
let outDir: string
let server: StaticServer
let browser: Browser
/** Every file of the first build, by its path in the output folder. */
const firstBuild = new Map<string, Buffer>()

const byName = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' })
const allNames = [...activeFixtureBusinesses.map((b) => b.name), ...ozarkShops.map((b) => b.name)].sort(byName)

/** Shopping & Convenience: the fixture's three shops (the General Store featured) and the Ozark Shops. */
const shoppingNames = [
  ...activeFixtureBusinesses.filter((b) => b.category === 'Shopping & Convenience').map((b) => b.name),
  ...ozarkShops.map((b) => b.name),
].sort(byName)
const featuredShop = 'Roland General Store'
const shoppingPages = [
  '/shopping-convenience',
  '/shopping-convenience/page/2',
  '/shopping-convenience/page/3',
  '/shopping-convenience/page/4',
]
/** The output file of a page, as the build log and the output folder name it. */
const fileOf = (pathname: string) => `${pathname.slice(1)}/index.html`

async function filesOf(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const file = path.join(entry.parentPath, entry.name)
    files.set(path.relative(dir, file), await readFile(file))
  }
  return files
}

async function build(): Promise<BuildResult> {
  // Every rebuild here stamps the files of the last site as it starts, as one of 5,000 files or more
  // does (publish-site.ts), and takes those stamps for the pages it kept.
  const result = await buildSite({ outDir, dataDir, siteUrl: server.url, env: { ROLAND_BUILD_STAMPS_AHEAD_FROM: '0' } })
  if (result.code !== 0) throw new Error(`The site did not build (exit ${result.code}):\n${result.output.slice(-3000)}`)
  return result
}

/** The names on the cards of a built page, read from its HTML. */
async function cardNames(pathname: string): Promise<string[]> {
  const html = await (await fetch(new URL(pathname, server.url))).text()
  // A business card is an <article data-business="slug">, its name the first <h2> in it.
  return [...html.matchAll(/<article[^>]*data-business="[^"]*"[^>]*>[\s\S]*?<h2[^>]*>([^<]*)<\/h2>/g)].map((m) =>
    m[1]!.replace(/&amp;/g, '&'),
  )
}

const decode = (text: string) => text.replace(/&amp;/g, '&').replace(/&#39;/g, "'")

/** What a built page of a category shows: its featured location, its cards' names, its count. */
async function categoryPage(pathname: string) {
  const response = await fetch(new URL(pathname, server.url))
  expect(response.status, pathname).toBe(200)
  const html = await response.text()
  return {
    html,
    featured: html.match(/Featured Location[\s\S]*?<h2\b[^>]*>([^<]*)<\/h2>/)?.[1] ?? null,
    // A location card's name is its card-sized heading (the featured location's is larger).
    cards: [...html.matchAll(/<h2 class="text-lg font-bold text-stone-900">([^<]*)<\/h2>/g)].map((m) => decode(m[1]!)),
    count: html.match(/(\d+) Locations? Found/)?.[1] ?? null,
  }
}

/** The business pages among the files of a build. */
const businessPages = (files: Map<string, Buffer>) => [...files.keys()].filter((file) => file.startsWith('business/'))

const listPages = ['/businesses', '/businesses/page/2', '/businesses/page/3', '/businesses/page/4']

/** The files a build makes afresh every time: the calendars carry the moment they were made (DTSTAMP). */
const timeStamped = (file: string) => file.endsWith('.ics')

/** What the build log says it did with a page: rendered it, or took it from the last build. */
/** The build log's lines that name a file, to show when a fate is not the expected one. */
const mentions = (output: string, file: string) =>
  output
    .split('\n')
    .filter((l) => l.includes(file))
    .join('\n')

// Pages render several at a time, so the log's lines interleave: a rendered page's name is printed
// before its timing, and another page's line can land in between. A page's entry is therefore the
// text after its name up to the next tree marker or line end, not a whole line.
function fate(output: string, file: string): 'rendered' | 'reused' | 'absent' {
  const escaped = escapeRegExp(file)
  const entry = output.match(new RegExp(`[├└]─ ${escaped}(?![a-zA-Z/._-])([^\\n├└]*)`))
  if (!entry) return 'absent'
  return /\((?:restored|cached)\)/.test(entry[1] ?? '') ? 'reused' : 'rendered'
}

/** The axe violations of a built page, opened in a browser context of its own. */
async function axeViolationsAt(pathname: string): Promise<string[]> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(new URL(pathname, server.url).href)
    return await axeViolations(page)
  } finally {
    await context.close()
  }
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-incremental-'))
  dataDir = path.join(root, 'data')
  outDir = path.join(root, 'site')
  copyFixtureDataDir(dataDir)
  await addBusinesses(dataDir, ozarkShops)
  server = await serveStatic(outDir)
  browser = await launchBrowser()
  await build()
  for (const [file, bytes] of await filesOf(outDir)) firstBuild.set(file, bytes)
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await rm(root, { recursive: true, force: true })
})

describe('the businesses list in pages', () => {
  test('shows 24 businesses a page, every listed business once, in name order', async () => {
    const pages = await Promise.all(
      ['/businesses', '/businesses/page/2', '/businesses/page/3', '/businesses/page/4'].map(cardNames),
    )
    expect(pages.map((names) => names.length)).toEqual([24, 24, 24, 18])
    expect(pages.flat()).toEqual(allNames)
  })

  test('has no page before the first nor after the last', async () => {
    for (const pathname of ['/businesses/page/1', '/businesses/page/5', '/businesses/page/0']) {
      expect((await fetch(new URL(pathname, server.url))).status, pathname).toBe(404)
    }
  })

  test('moves between pages by links, without JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    try {
      const page = await context.newPage()
      await page.goto(new URL('/businesses', server.url).href)
      const pages = page.getByRole('navigation', { name: 'Pages of businesses' })
      await expect(pages.getByRole('link', { name: 'Previous' }).count()).resolves.toBe(0)
      await pages.getByRole('link', { name: 'Next' }).click()
      await page.waitForURL(new URL('/businesses/page/2', server.url).href)
      await expect(pages.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current')).resolves.toBe('page')
      await pages.getByRole('link', { name: 'Page 4' }).click()
      await page.waitForURL(new URL('/businesses/page/4', server.url).href)
      await expect(pages.getByRole('link', { name: 'Next' }).count()).resolves.toBe(0)
      await pages.getByRole('link', { name: 'Previous' }).click()
      await page.waitForURL(new URL('/businesses/page/3', server.url).href)
      await expect(page.locator('title').innerText()).resolves.toBe('Local Businesses – Page 3 of 4 | Roland, Arkansas')
    } finally {
      await context.close()
    }
  })

  test('passes an axe audit, the links between pages included', async () => {
    expect(await axeViolationsAt('/businesses/page/2')).toEqual([])
  })

  test('shows a page of search results at a time, and the next on request', async () => {
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      await page.goto(new URL('/businesses/page/3?q=ozark', server.url).href)
      await page.locator('[data-directory="ready"]').waitFor()
      const cards = page.locator('main article h2')
      await expect(cards.count()).resolves.toBe(24)
      await expect(page.getByRole('navigation', { name: 'Pages of businesses' }).count()).resolves.toBe(0)
      await page.getByRole('button', { name: 'Show more businesses (56 more)' }).click()
      await expect(cards.count()).resolves.toBe(48)
      await expect(cards.allInnerTexts()).resolves.toEqual(ozarkShops.slice(0, 48).map((b) => b.name))
    } finally {
      await context.close()
    }
  })
})

describe('a category in pages', () => {
  test('shows the featured location and 24 cards on its first page, the rest after it, every business once in name order', async () => {
    const pages = await Promise.all(shoppingPages.map(categoryPage))
    expect(pages.map((page) => page.featured)).toEqual([featuredShop, null, null, null])
    expect(pages.map((page) => page.cards.length)).toEqual([24, 24, 24, 10])
    const cards = pages.flatMap((page) => page.cards)
    expect(cards).toEqual(shoppingNames.filter((name) => name !== featuredShop))
    expect([featuredShop, ...cards].sort(byName)).toEqual(shoppingNames)
  })

  test("says the category's total count, and links to all the categories and back, on every page", async () => {
    for (const pathname of shoppingPages) {
      const { html, count } = await categoryPage(pathname)
      expect(count, pathname).toBe(String(shoppingNames.length))
      expect(html, pathname).toContain('View All Business Categories')
      expect(html, pathname).toMatch(/<a href="\/businesses"[^>]*>[\s\S]*?All Businesses/)
    }
  })

  test('has no page before the first nor after the last, and a category that fits on one page has no other', async () => {
    for (const pathname of [
      '/shopping-convenience/page/1',
      '/shopping-convenience/page/5',
      '/dining-refreshments/page/2',
      '/pet-services/page/2',
    ]) {
      expect((await fetch(new URL(pathname, server.url))).status, pathname).toBe(404)
    }
    const dining = await categoryPage('/dining-refreshments')
    expect(dining.html).not.toContain('Pages of Dining')
  })

  test('moves between pages by links, without JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    try {
      const page = await context.newPage()
      await page.goto(new URL('/shopping-convenience', server.url).href)
      const pages = page.getByRole('navigation', { name: 'Pages of Shopping & Convenience' })
      await expect(pages.getByRole('link', { name: 'Previous' }).count()).resolves.toBe(0)
      await expect(pages.getByRole('link', { name: 'Page 1' }).getAttribute('aria-current')).resolves.toBe('page')
      await expect(pages.getByRole('link', { name: 'Next' }).getAttribute('rel')).resolves.toBe('next')
      await pages.getByRole('link', { name: 'Next' }).click()
      await page.waitForURL(new URL('/shopping-convenience/page/2', server.url).href)
      await expect(pages.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current')).resolves.toBe('page')
      await expect(pages.getByRole('link', { name: 'Previous' }).getAttribute('rel')).resolves.toBe('prev')
      await expect(page.locator('article', { hasText: 'Featured Location' }).count()).resolves.toBe(0)
      await pages.getByRole('link', { name: 'Page 4' }).click()
      await page.waitForURL(new URL('/shopping-convenience/page/4', server.url).href)
      await expect(pages.getByRole('link', { name: 'Next' }).count()).resolves.toBe(0)
      await pages.getByRole('link', { name: 'Previous' }).click()
      await page.waitForURL(new URL('/shopping-convenience/page/3', server.url).href)
      await expect(page.locator('title').innerText()).resolves.toBe(
        'Shopping & Convenience – Page 3 of 4 | Roland, Arkansas',
      )
      await expect(page.locator('h1').innerText()).resolves.toBe('Shopping & Convenience')
      await expect(page.locator('[data-list-range]').innerText()).resolves.toBe('Locations 50–73 of 83')
      await pages.getByRole('link', { name: 'Page 1' }).click()
      await page.waitForURL(new URL('/shopping-convenience', server.url).href)
      await expect(page.locator('article', { hasText: 'Featured Location' }).count()).resolves.toBe(1)
    } finally {
      await context.close()
    }
  })

  test('gives each page its own canonical URL, description, and ItemList numbered through the category', async () => {
    const heads = await Promise.all(
      shoppingPages.map(async (pathname) => {
        const { html } = await categoryPage(pathname)
        const jsonLd = JSON.parse(html.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/)![1]!)
        return {
          pathname,
          canonical: html.match(/<link rel="canonical" href="([^"]*)"/)?.[1],
          description: html.match(/<meta name="description" content="([^"]*)"/)?.[1],
          jsonLd,
        }
      }),
    )
    for (const head of heads) {
      expect(head.canonical).toBe(new URL(head.pathname, server.url).href)
      expect(head.jsonLd).toMatchObject({ '@type': 'ItemList', '@id': head.canonical, name: 'Shopping & Convenience' })
    }
    expect(new Set(heads.map((head) => head.description)).size).toBe(shoppingPages.length)
    const items = heads.flatMap((head) => head.jsonLd.itemListElement as Array<{ position: number; name: string }>)
    expect(items.map((item) => item.position)).toEqual(shoppingNames.map((_, index) => index + 1))
    expect(items.map((item) => decode(item.name))).toEqual([
      featuredShop,
      ...shoppingNames.filter((name) => name !== featuredShop),
    ])
    expect(heads.map((head) => head.jsonLd.itemListElement[0].position)).toEqual([1, 26, 50, 74])
  })

  test('is listed page by page in the sitemap', async () => {
    const sitemap = await (await fetch(new URL('/sitemap.xml', server.url))).text()
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname)
    expect(locs.filter((loc) => loc.startsWith('/shopping-convenience'))).toEqual(shoppingPages)
    expect(locs.filter((loc) => loc.startsWith('/dining-refreshments'))).toEqual(['/dining-refreshments'])
  })

  test('passes an axe audit on a page after the first', async () => {
    expect(await axeViolationsAt('/shopping-convenience/page/2')).toEqual([])
  })
})

describe('a rebuild after one business changed', () => {
  // Removed by hand from Astro's copy of the pages, which becomes the staging folder: the record of
  // the build from nothing still lists it.
  const lost = 'business/ozark-shop-23/index.html'
  let firstSite: Map<string, Buffer>
  let lostWasCached: boolean
  let rebuild: BuildResult
  let secondBuild: Map<string, Buffer>

  beforeAll(async () => {
    firstSite = await filesOf(outDir)
    await describeBusiness(dataDir, changed, newDescription)
    const cachedCopy = path.join(`${outDir}.cache`, 'dist', lost)
    lostWasCached = existsSync(cachedCopy)
    await rm(cachedCopy, { force: true })
    rebuild = await build()
    secondBuild = await filesOf(outDir)
  })

  test("starts from Astro's cached copy of the pages a build from nothing rendered, and finds them in place", () => {
    expect(rebuild.output, rebuild.output.slice(0, 2000)).toContain(
      "staging: the last site's pages, from Astro's cache",
    )
    expect(rebuild.output).toContain('(cached)')
    expect(rebuild.output).not.toContain('(restored)')
  })

  test('takes the pages in that copy on the word of the last build, and puts back one it lost, as the last site had it', () => {
    expect(lostWasCached).toBe(true)
    expect(fate(rebuild.output, `/${lost}`)).toBe('reused')
    expect(rebuild.output).toContain(`put back 1 page(s) the staging folder had lost: ${lost}`)
    // Its stamp, taken as the build started, said it was not there.
    expect(rebuild.output).toMatch(/\b\d{3,} page\(s\) kept as they were, stamped as the build started/)
    expect(secondBuild.get(lost)?.equals(firstSite.get(lost)!)).toBe(true)
  })

  test("logs its pages through the site's log, which writes their lines in batches, without time stamps", () => {
    // Astro's own log starts every line with the time (site/integrations/site-log.ts).
    const pageLines = rebuild.output.split('\n').filter((line) => line.includes('├─ '))
    expect(pageLines.length).toBeGreaterThan(100)
    expect(pageLines.filter((line) => !line.startsWith('  ├─ '))).toEqual([])
  })

  test("shows the change on that business's page and on its page of the list", () => {
    expect(secondBuild.get(`business/${changed}/index.html`)?.toString()).toContain(newDescription)
    expect(secondBuild.get('businesses/page/3/index.html')?.toString()).toContain(newDescription)
  })

  test('leaves every other business page byte for byte as it was', () => {
    const others = businessPages(firstBuild).filter((file) => !file.startsWith(`business/${changed}/`))
    expect(others.length).toBe(allNames.length - 1)
    expect(others.filter((file) => !secondBuild.get(file)?.equals(firstBuild.get(file)!))).toEqual([])
  })

  test('renders again only the page of the list that shows it, and takes the others from the last build', () => {
    expect(fate(rebuild.output, '/businesses/page/3/index.html'), mentions(rebuild.output, 'page/3')).toBe('rendered')
    expect(fate(rebuild.output, '/businesses/page/2/index.html')).toBe('reused')
    expect(fate(rebuild.output, '/businesses/page/4/index.html')).toBe('reused')
    for (const page of ['2', '4']) {
      const file = `businesses/page/${page}/index.html`
      expect(secondBuild.get(file)?.equals(firstBuild.get(file)!), file).toBe(true)
    }
  })

  test('renders again only the page of its category that shows it, and takes the others from the last build', () => {
    expect(secondBuild.get(fileOf(shoppingPages[2]!))?.toString()).toContain(newDescription)
    expect(fate(rebuild.output, `/${fileOf(shoppingPages[2]!)}`), mentions(rebuild.output, 'page/3')).toBe('rendered')
    const others = [
      ...shoppingPages.filter((pathname) => pathname !== shoppingPages[2]),
      '/dining-refreshments',
      '/pet-services',
      '/nature',
    ]
    for (const pathname of others) {
      const file = fileOf(pathname)
      expect(fate(rebuild.output, `/${file}`), mentions(rebuild.output, file)).toBe('reused')
      expect(secondBuild.get(file)?.equals(firstBuild.get(file)!), file).toBe(true)
    }
  })

  test("renders again only that business's page, and takes the other businesses' from the last build", () => {
    expect(fate(rebuild.output, `/business/${changed}/index.html`), mentions(rebuild.output, changed)).toBe('rendered')
    const others = businessPages(firstBuild).filter((file) => !file.startsWith(`business/${changed}/`))
    expect(others.filter((file) => fate(rebuild.output, `/${file}`) !== 'reused')).toEqual([])
  })
})

describe('a rebuild after a business closed', () => {
  let before: Map<string, Buffer>
  let after: Map<string, Buffer>
  let closing: BuildResult

  beforeAll(async () => {
    before = await filesOf(outDir)
    await closeBusiness(dataDir, closed)
    closing = await build()
    after = await filesOf(outDir)
  })

  test('starts from the site before the last one, with only the files the last build changed copied in', () => {
    const synced = closing.output.match(/staging: the last site with the (\d+) file\(s\) it changed/)
    expect(synced, closing.output.slice(0, 2000)).not.toBeNull()
    // The files the last build changed include the storage copies it wrote (the fixture photos and
    // their AVIF/WebP/JPEG derivatives), so they are counted against the whole site, not its pages.
    expect(Number(synced![1])).toBeLessThan(before.size / 2)
  })

  test("takes the business's page down, and out of the search index and the sitemap", async () => {
    expect(after.has(`business/${closed}/index.html`)).toBe(false)
    expect((await fetch(new URL(`/business/${closed}`, server.url))).status).toBe(404)
    // The fixture's few businesses are searched in one file: the manifest holds their cards.
    const index = JSON.parse(after.get('businesses/search-index.json')!.toString()) as SearchManifest
    expect(index.count).toBe(allNames.length - 1)
    expect(index.docs!.filter((doc) => doc.h.includes(`data-business="${closed}"`))).toEqual([])
    expect(after.get('sitemap.xml')!.toString()).not.toContain(`/business/${closed}<`)
  })

  test('lists the businesses as a full build would', async () => {
    const pages = await Promise.all(listPages.map(cardNames))
    expect(pages.map((names) => names.length)).toEqual([24, 24, 24, 17])
    expect(pages.flat()).toEqual(allNames.filter((name) => name !== 'Valley Hardware'))
  })

  test('lists the category as a full build would, its new count on every page', async () => {
    const pages = await Promise.all(shoppingPages.map(categoryPage))
    expect(pages.map((page) => page.cards.length)).toEqual([24, 24, 24, 9])
    expect(pages.map((page) => page.count)).toEqual(shoppingPages.map(() => String(shoppingNames.length - 1)))
    expect(pages.flatMap((page) => page.cards)).toEqual(
      shoppingNames.filter((name) => name !== featuredShop && name !== 'Valley Hardware'),
    )
  })

  test('leaves the pages of the other businesses as they were', () => {
    const others = businessPages(before).filter((file) => !file.startsWith(`business/${closed}/`))
    expect(others.filter((file) => !after.get(file)?.equals(before.get(file)!))).toEqual([])
  })
})

describe('a rebuild from the last site kept as the staging folder', () => {
  const again = 'ozark-shop-20'
  const againDescription = 'Closed for inventory on the first Monday of the month.'
  // Removed by hand from the staging folder: the last site's record still lists it.
  const lost = 'business/ozark-shop-22/index.html'
  let before: Map<string, Buffer>
  let rebuild: BuildResult
  let after: Map<string, Buffer>
  let staging: Map<string, Buffer>
  let lostWasStaged: boolean

  beforeAll(async () => {
    before = await filesOf(outDir)
    await describeBusiness(dataDir, again, againDescription)
    lostWasStaged = existsSync(path.join(`${outDir}.staging`, lost))
    await rm(path.join(`${outDir}.staging`, lost))
    rebuild = await build()
    after = await filesOf(outDir)
    staging = await filesOf(`${outDir}.staging`)
  })

  test('starts from the last site with only the files that build changed copied in', () => {
    const synced = rebuild.output.match(/staging: the last site with the (\d+) file\(s\) it changed/)
    expect(synced, rebuild.output.slice(0, 2000)).not.toBeNull()
    expect(Number(synced![1])).toBeGreaterThan(0)
    expect(Number(synced![1])).toBeLessThan(businessPages(before).length)
  })

  test('finds the unchanged pages in place instead of copying them from the cache', () => {
    expect(fate(rebuild.output, `/business/${again}/index.html`)).toBe('rendered')
    expect(fate(rebuild.output, '/business/ozark-shop-21/index.html')).toBe('reused')
    expect(rebuild.output).toContain('(cached)')
    expect(rebuild.output).not.toContain('(restored)')
  })

  test('puts back a page its record lists that the staging folder lost, as the last site had it', () => {
    expect(lostWasStaged).toBe(true)
    expect(fate(rebuild.output, `/${lost}`)).toBe('reused')
    expect(rebuild.output).toContain(`put back 1 page(s) the staging folder had lost: ${lost}`)
    // Its stamp, taken as the build started, said it was not there.
    expect(rebuild.output).toMatch(/\b\d{3,} page\(s\) kept as they were, stamped as the build started/)
    expect(after.get(lost)?.equals(before.get(lost)!)).toBe(true)
  })

  test('keeps the site it replaced, as it was, for the next build', () => {
    expect([...staging.keys()].sort()).toEqual([...before.keys()].sort())
    expect([...staging.keys()].filter((file) => !staging.get(file)!.equals(before.get(file)!))).toEqual([])
  })

  // That it is the site a build from nothing gives, byte for byte, is the next group's last test:
  // the build after a failed one renders every page again, from the site this one published.
  test('publishes the change', () => {
    expect(after.get(`business/${again}/index.html`)?.toString()).toContain(againDescription)
  })
})

describe('a failed build, then a good one', () => {
  let published: Map<string, Buffer>
  let afterFailure: Map<string, Buffer>
  let failed: BuildResult
  let stagingAfterFailure: boolean
  let recovery: BuildResult

  beforeAll(async () => {
    published = await filesOf(outDir)
    // A category whose page would take the place of /events: the build stops while collecting pages.
    await runSql(
      dataDir,
      `insert into location_categories (slug, name, icon_name, color, sort_order, category_type) values ('events', 'Events', 'star', '#123456', 1, 'community')`,
    )
    failed = await buildSite({ outDir, dataDir, siteUrl: server.url })
    stagingAfterFailure = existsSync(`${outDir}.staging`)
    afterFailure = await filesOf(outDir)
    await runSql(dataDir, `delete from location_categories where slug = 'events'`)
    recovery = await build()
  })

  test('leaves the last good site as it was', () => {
    expect(failed.code).not.toBe(0)
    expect(failed.output).toContain('use a slug the site needs for its own pages (/events)')
    expect(stagingAfterFailure).toBe(false)
    expect([...afterFailure.keys()].sort()).toEqual([...published.keys()].sort())
    expect([...afterFailure.keys()].filter((file) => !afterFailure.get(file)!.equals(published.get(file)!))).toEqual([])
  })

  test('is followed by a build that renders every page again, giving the same site, byte for byte, as the rebuild before', async () => {
    expect(fate(recovery.output, '/businesses/page/2/index.html')).toBe('rendered')
    expect(recovery.output).not.toMatch(/\((?:restored|cached)\)/)
    const after = await filesOf(outDir)
    expect([...after.keys()].sort()).toEqual([...published.keys()].sort())
    const differ = [...after.keys()].filter(
      (file) => !timeStamped(file) && !after.get(file)!.equals(published.get(file)!),
    )
    expect(differ).toEqual([])
  })
})

describe('a rebuild after the published site was changed by hand', () => {
  // A page the last build wrote, which the next one would copy from the published site.
  const page = 'business/ozark-shop-20/index.html'
  let built: Buffer
  let rebuild: BuildResult

  beforeAll(async () => {
    built = await readFile(path.join(outDir, page))
    await writeFile(path.join(outDir, page), built.toString().replace('</h1>', ' (edited by hand)</h1>'))
    rebuild = await build()
  })

  test('starts from an empty staging folder instead, and publishes the pages as built', async () => {
    expect(built.toString()).toContain('</h1>')
    expect(rebuild.output).not.toContain('staging: ')
    expect(fate(rebuild.output, `/${page}`)).toBe('reused')
    expect(await readFile(path.join(outDir, page))).toEqual(built)
    expect((await fetch(new URL('/sitemap.xml', server.url))).status).toBe(200)
    expect((await fetch(new URL('/business/ozark-shop-21', server.url))).status).toBe(200)
  })
})

describe("rebuilds after a business moved to another category, was renamed to a new slug, was deactivated, and the home page's intro changed", () => {
  const moved = 'ozark-shop-30'
  const renamed = { from: 'ozark-shop-40', slug: 'lakeside-outfitters', name: 'Lakeside Outfitters' }
  const deactivated = 'ozark-shop-60'
  const homeIntro = 'Roland sits between the river and the lake. Come and see.'
  const rebuilds: Array<{ change: string; result: BuildResult; files: Map<string, Buffer> }> = []
  let fromNothing: Map<string, Buffer>
  let fromNothingOutput = ''
  const otherAddress = 'https://bundle-kept-elsewhere.example'
  let elsewhereOutput = ''
  let elsewhereFiles: Map<string, Buffer>
  let elsewhereAfresh: Map<string, Buffer>

  beforeAll(async () => {
    const changes: Array<[string, string, unknown[]]> = [
      [
        'category move',
        `update businesses set category = 'Dining & Refreshments', updated_at = now() where slug = $1`,
        [moved],
      ],
      [
        'rename',
        `update businesses set slug = $2, name = $3, updated_at = now() where slug = $1`,
        Object.values(renamed),
      ],
      ['deactivation', `update businesses set is_active = false, updated_at = now() where slug = $1`, [deactivated]],
      // Every page's footer quotes the first sentence of the home page's intro.
      ['home page intro', `update pages set intro = $1 where path = '/'`, [homeIntro]],
    ]
    for (const [change, sql, params] of changes) {
      await runSql(dataDir, sql, params)
      const result = await build()
      rebuilds.push({ change, result, files: await filesOf(outDir) })
    }
    // The same catalog built from nothing, into a folder of its own (and so a cache of its own), its
    // code bundled afresh: the rebuilds reused the bundle of an earlier build (in another folder).
    const fullDir = path.join(root, 'full')
    const full = await buildSite({ outDir: fullDir, dataDir, siteUrl: server.url, env: { ROLAND_BUNDLE_CACHE: '0' } })
    if (full.code !== 0) throw new Error(`The full build failed (exit ${full.code}):\n${full.output.slice(-3000)}`)
    fromNothing = await filesOf(fullDir)
    fromNothingOutput = full.output
    // Twice more, for another address and into other folders: with the bundle kept for the builds
    // before (their address and folders written in), and with one made afresh.
    const elsewhere = await buildSite({ outDir: path.join(root, 'elsewhere'), dataDir, siteUrl: otherAddress })
    const afresh = await buildSite({
      outDir: path.join(root, 'elsewhere-afresh'),
      dataDir,
      siteUrl: otherAddress,
      env: { ROLAND_BUNDLE_CACHE: '0' },
    })
    for (const { code, output } of [elsewhere, afresh])
      if (code !== 0) throw new Error(`A build elsewhere failed (exit ${code}):\n${output.slice(-3000)}`)
    elsewhereOutput = elsewhere.output
    elsewhereFiles = await filesOf(path.join(root, 'elsewhere'))
    elsewhereAfresh = await filesOf(path.join(root, 'elsewhere-afresh'))
    // Seven builds: more than the default hook time on a busy 2-core machine.
  }, 900_000)

  test('each rebuild starts from the last one; a business changed renders only a part of the site, the home intro every page', () => {
    for (const { change, result } of rebuilds) {
      expect(result.output, change).toMatch(/staging: the last site/)
      expect(result.output, change).toContain(reusedMessage)
      const fated = change === 'home page intro' ? 'rendered' : 'reused'
      expect(fate(result.output, '/business/ozark-shop-10/index.html'), change).toBe(fated)
      if (fated === 'rendered') expect(fate(result.output, `${shoppingPages[1]}/index.html`), change).toBe(fated)
    }
  })

  test('the move shows the business in its new category and no longer in its old one', () => {
    const { files } = rebuilds[0]!
    const shopping = shoppingPages.map((pathname) => files.get(fileOf(pathname))?.toString() ?? '').join('')
    expect(shopping).not.toContain(`data-business="${moved}"`)
    expect(files.get('dining-refreshments/index.html')?.toString()).toContain('Ozark Shop 30')
  })

  test('the rename publishes the page at the new slug and takes the old one down', () => {
    const { files } = rebuilds[1]!
    expect(files.get(`business/${renamed.slug}/index.html`)?.toString()).toContain(renamed.name)
    expect(files.has(`business/${renamed.from}/index.html`)).toBe(false)
    expect(files.get('sitemap.xml')!.toString()).not.toContain(`/business/${renamed.from}<`)
  })

  test('the deactivation takes the page down', () => {
    expect(rebuilds[2]!.files.has(`business/${deactivated}/index.html`)).toBe(false)
  })

  test("the home page's new intro is quoted in the footer of every page, a category's pages too", () => {
    const { files } = rebuilds[3]!
    for (const file of [
      'index.html',
      'dining-refreshments/index.html',
      fileOf(shoppingPages[1]!),
      'business/ozark-shop-10/index.html',
    ])
      expect(files.get(file)?.toString(), file).toContain('Roland sits between the river and the lake.')
  })

  test('leave the site a build from nothing gives, byte for byte, file for file', () => {
    expect(fromNothingOutput).not.toContain(reusedMessage)
    const site = rebuilds.at(-1)!.files
    expect([...site.keys()].sort()).toEqual([...fromNothing.keys()].sort())
    const differ = [...site.keys()].filter(
      (file) => !timeStamped(file) && !site.get(file)!.equals(fromNothing.get(file)!),
    )
    expect(differ).toEqual([])
  })

  test('a bundle kept for one address and folder gives another address and folder its site', () => {
    expect(elsewhereOutput).toContain(reusedMessage)
    expect([...elsewhereFiles.keys()].sort()).toEqual([...elsewhereAfresh.keys()].sort())
    const differ = [...elsewhereFiles.keys()].filter(
      (file) => !timeStamped(file) && !elsewhereFiles.get(file)!.equals(elsewhereAfresh.get(file)!),
    )
    expect(differ).toEqual([])
    const home = elsewhereFiles.get('index.html')!.toString()
    expect(home).toContain(`${otherAddress}/`)
    expect(home).not.toContain(server.url)
  })
})
