import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { allBusinesses, compareBusinesses } from '@roland/scripts/catalog/queries'
import { loadPublicCatalog } from '@roland/scripts/catalog/load'
import { WordKeys } from '@roland/scripts/search/text'
import { openEmbeddedStore, type EmbeddedStore } from '@roland/scripts/store/embedded'
import { closeBuildStandby } from '@roland/scripts/rebuild/astro-build'
import { prepareRebuild, rebuildSite } from '@roland/scripts/rebuild/rebuild'
import type { Business } from '@roland/scripts/catalog/types'
import { filterBusinesses, type BusinessFilters } from '../../site/lib/business-filter.ts'
import { readSiteCatalog } from '../../site/lib/catalog-source.ts'
import { buildSearchIndex, toSearchIndexEntry } from '../../site/lib/search-index.ts'
import { parseSearchManifest, shardedSearch } from '../../site/lib/search-shards.ts'
import { launchBrowser } from '../support/browser.ts'
import { buildSite } from '../support/build-site.ts'
import { addBusinesses, describeBusiness, numberedBusinesses } from '../support/catalog-changes.ts'
import { activeFixtureBusinesses } from '../support/fixture-catalog.ts'
import { copyFixtureDataDir } from '../support/fixture-data-dir.ts'
import { serveStatic, type StaticServer } from '../support/static-server.ts'

// A catalog past the size searched in one file (200 businesses): the fixture's ten and 240 market
// stalls in two categories, so the businesses page searches the index's small files, fetching
// each as a search needs it. The results must begin with what SPEC's filter finds in the catalog,
// and be what the search module finds in the built files (read here in Node), in its rank order.

const stalls = [
  ...numberedBusinesses('Market Stall', 120),
  ...numberedBusinesses('Lakeside Stall', 120, 'Dining & Refreshments'),
]
/** The listed businesses in list order, with what the filter reads. */
const catalog = [
  ...activeFixtureBusinesses.map((b) => ({ ...b, full_description: b.full_description ?? null })),
  ...stalls.map((b) => ({ ...b, full_description: null })),
].sort((a, b) => compareBusinesses(a as unknown as Business, b as unknown as Business))

let root: string
let dataDir: string
let outDir: string
let server: StaticServer
let browser: Browser

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-search-shards-'))
  dataDir = path.join(root, 'data')
  outDir = path.join(root, 'site')
  copyFixtureDataDir(dataDir)
  await addBusinesses(dataDir, stalls)
  server = await serveStatic(outDir)
  browser = await launchBrowser()
  const result = await buildSite({ outDir, dataDir, siteUrl: server.url })
  if (result.code !== 0) throw new Error(`The site did not build (exit ${result.code}):\n${result.output.slice(-3000)}`)
  // A build of 250 businesses, on a busy 2-core machine.
}, 600_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await rm(root, { recursive: true, force: true })
})

/** The search index of the catalog in dataDir as a build reads it, made anew (never from a kept one). */
async function indexMadeAnew(open?: EmbeddedStore) {
  const store = open ?? (await openEmbeddedStore({ dir: dataDir }))
  // The build leaves out a photo whose file is not in the data folder's storage.
  const dataDirBefore = process.env.ROLAND_DATA_DIR
  process.env.ROLAND_DATA_DIR = dataDir
  try {
    const read = await readSiteCatalog(
      () => {},
      () => loadPublicCatalog({ store }),
    )
    const wordKeys = new WordKeys()
    const entries = allBusinesses(read).map((business) => toSearchIndexEntry(business, wordKeys))
    return buildSearchIndex(entries, () => {
      throw new Error('The index of this catalog is split into files.')
    })
  } finally {
    if (dataDirBefore === undefined) delete process.env.ROLAND_DATA_DIR
    else process.env.ROLAND_DATA_DIR = dataDirBefore
    if (!open) await store.close()
  }
}

/** What the search module finds in the built index (read from outDir, as the page fetches it), by number. */
async function searchBuilt(filters: BusinessFilters): Promise<number[]> {
  const read = (file: string) => readFile(path.join(outDir, 'businesses', file), 'utf8').then(JSON.parse)
  const manifest = parseSearchManifest(await read('search-index.json'))
  return shardedSearch(manifest, (name) => read(`search/${manifest.v}/${name}`)).find(filters)
}

/** The first page of what the search finds, in its order, checked to begin with what SPEC's filter finds. */
async function expected(filters: BusinessFilters, listed = catalog) {
  const found = (await searchBuilt(filters)).map((id) => listed[id]!.name)
  const contains = filterBusinesses(listed, filters).map((b) => b.name)
  expect(found.slice(0, contains.length).sort(), filters.q).toEqual([...contains].sort())
  return found.slice(0, 24)
}
const status = (count: number) => (count === 1 ? '1 business' : `${count} businesses`)

