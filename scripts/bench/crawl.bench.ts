import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { runCrawl, runCrawlMissing } from '../src/crawl/job.ts'
import { runMigration } from '../src/migrate/job.ts'
import { openEmbeddedStore, type EmbeddedStore } from '../src/store/embedded.ts'
import { FIXTURE_SITES, startFixtureSite, type FixtureSite } from '../test/crawl-fixture-server.ts'
import { measure, table } from './measure.ts'
import { generateRolandText } from './migrate.bench.ts'

// A crawl of 50 business websites served on 127.0.0.1, with every chosen image downloaded and
// stored in an in-memory store: the whole of `roland crawl --missing` but the network's latency.
// The sites are copies of the fixture sites, each with its own bytes; the one-page site's CDN
// photo is served by the site itself, so nothing leaves the machine.

const SITE_COUNT = 50
const KINDS = ['wordpress-bakery', 'onepage-smokehouse', 'favicon-only'] as const
const IMAGE_FILE = /\.(?:jpe?g|png|gif)$/i

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name))
}

/** Writes site number `index`: a fixture site with its own image bytes and, for the one-page site, a local CDN. */
async function makeSite(root: string, index: number): Promise<string> {
  const kind = KINDS[index % KINDS.length]!
  const dir = path.join(root, `${String(index).padStart(2, '0')}-${kind}`)
  await cp(path.join(FIXTURE_SITES, kind), dir, { recursive: true })
  for (const file of await filesUnder(dir)) {
    if (IMAGE_FILE.test(file)) {
      // Bytes after an image's end marker are ignored by every decoder; they make each site's pictures its own.
      await writeFile(file, Buffer.concat([await readFile(file), Buffer.from(`site ${index}`)]))
    } else if (file.endsWith('.html')) {
      const html = await readFile(file, 'latin1')
      await writeFile(file, html.replaceAll('//cdn.pinnaclesmokehouse.example', '__ORIGIN__'), 'latin1')
    }
  }
  if (kind === 'onepage-smokehouse') {
    await mkdir(path.join(dir, 'photos'))
    const photo = await readFile(path.join(dir, 'img', 'smoker-at-dawn.jpg'))
    await writeFile(path.join(dir, 'photos', 'brisket-plate.jpg'), Buffer.concat([photo, Buffer.from(' brisket')]))
  }
  return dir
}

/** A store with the 50 businesses, each with one of the sites as its website. */
async function storeWithSites(sites: FixtureSite[]): Promise<EmbeddedStore> {
  const store = await openEmbeddedStore()
  await runMigration({ store, source: { bytes: new TextEncoder().encode(generateRolandText(sites.length)) } })
  const slugs = (await store.listBusinesses()).map((business) => business.slug)
  for (const [index, site] of sites.entries()) {
    await store.db.query('update businesses set website = $2 where slug = $1', [slugs[index], site.url('/')])
  }
  return store
}

/** Crawl, download and store times for 50 local sites, one at a time and four at a time, and a re-crawl. */
export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'roland-crawl-bench-'))
  const sites: FixtureSite[] = []
  const rows: Array<Record<string, string | number>> = []
  try {
    for (let index = 0; index < SITE_COUNT; index++) sites.push(await startFixtureSite(await makeSite(root, index)))

    for (const concurrency of [1, 4]) {
      const store = await storeWithSites(sites)
      // The in-memory Postgres is most of the memory; this says how much the crawl itself adds.
      const before = process.memoryUsage.rss() / 2 ** 20
      const first = await measure(() =>
        runCrawlMissing({ store, engine: { engine: 'builtin' }, allowPrivateNetwork: true, concurrency }),
      )
      rows.push({
        run: `--missing, ${concurrency} at a time`,
        sites: SITE_COUNT,
        'total s': first.seconds.toFixed(2),
        'sites/s': (SITE_COUNT / first.seconds).toFixed(1),
        'images stored': first.result.stored,
        failed: first.result.failed.length,
        'RSS before MB': Math.round(before),
        'peak RSS MB': Math.round(first.peakRssMb),
      })

      if (concurrency === 4) {
        // Every business again by slug: the same pictures, so no new file and no new row.
        const beforeAgain = process.memoryUsage.rss() / 2 ** 20
        const slugs = first.result.crawled.map((business) => business.slug)
        const again = await measure(async () => {
          let added = 0
          for (const slug of slugs) {
            const result = await runCrawl({
              store,
              target: { slug },
              engine: { engine: 'builtin' },
              allowPrivateNetwork: true,
            })
            added += result.stored.filter((image) => image.created).length
          }
          return added
        })
        rows.push({
          run: 're-crawl by slug, 1 at a time',
          sites: slugs.length,
          'total s': again.seconds.toFixed(2),
          'sites/s': (slugs.length / again.seconds).toFixed(1),
          'images stored': again.result,
          failed: 0,
          'RSS before MB': Math.round(beforeAgain),
          'peak RSS MB': Math.round(again.peakRssMb),
        })
      }
      await store.close()
    }
  } finally {
    await Promise.all(sites.map((site) => site.close()))
    await rm(root, { recursive: true, force: true })
  }
  table(rows)
}
