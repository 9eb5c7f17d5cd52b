import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { openEmbeddedStore } from '@roland/scripts/store/embedded'
import { filterBusinesses } from '../../site/lib/business-filter.ts'
import { launchBrowser } from '../support/browser.ts'
import { buildSite } from '../support/build-site.ts'
import { activeFixtureBusinesses } from '../support/fixture-catalog.ts'
import { useSite } from '../support/site-session.ts'
import { serveStatic, type StaticServer } from '../support/static-server.ts'

// Issue 49: the businesses search finds what a visitor means, not only the words a listing uses:
// what a business is (its OpenStreetMap presets), its services, word forms, typos, and words that
// are not side by side; and what SPEC's "contains" finds still comes first. Each query below is one
// "contains" does not answer (the test says so first), typed into /businesses in Chromium.

const cardNames = (page: Page) => page.locator('main article h2').allInnerTexts()
const searchBox = (page: Page) => page.getByPlaceholder('Search businesses...')

/** Types a query and reads the cards once the directory's status line gives this search's count. */
async function typeQuery(page: Page, q: string): Promise<string[]> {
  const box = searchBox(page)
  await box.fill('')
  await page.locator('[data-directory] [role="status"]').getByText(/./).waitFor({ state: 'detached' })
  await box.fill(q)
  await page
    .locator('[data-directory] [role="status"]')
    .getByText(/^\d+ business/)
    .waitFor()
  return cardNames(page)
}

/** The names SPEC's filter finds for a query, in list order. */
const containsNames = (listed: readonly { name: string; category: string }[], q: string) =>
  filterBusinesses(
    listed.map((b) => ({ short_description: null, full_description: null, ...b })),
    { q, category: '' },
  ).map((b) => b.name)

/**
 * Checks that the cards shown begin with what "contains" finds: all of it when it fits in the page
 * shown, else a page of nothing but it.
 */
function expectContainsFirst(shown: readonly string[], contains: readonly string[], q: string) {
  if (contains.length <= shown.length) expect(shown.slice(0, contains.length).sort(), q).toEqual([...contains].sort())
  else
    expect(
      shown.filter((name) => !contains.includes(name)),
      q,
    ).toEqual([])
}

describe('the businesses search on the test catalog', () => {
  const site = useSite()
  const listed = activeFixtureBusinesses

  const queries: Array<[kind: string, q: string, expected: string]> = [
    ['what it is (a preset name)', 'car repair', 'Roland Auto Repair'],
    ['what it is (a preset term)', 'insurer', 'Big Maumelle Insurance'],
    ['a service', 'takeout', 'Maumelle Smokehouse'],
    ['a service written another way', 'wifi', 'Roland Coffee House'],
    ['a word form', 'pastry', 'Roland Coffee House'],
    ['two words not side by side', 'brisket hickory', 'Maumelle Smokehouse'],
    ['a typo', 'hickry', 'Maumelle Smokehouse'],
  ]

  test.each(queries)('finds %s: "%s" shows %s in the first three cards', async (_kind, q, expected) => {
    expect(containsNames(listed, q), `"${q}" is not one SPEC's contains answers`).toEqual([])
    const { page, errors } = await site.open('/businesses')
    await searchBox(page).focus()
    await page.locator('[data-directory="ready"]').waitFor()
    expect((await typeQuery(page, q)).slice(0, 3)).toContain(expected)
    expect(errors).toEqual([])
  })

  test('shows what SPEC’s contains finds first, the same businesses', async () => {
    const { page } = await site.open('/businesses')
    await searchBox(page).focus()
    await page.locator('[data-directory="ready"]').waitFor()
    for (const q of ['coffee', 'roland', 'bait', 'pinnacle', 'e', 'hardware', 'TIRES']) {
      const contains = containsNames(listed, q)
      expect(contains.length, q).toBeGreaterThan(0)
      const shown = await typeQuery(page, q)
      expectContainsFirst(shown, contains, q)
    }
  })

  test('offers "Did you mean" when nothing matches but a close word would, and Clear Filters', async () => {
    const { page } = await site.open('/businesses?q=bsicuit')
    await page.locator('[data-directory="ready"]').waitFor()
    await expect(page.getByText('No businesses found matching your criteria.').isVisible()).resolves.toBe(true)
    const suggestion = page.getByRole('link', { name: 'biscuits' })
    await suggestion.waitFor()
    await expect(page.getByText('Did you mean biscuits?').isVisible()).resolves.toBe(true)
    await expect(page.getByRole('button', { name: 'Clear Filters' }).isVisible()).resolves.toBe(true)
    await suggestion.click()
    await page.locator('[data-directory] [role="status"]').getByText('1 business', { exact: true }).waitFor()
    await expect(cardNames(page)).resolves.toEqual(['Roland Coffee House'])
    await expect.poll(() => new URL(page.url()).search, { timeout: 15_000 }).toBe('?q=biscuits')
  })

  test('keeps the category filter: a match of another category is not shown', async () => {
    const { page } = await site.open('/businesses?q=insurer&category=Recreation')
    await page.locator('[data-directory="ready"]').waitFor()
    await expect(page.getByText('No businesses found matching your criteria.').isVisible()).resolves.toBe(true)
  })
})

