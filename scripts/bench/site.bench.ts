import { createReadStream, existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { stripVTControlCharacters } from 'node:util'
import { gzipSync } from 'node:zlib'
import { holdStoreForRebuild, pagesKeptIn } from '../src/rebuild/rebuild.ts'
import { loadPublicCatalog, readCatalogAhead } from '../src/catalog/load.ts'
import {
  closeBuildStandby,
  readyAstroBuild,
  runAstroBuild,
  type AstroBuildOptions,
} from '../src/rebuild/astro-build.ts'
import { peakMemoryPrefix, profileLinePrefix, profileVariable } from '../src/rebuild/build-process.ts'
import { openEmbeddedStore, type EmbeddedStore } from '../src/store/embedded.ts'
import { openLeasedStore, type LeasedStore } from '../src/store/leased.ts'
import type { Store } from '../src/store/types.ts'
import type { Page } from 'playwright-core'
import { launchBrowser } from '../../test/support/browser.ts'
import { builtPages, sitePathOf } from '../../test/support/build-site.ts'
import { firstRoundTrip, firstRoundTripBudget } from '../../test/support/page-weight.ts'
import { countsFromEnv, percentile, table } from './measure.ts'
import { importGenerated } from './migrate.bench.ts'

// The public site built for generated catalogs of 1,000 and 10,000 businesses (issue 8): build
// time, peak memory and output size of a full build and of a rebuild after one business changed,
// the weight of each kind of page, and the cost of a keystroke in the businesses search.
// Targets: 10,000 businesses in under 2 minutes within 2 GB on a 2-core machine; the rebuild in
// under a third of the full build; every page's first round trip (HTML, CSS and inline scripts,
// gzip: issue 30) within 14.6 KB and a business page's script within 2 KB; /businesses under
// 100 KB before a search; a keystroke under 16 ms. Issue 31 adds 100,000 businesses
// (ROLAND_BENCH_SITE_SIZES=1000,10000,100000; default 1000,10000): a build within 150 s and 2 GB,
// a first search of at most 60 KB gzip, and a rebuild at 10,000 within 3 s.

/** The catalog sizes to build, from ROLAND_BENCH_SITE_SIZES (default 1,000 and 10,000 businesses). */
const sizes = () => countsFromEnv('ROLAND_BENCH_SITE_SIZES', '1000,10000')

/**
 * The kinds of page, by path: the first that matches names a page's kind (a category is any other
 * page at the top level). The home page, each fixed page, and each kind of page made from the catalog.
 */
const pageTypes: Array<[label: string, path: RegExp]> = [
  ['/ (home)', /^\/$/],
  ['/businesses', /^\/businesses$/],
  ['/businesses/page/{n}', /^\/businesses\/page\/\d+$/],
  ['/businesses/{alias} (redirect)', /^\/businesses\/[^/]+$/],
  ['/business/{slug}', /^\/business\/[^/]+$/],
  ['/attraction/{id}', /^\/attraction\//],
  ['/events', /^\/events$/],
  ['/contact', /^\/contact$/],
  ['/nearby', /^\/nearby$/],
  ['/recreation', /^\/recreation$/],
  ['/recreation/{category}', /^\/recreation\/[^/]+$/],
  ['/community', /^\/community$/],
  ['/community/{page}', /^\/community\/[^/]+$/],
  ['/about', /^\/about$/],
  ['/about/{page}', /^\/about\/[^/]+$/],
  ['/404', /^\/404$/],
  ['/{category}/page/{n}', /^\/[^/]+\/page\/\d+$/],
  ['/{category}', /^\/[^/]+$/],
]

/**
 * The first round trip of every page of a built site (issue 30: HTML, CSS and inline scripts,
 * gzip, within 14.6 KB), the heaviest page of each kind.
 */
export async function firstRoundTrips(outDir: string, n: number): Promise<Array<Record<string, string | number>>> {
  const cssCache = new Map<string, number>()
  const heaviest = new Map<string, { path: string; pages: number; html: number; css: number; total: number }>()
  for (const file of await builtPages(outDir)) {
    const sitePath = sitePathOf(outDir, file)
    const type = pageTypes.find(([, pattern]) => pattern.test(sitePath))?.[0] ?? 'other'
    const trip = await firstRoundTrip(outDir, file, cssCache)
    const before = heaviest.get(type)
    const pages = (before?.pages ?? 0) + 1
    heaviest.set(type, before && before.total >= trip.total ? { ...before, pages } : { path: sitePath, pages, ...trip })
  }
  return [...pageTypes.map(([label]) => label), 'other'].flatMap((type) => {
    const row = heaviest.get(type)
    if (!row) return []
    return [
      {
        businesses: n,
        page: type,
        pages: row.pages,
        heaviest: row.path,
        'HTML gz B': row.html,
        'CSS gz B': row.css,
        'first trip B': row.total,
        [`≤ ${firstRoundTripBudget}`]: row.total <= firstRoundTripBudget ? 'yes' : 'OVER',
      },
    ]
  })
}

/** A build's time, its peak memory, what it printed, and whether it loaded sharp (the image library). */
export interface BuildRun {
  seconds: number
  peakRssMb: number
  output: string
  loadedSharp: boolean
}

/** The address the bench's sites are built for. */
const benchSiteUrl = 'http://127.0.0.1:4321'

/**
 * Runs `astro build` in a child process, as a deploy would, and reads its peak memory from the
 * child itself: a preloaded module writes process.resourceUsage().maxRSS when the build exits, and
 * a process that outlives its build says it (peakMemoryPrefix; its peak so far, its earlier builds
 * included). The same module notes any module of sharp the build resolves: photos are processed at
 * ingest, and a build that never loads sharp cannot have decoded one.
 *
 * Given the console's store, it builds as the console rebuilds: the catalog read from that store
 * and handed over, in the process of the last rebuild put back on standby once its build was done,
 * or one started ahead, on standby (build-process.ts).
 */
export async function build(
  dataDir: string,
  outDir: string,
  work: string,
  siteUrl = benchSiteUrl,
  consoleStore?: Store,
): Promise<BuildRun> {
  const { rssFile, sharpFile } = reportFiles(work)
  await rm(sharpFile, { force: true })
  const lines: string[] = []
  const start = performance.now()
  // As the console's rebuild runs it: in a working directory of its own, so a test may build beside it.
  const code = await runAstroBuild(await buildOptions(dataDir, outDir, work, siteUrl, consoleStore, lines))
  const seconds = (performance.now() - start) / 1000
  const output = lines.join('\n')
  if (code !== 0) throw new Error(`astro build failed (exit ${code}):\n${output.slice(-3000)}`)
  const said = lines.findLast((line) => line.startsWith(peakMemoryPrefix))
  const peakRssMb = said
    ? Number(said.slice(peakMemoryPrefix.length).replace(/MB$/, ''))
    : Number(await readFile(rssFile, 'utf8')) / 1024
  return { seconds, peakRssMb, output, loadedSharp: existsSync(sharpFile) }
}

/**
 * Readies the next rebuild as the console does once data changed, while it waits to rebuild
 * (prepareRebuild): the build's process started on standby, unless one waits, the catalog
 * read from its store and handed to that process ahead, and the store kept open for the rebuild.
 */
export async function prepareAsConsole(dataDir: string, outDir: string, work: string, consoleStore: LeasedStore) {
  await readyAstroBuild(await buildOptions(dataDir, outDir, work, benchSiteUrl, consoleStore, []))
  await readCatalogAhead(consoleStore)
  holdStoreForRebuild(consoleStore, consoleDebounceMs)
}

/** Where a build's process reports its peak memory and any module of sharp it loads, and the module that does. */
function reportFiles(work: string) {
  return {
    rssFile: path.join(work, 'max-rss'),
    sharpFile: path.join(work, 'sharp-loaded'),
    hook: path.join(work, 'report-rss.mjs'),
  }
}

async function buildOptions(
  dataDir: string,
  outDir: string,
  work: string,
  siteUrl: string,
  consoleStore: Store | undefined,
  lines: string[],
): Promise<AstroBuildOptions> {
  const { rssFile, sharpFile, hook } = reportFiles(work)
  const report = [
    `import { appendFileSync, writeFileSync } from 'node:fs'`,
    `import { registerHooks } from 'node:module'`,
    `registerHooks({`,
    `  resolve(specifier, context, next) {`,
    `    const resolved = next(specifier, context)`,
    `    if (resolved.url.includes('/node_modules/sharp/')) appendFileSync(${JSON.stringify(sharpFile)}, resolved.url + '\\n')`,
    `    return resolved`,
    `  },`,
    `})`,
    `process.on('exit', () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)))`,
    '',
  ].join('\n')
  // Written once: a process on standby that loaded it would count a rewritten one as changed code.
  if ((await readFile(hook, 'utf8').catch(() => '')) !== report) await writeFile(hook, report)
  const env = {
    SUPABASE_URL: '',
    ROLAND_DATA_DIR: dataDir,
    ROLAND_OUT_DIR: outDir,
    SITE_URL: siteUrl,
    ASTRO_TELEMETRY_DISABLED: '1',
  }
  return {
    env,
    execArgv: ['--import', hook],
    onLine: (line) => lines.push(line),
    ...(consoleStore
      ? {
          catalog: () =>
            loadPublicCatalog({
              store: consoleStore,
              onRead: (read) => lines.push(`[bench] businesses read: ${read}`),
            }),
          standby: true,
        }
      : {}),
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name))
}

const gzip = (bytes: Buffer | string) => gzipSync(bytes, { level: 9 }).byteLength
const kb = (bytes: number) => (bytes / 1024).toFixed(1)

/** Raw and gzip bytes of a set of files or texts. */
interface Weight {
  raw: number
  gzip: number
}
const weigh = (parts: Array<Buffer | string>): Weight =>
  parts.reduce<Weight>((sum, part) => ({ raw: sum.raw + Buffer.byteLength(part), gzip: sum.gzip + gzip(part) }), {
    raw: 0,
    gzip: 0,
  })

const attribute = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1]