/** Opens /businesses with a record of what it fetches and of its console errors. */
async function openDirectory() {
  const page = await browser.newPage()
  const fetched: string[] = []
  const errors: string[] = []
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto(new URL('/businesses', server.url).href)
  return { page, fetched, errors }
}

/** Waits for the status line to give the count of the search's results, then reads the cards' names. */
async function shown(page: Page, filters: BusinessFilters): Promise<string[]> {
  await page
    .getByRole('status')
    .getByText(status((await searchBuilt(filters)).length), { exact: true })
    .waitFor()
  return page.locator('main article h2').allInnerTexts()
}

describe('the businesses search of a catalog searched in files', () => {
  test('finds what SPEC’s filter finds, in names and descriptions, across words and categories', async () => {
    const { page, errors } = await openDirectory()
    try {
      const box = page.getByPlaceholder('Search businesses...')
      await box.focus()
      await page.locator('[data-directory="ready"]').waitFor()
      // SPEC's contains, then what the matcher adds: a word form, a typo, two words in another order.
      for (const q of [
        'Stall 11',
        'BISCUITS',
        'hickory',
        'e s',
        'all 1',
        'zzz',
        'road  to',
        'road to the',
        'stalls 7',
        'lakesde stall',
        'stall lakeside 9',
      ]) {
        // From the static list (no status) each time, so the count waited for is this search's.
        await box.fill('')
        await page.getByRole('status').getByText(/./).waitFor({ state: 'detached' })
        await box.fill(q)
        expect(await shown(page, { q, category: '' }), q).toEqual(await expected({ q, category: '' }))
      }
      await page.getByLabel('Category').selectOption('Dining & Refreshments')
      await box.fill('stall 10')
      const filters = { q: 'stall 10', category: 'Dining & Refreshments' }
      expect(await shown(page, filters)).toEqual(await expected(filters))
      expect(errors).toEqual([])
    } finally {
      await page.close()
    }
  })

  test('fetches only the files a search needs, never one that is not there', async () => {
    const { page, fetched, errors } = await openDirectory()
    try {
      await page.getByPlaceholder('Search businesses...').fill('lakeside stall 7')
      await shown(page, { q: 'lakeside stall 7', category: '' })
      const files = fetched.filter((pathname) => pathname.startsWith('/businesses/search/'))
      const all = await readdir(path.join(outDir, 'businesses', 'search'), { recursive: true })
      expect(files.length).toBeGreaterThan(0)
      expect(files.length).toBeLessThan(all.length / 10)
      expect(errors).toEqual([])
    } finally {
      await page.close()
    }
  })

  test('shows a page of results at a time, and the next on request', async () => {
    const { page } = await openDirectory()
    try {
      await page.getByPlaceholder('Search businesses...').fill('market')
      const names = await shown(page, { q: 'market', category: '' })
      expect(names).toEqual(await expected({ q: 'market', category: '' }))
      const more = (await searchBuilt({ q: 'market', category: '' })).length - 24
      expect(more).toBeGreaterThanOrEqual(96)
      await page.getByRole('button', { name: `Show more businesses (${more} more)` }).click()
      await page.locator('main article h2').nth(47).waitFor()
      await expect(page.locator('main article h2').count()).resolves.toBe(48)
    } finally {
      await page.close()
    }
  })

  test('a rebuild after one business changed updates the index the last build kept: the files a build from nothing makes', async () => {
    const stall = catalog.find((business) => business.slug === 'market-stall-07')!
    stall.short_description = 'Figs and honey on Fridays, by the bait shop.'
    await describeBusiness(dataDir, stall.slug, stall.short_description)
    const rebuilt = await buildSite({ outDir, dataDir, siteUrl: server.url, env: { ROLAND_BUILD_PROFILE: '1' } })
    expect(rebuilt.code, rebuilt.output.slice(-3000)).toBe(0)
    expect(rebuilt.output).toMatch(/search index \(reader thread; the last one's, [1-9]\d* files written again\)/)

    // The index of the catalog as the build read it, made anew here.
    const made = await indexMadeAnew()
    const searchDir = path.join(outDir, 'businesses', 'search', made.manifest.v)
    expect(await readFile(path.join(outDir, 'businesses', 'search-index.json'), 'utf8')).toBe(
      JSON.stringify(made.manifest),
    )
    const built = (await readdir(searchDir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(searchDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    expect(built.sort()).toEqual([...made.files.keys(), ...made.cardFiles.keys()].sort())
    const differ = []
    for (const [name, json] of made.files)
      if ((await readFile(path.join(searchDir, name), 'utf8')) !== json) differ.push(name)
    expect(differ).toEqual([])
    expect((await expected({ q: 'figs', category: '' }))[0]).toBe('Market Stall 07')
  }, 300_000)

  test('rebuilds the console runs, in the process it keeps on standby, update the index that process holds: the files a build from nothing makes', async () => {
    const store = await openEmbeddedStore({ dir: dataDir })
    const env = {
      SUPABASE_URL: '',
      ROLAND_OUT_DIR: outDir,
      ROLAND_DATA_DIR: dataDir,
      SITE_URL: server.url,
      ASTRO_TELEMETRY_DISABLED: '1',
      ROLAND_BUILD_PROFILE: '1',
    }
    const describeStalls = async (stalls: typeof catalog, text: (n: number) => string) => {
      for (const [n, stall] of stalls.entries()) {
        stall.short_description = text(n)
        await store.db.query('update businesses set short_description = $2, updated_at = now() where slug = $1', [
          stall.slug,
          stall.short_description,
        ])
      }
    }
    const rebuild = async () => {
      const lines: string[] = []
      await rebuildSite({ store, env, standby: true, onLog: (line) => lines.push(line) })
      return lines.join('\n')
    }
    const sameAsMadeAnew = async () => {
      const made = await indexMadeAnew(store)
      const searchDir = path.join(outDir, 'businesses', 'search', made.manifest.v)
      const differ = []
      for (const [name, json] of made.files)
        if ((await readFile(path.join(searchDir, name), 'utf8')) !== json) differ.push(name)
      return differ
    }
    const stallsNamed = (prefix: string) => catalog.filter((business) => business.slug.startsWith(prefix))
    try {
      // Readied as the console readies a rebuild once data changed: the process started on standby
      // takes up the index the last build kept while it waits, and its first build updates it on
      // its own thread, as do its next builds.
      await describeStalls(stallsNamed('market-stall-3'), () => 'Quinces and medlars, in season.')
      await prepareRebuild({ store, env, standby: true })
      let log = await rebuild()
      expect(log).toMatch(/\[roland:standby\] started, with Astro loaded/)
      expect(log).toMatch(/search index \(this thread; the last one's, [1-9]\d* files written again\)/)
      await describeStalls(stallsNamed('lakeside-stall-4'), () => 'Smoked trout on Saturdays.')
      log = await rebuild()
      expect(log).toContain('build 2 of this process')
      expect(log).toMatch(/search index \(this thread; the last one's, [1-9]\d* files written again\)/)
      expect(await sameAsMadeAnew()).toEqual([])
      // Too many changed to update (more than one business in ten): a reader makes it anew.
      const many = stallsNamed('market-stall-1')
      expect(many.length).toBeGreaterThan(catalog.length / 10)
      await describeStalls(many, (n) => `Stall ${n} sells honey and figs.`)
      log = await rebuild()
      expect(log).toMatch(/search index \(reader thread/)
      expect(log).not.toMatch(/search index \(this thread/)
      expect(await sameAsMadeAnew()).toEqual([])
    } finally {
      await closeBuildStandby()
      await store.close()
    }
    expect(await expected({ q: 'medlars', category: '' })).toHaveLength(10)
    expect(await expected({ q: 'trout', category: '' })).toHaveLength(10)
    expect(await expected({ q: 'figs', category: '' })).toHaveLength(24)
  }, 600_000)

  // Last: it changes the catalog and rebuilds the site.
  test('a page left open across a rebuild that numbers the businesses anew searches the new index', async () => {
    const { page, fetched, errors } = await openDirectory()
    try {
      const box = page.getByPlaceholder('Search businesses...')
      await box.fill('market stall 1')
      await shown(page, { q: 'market stall 1', category: '' })
      // A business that lists first numbers every other one anew; the open page still holds the old manifest.
      const first = {
        ...numberedBusinesses('Aardvark Lakeside Bait', 1, 'Dining & Refreshments')[0]!,
        full_description: null,
      }
      await addBusinesses(dataDir, [first])
      const rebuilt = await buildSite({ outDir, dataDir, siteUrl: server.url })
      expect(rebuilt.code, rebuilt.output.slice(-3000)).toBe(0)
      const listed = [first, ...catalog].sort((a, b) =>
        compareBusinesses(a as unknown as Business, b as unknown as Business),
      )

      await box.fill('lakeside')
      expect(await shown(page, { q: 'lakeside', category: '' })).toEqual(
        await expected({ q: 'lakeside', category: '' }, listed),
      )
      expect(fetched.filter((pathname) => pathname === '/businesses/search-index.json')).toHaveLength(2)
      // The old build's file that told the page so is the only error.
      expect(errors.filter((error) => !error.includes('404'))).toEqual([])
    } finally {
      await page.close()
    }
  }, 300_000)
})