describe('the businesses search on the sample catalog (supabase/Roland.txt)', () => {
  let root: string
  let server: StaticServer
  let browser: Browser
  let listed: Array<{
    name: string
    category: string
    short_description: string | null
    full_description: string | null
  }>

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'roland-search-meaning-'))
    const dataDir = path.join(root, 'data')
    const outDir = path.join(root, 'site')
    server = await serveStatic(outDir)
    browser = await launchBrowser()
    // An empty data folder: the build makes the embedded store with the sample Roland.txt.
    const result = await buildSite({ outDir, dataDir, siteUrl: server.url })
    if (result.code !== 0)
      throw new Error(`The site did not build (exit ${result.code}):\n${result.output.slice(-3000)}`)
    const store = await openEmbeddedStore({ dir: dataDir })
    try {
      listed = (await store.loadCatalog()).businesses.filter((b) => b.is_active)
    } finally {
      await store.close()
    }
  }, 600_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await rm(root, { recursive: true, force: true })
  })

  const queries: Array<[kind: string, q: string, expected: string]> = [
    ['a hair stylist', 'stylist', 'Hwy 300 Hair Studio'],
    ['a groomer', 'groomer', 'Pinnacle Pet Grooming'],
    ['a bookkeeper', 'bookkeeper', 'Ridgeview Tax & Bookkeeping'],
    ['a plumber', 'plumber', 'Lakeside Plumbing & Septic'],
    ['a typo', 'vetrinarian', 'Roland Veterinary Clinic'],
    ['a word form', 'septic pumps', 'Lakeside Plumbing & Septic'],
    ['two words not side by side', 'sandwiches firewood', 'Natural Steps General Store'],
    ['a service', 'immunizations', 'Pinnacle Family Pharmacy'],
  ]

  /**
   * /businesses with its search index loaded, opened once: every query below clears the box and
   * types into it (typeQuery), as a visitor searching again would. A page of its own for each query
   * cost Chromium a new context and the index's files each time.
   */
  let directory: Promise<Page> | undefined
  const openDirectory = () =>
    (directory ??= (async () => {
      const page = await browser.newPage()
      await page.goto(new URL('/businesses', server.url).href)
      await searchBox(page).focus()
      await page.locator('[data-directory="ready"]').waitFor()
      return page
    })())

  test.each(queries)('finds %s: "%s" shows %s in the first three cards', async (_kind, q, expected) => {
    expect(containsNames(listed, q), `"${q}" is not one SPEC's contains answers`).toEqual([])
    const page = await openDirectory()
    expect((await typeQuery(page, q)).slice(0, 3)).toContain(expected)
  })

  test('shows what SPEC’s contains finds first, the same businesses', async () => {
    const page = await openDirectory()
    for (const q of ['coffee', 'pinnacle', 'lake', 'septic', 'r']) {
      const contains = containsNames(listed, q)
      expect(contains.length, q).toBeGreaterThan(0)
      expectContainsFirst(await typeQuery(page, q), contains, q)
    }
  })
})