/** The scripts a module imports, followed through the built chunks (React's client imports its own chunks). */
async function withImports(outDir: string, urls: string[]): Promise<string[]> {
  const seen = new Set<string>()
  const pending = [...urls]
  while (pending.length > 0) {
    const url = pending.pop()!
    if (seen.has(url)) continue
    seen.add(url)
    const code = await readFile(path.join(outDir, url), 'utf8')
    for (const [, spec] of code.matchAll(/(?:from|import)\s*["'`](\.\/[^"'`]+\.js)["'`]/g)) {
      pending.push(path.posix.join(path.posix.dirname(url), spec!))
    }
  }
  return [...seen]
}

/** What a page costs before any interaction: its HTML, its stylesheets, the scripts that run on load. */
async function pageWeight(outDir: string, pathname: string) {
  const html = await readFile(path.join(outDir, pathname, 'index.html'), 'utf8')
  const css: Array<Buffer | string> = []
  const scripts: Array<Buffer | string> = []
  const externalScripts: Buffer[] = []
  const islandScripts: string[] = []
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    if (attribute(tag, 'rel') === 'stylesheet') css.push(await readFile(path.join(outDir, attribute(tag, 'href')!)))
  }
  for (const [, body] of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)) css.push(body!)
  for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/type="application\/ld\+json"/.test(attributes!)) continue
    const src = attribute(`<script ${attributes}>`, 'src')
    if (src) externalScripts.push(await readFile(path.join(outDir, src)))
    else scripts.push(body!)
  }
  // Islands load their component and renderer only when they hydrate (the menu: when it is first opened).
  for (const [tag] of html.matchAll(/<astro-island\b[^>]*>/g)) {
    islandScripts.push(attribute(tag, 'component-url')!, attribute(tag, 'renderer-url')!)
  }
  const later = islandScripts.length > 0 ? await withImports(outDir, islandScripts) : []
  return {
    html: weigh([html]),
    css: weigh(css),
    // Scripts in the HTML are part of its bytes too; "all" adds only the fetched ones.
    script: weigh([...scripts, ...externalScripts]),
    externalScript: weigh(externalScripts),
    onInteraction: weigh(await Promise.all(later.map((url) => readFile(path.join(outDir, url))))),
  }
}

/** What the keystroke measurements type, letter by letter. */
// SPEC's contains (a name, two words side by side), then what the matcher adds (issue 49): a preset's
// term, a typo, a word form, two words apart; and a miss.
const typedSearches = ['roland', 'coffee pastries', 'kayak rentals', 'stylist', 'cofee', 'pastry coffee', 'zzz']

/** Reads the files of a built search index (its manifest's numbering `v`), each once, as the page fetches them. */
function indexFiles(outDir: string, v: string) {
  const read = new Map<string, Promise<unknown>>()
  return (name: string) => {
    let file = read.get(name)
    if (!file) {
      file = readFile(path.join(outDir, 'businesses', 'search', v, name), 'utf8').then(
        (text) => JSON.parse(text) as unknown,
      )
      read.set(name, file)
    }
    return file
  }
}

/**
 * Milliseconds of a search in Node, per keystroke of a few searches typed letter by letter, as the
 * page runs it (site/lib/search-shards.ts): the businesses found (how many, ranked as far as the
 * first page) and the cards of the first page,
 * once the files they need are read (a first round reads them and is not counted).
 */
async function keystrokes(outDir: string) {
  const { parseSearchManifest, shardedSearch } = await import('../../site/lib/search-shards.ts')
  const json = await readFile(path.join(outDir, 'businesses', 'search-index.json'))
  let start = performance.now()
  const manifest = parseSearchManifest(JSON.parse(json.toString('utf8')))
  const search = shardedSearch(manifest, indexFiles(outDir, manifest.v))
  const prepareMs = performance.now() - start
  const categories = ['', 'Dining & Refreshments']
  const times: number[] = []
  for (let round = 0; round < 6; round++) {
    for (const text of typedSearches) {
      for (const category of categories) {
        for (let length = 1; length <= text.length; length++) {
          start = performance.now()
          const found = await search.rank({ q: text.slice(0, length), category })
          await search.cards(found.first(24))
          if (round > 0) times.push(performance.now() - start)
        }
      }
    }
  }
  const files = existsSync(path.join(outDir, 'businesses', 'search'))
    ? await filesUnder(path.join(outDir, 'businesses', 'search'))
    : []
  let filesBytes = 0
  // The matcher's part (w/ and k/, issue 49), against the rest: the index may grow by a third at most.
  let matcherBytes = 0
  for (const file of files) {
    const { size } = await stat(file)
    filesBytes += size
    if (/[\\/][wk][\\/][^\\/]+\.json$/.test(file)) matcherBytes += size
  }
  return {
    manifest: weigh([json]),
    files: files.length,
    filesMb: filesBytes / 2 ** 20,
    matcherGrowth: matcherBytes / Math.max(1, filesBytes - matcherBytes),
    prepareMs,
    median: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    max: Math.max(...times),
  }
}

/** Serves a built site from 127.0.0.1: /path is /path/index.html (enough for the businesses page). */
async function serve(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
    const file = path.join(
      root,
      pathname.endsWith('.json') || pathname.endsWith('.js') || pathname.endsWith('.css')
        ? pathname
        : path.join(pathname, 'index.html'),
    )
    if (!file.startsWith(root) || !existsSync(file)) {
      response.writeHead(404).end()
      return
    }
    const type = file.endsWith('.js')
      ? 'text/javascript'
      : file.endsWith('.css')
        ? 'text/css'
        : file.endsWith('.json')
          ? 'application/json'
          : 'text/html'
    response.writeHead(200, { 'content-type': type })
    createReadStream(file).pipe(response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** First searches, each in a fresh page: a letter, a word, two words, a miss, a category alone, a name, a preset's term, a typo. */
const firstSearches: Array<{ q: string; category?: string }> = [
  { q: 'r' },
  { q: 'roland' },
  { q: 'kayak rentals' },
  { q: 'zzz' },
  { q: '', category: 'Dining & Refreshments' },
  { q: 'Cafe 4217' },
  { q: 'stylist' },
  { q: 'cofee' },
]

/**
 * Waits for the businesses search to show the results of what was typed or chosen, in the
 * directory's own status line ("Save for offline" has one too, earlier on the page).
 */
const resultsShown = (page: Page) =>
  page.waitForFunction(() =>
    /^\d+ business/.test(document.querySelector('[data-directory] [role="status"]')?.textContent ?? ''),
  )

/**
 * In Chromium: the scripts and index files (gzip) a visitor's first search fetches, from focusing
 * the search box to the first results; and the milliseconds from a keystroke to the updated
 * results in the DOM, typing a few searches letter by letter (the first round, which fetches the
 * files, is not counted; it is reported as the first-round p95).
 */
async function searchInBrowser(outDir: string) {
  const server = await serve(outDir)
  const browser = await launchBrowser({ jit: 'full' })
  try {
    const first: Array<{ search: string; gzip: number; files: number }> = []
    for (const { q, category } of firstSearches) {
      const page = await browser.newPage()
      await page.goto(`${server.url}/businesses`)
      await page.waitForLoadState('networkidle')
      const fetched: string[] = []
      page.on('request', (request) => fetched.push(new URL(request.url()).pathname))
      await page.getByPlaceholder('Search businesses...').focus()
      if (category) await page.getByLabel('Category').selectOption(category)
      if (q) await page.getByPlaceholder('Search businesses...').fill(q)
      await resultsShown(page)
      const files = fetched.filter((pathname) => /\.(js|json)$/.test(pathname))
      const bytes = await Promise.all(files.map((pathname) => readFile(path.join(outDir, pathname))))
      first.push({ search: category ? `category ${category}` : q, gzip: weigh(bytes).gzip, files: files.length })
      await page.close()
    }

    const page = await browser.newPage()
    await page.goto(`${server.url}/businesses`)
    await page.getByPlaceholder('Search businesses...').focus()
    await page.locator('[data-directory="ready"]').waitFor()
    const typing = await page.evaluate(async (texts) => {
      const input = document.querySelector<HTMLInputElement>('input[type="search"]')!
      const root = document.querySelector('[data-business-directory]')!
      const warm: number[] = []
      const cold: number[] = []
      for (let round = 0; round < 4; round++) {
        for (const text of texts) {
          for (let length = 0; length <= text.length; length++) {
            // A keystroke that changes nothing draws nothing.
            if (input.value === text.slice(0, length)) continue
            const drawn = new Promise<void>((resolve) => {
              const observer = new MutationObserver(() => {
                observer.disconnect()
                resolve()
              })
              // The island marks each search drawn (data-drawn): one whose page of results is already shown changes nothing else.
              observer.observe(root, {
                childList: true,
                subtree: true,
                characterData: true,
                attributeFilter: ['data-drawn'],
              })
            })
            const start = performance.now()
            // Through the prototype's setter, as typing does.
            Reflect.set(HTMLInputElement.prototype, 'value', text.slice(0, length), input)
            input.dispatchEvent(new Event('input', { bubbles: true }))
            await drawn
            ;(round === 0 ? cold : warm).push(performance.now() - start)
            await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
          }
        }
      }
      return { warm, cold }
    }, typedSearches)
    return { first, ...typing }
  } finally {
    await browser.close()
    await server.close()
  }
}

/** How long the console waits after a change before it rebuilds (its ROLAND_REBUILD_DEBOUNCE_MS' default). */
const consoleDebounceMs = 3000

/** Full build, rebuild after one business changed, page weights and keystroke cost, for n businesses. */
export async function benchSite(n: number) {
  const work = await mkdtemp(path.join(tmpdir(), `roland-site-bench-${n}-`))
  try {
    const dataDir = path.join(work, 'data')
    const outDir = path.join(work, 'site')
    const store = await openEmbeddedStore({ dir: dataDir })
    await importGenerated(store, n)
    await store.close()

    const full = await build(dataDir, outDir, work)
    // The rebuilds below run as the console's do, from a console started after the full build: the
    // catalog read from its store (open, leased) and handed over, the first in a process started on
    // standby and the next in that one, put back on standby once each build was done, and both
    // readied while it waits to rebuild after a change.
    const consoleStore = await openLeasedStore(() => openEmbeddedStore({ dir: dataDir }))
    const files = await filesUnder(outDir)
    const pages = files.filter((file) => file.endsWith('.html')).length
    let outputBytes = 0
    // The heaviest page, whatever its kind: a list that grows with the catalog shows here first.
    let largest = { file: '', size: 0 }
    for (const file of files) {
      const { size } = await stat(file)
      outputBytes += size
      if (file.endsWith('.html') && size > largest.size) largest = { file, size }
    }
    const largestPage = `/${path.relative(outDir, path.dirname(largest.file))} ${kb(weigh([await readFile(largest.file)]).gzip)} gz`
    const firstTrips = await firstRoundTrips(outDir, n)

    // One business changes, as after an operator's edit or a crawl of its website, three times over:
    // the first rebuild starts from the copy of every page the full build left in Astro's cache (moved
    // into place while Astro syncs its content); the next ones start from the site the one before
    // replaced, with only the files that changed copied in.
    const rebuilds: BuildRun[] = []
    for (const [round, offset] of [7, 8, 9].entries()) {
      // Changed through the console's store, which holds the database open for its rebuild.
      const { rows } = await consoleStore.use((store) =>
        (store as EmbeddedStore).db.query<{ slug: string }>(
          `update businesses set short_description = $1, updated_at = now()
           where slug = (select slug from businesses order by slug offset ${offset} limit 1) returning slug`,
          [`Now serving breakfast all day (${round + 1}).`],
        ),
      )
      // The console readies the rebuild, and runs it 3 s after the last change (ROLAND_REBUILD_DEBOUNCE_MS' default).
      const ready = prepareAsConsole(dataDir, outDir, work, consoleStore)
      await sleep(consoleDebounceMs)
      await ready
      const rebuild = await build(dataDir, outDir, work, undefined, consoleStore)
      const slug = rows[0]!.slug
      const html = await readFile(path.join(outDir, 'business', slug, 'index.html'), 'utf8')
      if (!html.includes(`Now serving breakfast all day (${round + 1}).`)) {
        throw new Error(`Rebuild ${round + 1} did not update /business/${slug}`)
      }
      rebuilds.push(rebuild)
    }
    await closeBuildStandby()
    await consoleStore.close()
    const last = rebuilds.at(-1)!
    const rendered = (last.output.match(/\(\+\d+(?:\.\d+)?m?s\)/g) ?? []).length
    const reused = pagesKeptIn(stripVTControlCharacters(last.output))

    const someBusiness = (await readdir(path.join(outDir, 'business')))[0]!
    const weights: Array<[string, string]> = [
      ['/business/{slug}', `business/${someBusiness}`],
      ['/businesses', 'businesses'],
      ['/businesses/page/2', 'businesses/page/2'],
      ['/ (home)', ''],
      ['/dining-refreshments', 'dining-refreshments'],
    ]
    const pageRows: Array<Record<string, string | number>> = []
    for (const [label, pathname] of weights) {
      if (!existsSync(path.join(outDir, pathname, 'index.html'))) continue
      const weight = await pageWeight(outDir, pathname)
      pageRows.push({
        businesses: n,
        page: label,
        'HTML KB': kb(weight.html.raw),
        'HTML gz': kb(weight.html.gzip),
        'CSS KB': kb(weight.css.raw),
        'CSS gz': kb(weight.css.gzip),
        'HTML+CSS gz': kb(weight.html.gzip + weight.css.gzip),
        'script KB': kb(weight.script.raw),
        'script gz': kb(weight.script.gzip),
        'all gz': kb(weight.html.gzip + weight.css.gzip + weight.externalScript.gzip),
        'on opening gz': weight.onInteraction.gzip > 0 ? kb(weight.onInteraction.gzip) : '-',
      })
    }
    const search = await keystrokes(outDir)
    const inBrowser = await searchInBrowser(outDir)
    const typing = inBrowser.warm
    return {
      profiles: [`full build, ${n} businesses`, full, `rebuild 3, ${n} businesses`, last] as const,
      build: {
        businesses: n,
        pages,
        'build s': full.seconds.toFixed(1),
        'pages/s': Math.round(pages / full.seconds),
        'peak RSS MB': Math.round(full.peakRssMb),
        'output MB': (outputBytes / 2 ** 20).toFixed(1),
        'largest page KB': largestPage,
        'rebuilds 1, 2, 3 s': rebuilds.map((r) => r.seconds.toFixed(1)).join(', '),
        'rebuilds ÷ full': rebuilds.map((r) => (r.seconds / full.seconds).toFixed(2)).join(', '),
        'rebuild 3 rendered': rendered,
        'rebuild 3 reused': reused,
        'rebuilds on standby': rebuilds.filter((r) => r.output.includes('[roland:standby] started')).length,
        'businesses each read': rebuilds
          .map((r) => /\[bench\] businesses read: (\w+)/.exec(r.output)?.[1] ?? '?')
          .join(', '),
        'rebuild RSS MB': Math.round(Math.max(...rebuilds.map((r) => r.peakRssMb))),
      },
      pages: pageRows,
      firstTrips,
      search: {
        businesses: n,
        'manifest gz KB': kb(search.manifest.gzip),
        files: search.files,
        'files MB': search.filesMb.toFixed(1),
        'matcher growth %': (search.matcherGrowth * 100).toFixed(0),
        'first search gz KB (max)': kb(Math.max(...inBrowser.first.map((f) => f.gzip))),
        'prepare ms': search.prepareMs.toFixed(1),
        'keystroke median ms': search.median.toFixed(2),
        'keystroke p95 ms': search.p95.toFixed(2),
        'keystroke max ms': search.max.toFixed(2),
        'in Chromium median ms': percentile(typing, 0.5).toFixed(1),
        'in Chromium p95 ms': percentile(typing, 0.95).toFixed(1),
        'in Chromium max ms': Math.max(...typing).toFixed(1),
        'first round p95 ms': percentile(inBrowser.cold, 0.95).toFixed(1),
      },
      firstSearches: inBrowser.first.map((f) => ({
        businesses: n,
        'first search': f.search,
        'files fetched': f.files,
        'gz KB': kb(f.gzip),
      })),
    }
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

/**
 * Builds the site for each catalog size (1,000 and 10,000 generated businesses) and prints the
 * figures of issues 8, 30 and 50, each size's as soon as it is measured: a 100,000-business run
 * takes long, and a smaller size's figures are not lost if it is stopped.
 */
export async function run(): Promise<void> {
  // `pnpm bench site --profile`: every build prints its phases (site/lib/build-profile.ts).
  if (process.argv.includes('--profile')) process.env[profileVariable] = '1'
  // Every build makes a folder per page, twice (the site and Astro's cache): the speed of creating
  // folders where the builds run weighs on the figures, and differs from one folder to another.
  process.stdout.write(`\nBuilding in ${tmpdir()} (set TMPDIR to measure on another disk).\n`)
  for (const n of sizes()) printResults(await benchSite(n))
}

function printResults(result: Awaited<ReturnType<typeof benchSite>>): void {
  const results = [result]
  process.stdout.write(
    '\nBuilds (a full build, then three rebuilds, each after one business changed; the first starts from the\n' +
      "pages the full build left in Astro's cache; the next ones copy in only the files the one before changed):\n",
  )
  table(results.map((result) => result.build))
  process.stdout.write(
    '\nPage weights in KB before any interaction (script: in the HTML and fetched; all: HTML, CSS and fetched\n' +
      'scripts; on opening: the menu island and React, fetched when the visitor opens the menu):\n',
  )
  table(results.flatMap((result) => result.pages))
  process.stdout.write(
    `\nThe first round trip of each kind of page, its heaviest page (issue 30): the HTML, its inline scripts\n` +
      `and Astro's island loader included, and the stylesheets it links, gzip, in bytes; OVER past ${firstRoundTripBudget}\n` +
      '(ten TCP segments of 1,460 bytes):\n',
  )
  table(results.flatMap((result) => result.firstTrips))
  process.stdout.write(
    '\nThe businesses search: its index, the filter alone per keystroke in Node, and in Chromium a keystroke\n' +
      'from the input event to the results in the DOM (filter and render of a page of results):\n',
  )
  table(results.map((result) => result.search))
  process.stdout.write(
    '\nFirst searches, each in a fresh page: the scripts and index files fetched (gzip) from focusing the\n' +
      'search box to the first results:\n',
  )
  table(results.flatMap((result) => result.firstSearches))
  if (process.env[profileVariable] !== '1') return
  process.stdout.write('\nWhere the builds spent their time and memory, phase by phase (ROLAND_BUILD_PROFILE=1):\n')
  for (const [fullLabel, full, rebuildLabel, rebuild] of results.map((result) => result.profiles)) {
    for (const [label, run] of [
      [fullLabel, full],
      [rebuildLabel, rebuild],
    ] as const) {
      process.stdout.write(`\n${label}:\n`)
      for (const line of run.output.split('\n').filter((l) => l.startsWith(profileLinePrefix))) {
        process.stdout.write(`${line.slice(profileLinePrefix.length + 1)}\n`)
      }
    }
  }
}
