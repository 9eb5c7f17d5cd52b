import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { addPhoto } from '../src/images/add-photo.ts'
import { runMigration } from '../src/migrate/job.ts'
import { openEmbeddedStore, type EmbeddedStore } from '../src/store/embedded.ts'
import { launchBrowser } from '../../test/support/browser.ts'
import { weighPage, type PageWeight, type Transferred } from '../../test/support/page-weight.ts'
import { serveStatic } from '../../test/support/static-server.ts'
import { compareDerivatives } from './derivatives-speed.ts'
import { countsFromEnv, measure, percentile, table } from './measure.ts'
import { generateRolandText } from './migrate.bench.ts'
import { build } from './site.bench.ts'

// Photos from ingest to a phone (issue 17): generated catalogs whose businesses have three large
// photos each (2400×1600 JPEGs of about a megabyte, like a restaurant's own website has), added as
// an upload or a crawl adds them into an embedded store on disk; then the site built from it, and
// a business page and a category page weighed in Chromium on a phone. Prints, for each count, the
// time per photo, what the derivatives weigh against the originals, the build's time and memory
// (and whether it loaded sharp: it must never decode a photo), and the pages' weights, so that
// their growth with the count shows. ROLAND_BENCH_PHOTO_COUNTS sets the counts of businesses
// (e.g. 50,200: 150 and 600 photos; about 25 minutes on a 2-core machine). Without it, only the
// quick part runs: the derivatives of three photos against a plain JPEG re-encode (issue 31).

const PHOTOS_EACH = 3

/** The counts of businesses to measure, from ROLAND_BENCH_PHOTO_COUNTS (none by default: e.g. 50,200). */
const counts = () =>
  process.env.ROLAND_BENCH_PHOTO_COUNTS?.trim() ? countsFromEnv('ROLAND_BENCH_PHOTO_COUNTS', '50,200') : []

/** The pages weighed: a cafe's page (hero and two gallery photos) and page 1 of its category. */
const pages: Array<[label: string, pathname: string]> = [
  ['/business/{slug}', '/business/roland-cafe-1'],
  ['/dining-refreshments', '/dining-refreshments'],
]

/** A photo-like 2400×1600 JPEG: smooth random shapes with grain, different every call. */
async function largePhoto(): Promise<Buffer> {
  const blobs = await sharp({
    create: {
      width: 48,
      height: 32,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .resize(2400, 1600, { kernel: 'cubic' })
    .raw()
    .toBuffer()
  const grain = await sharp({
    create: {
      width: 2400,
      height: 1600,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 12 },
    },
  })
    .raw()
    .toBuffer()
  for (let i = 0; i < blobs.length; i++) blobs[i] = Math.max(0, Math.min(255, blobs[i]! + grain[i]! - 128))
  return sharp(blobs, { raw: { width: 2400, height: 1600, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer()
}

/**
 * Adds three photos to each business of the store through addPhoto, one after another as a crawl
 * does, timing each; then adds up what the originals and their derivatives weigh.
 */
async function addPhotos(store: EmbeddedStore, photos: Buffer[]) {
  const { rows } = await store.db.query<{ id: string }>('select id from businesses order by created_at, slug')
  const times: number[] = []
  let originalBytes = 0
  const all = await measure(async () => {
    for (const [b, { id }] of rows.entries()) {
      for (let p = 0; p < PHOTOS_EACH; p++) {
        // Bytes after a JPEG's end marker are ignored by decoders: each photo is its own file.
        const bytes = Buffer.concat([photos[(b * PHOTOS_EACH + p) % photos.length]!, Buffer.from(`${b}/${p}`)])
        const one = await measure(() =>
          addPhoto(store, {
            businessId: id,
            bytes,
            name: `photo-${b}-${p}.jpg`,
            altText: null,
            imageType: p === 0 ? 'hero' : 'gallery',
            isPrimary: p === 0,
            sortOrder: p,
          }),
        )
        times.push(one.seconds)
        originalBytes += bytes.byteLength
      }
    }
  })
  let derivativeBytes = 0
  const byVariant = new Map<string, number>()
  for (const image of await store.listImages()) {
    for (const variant of image.variants) {
      derivativeBytes += variant.bytes
      const key = `${variant.format} ${variant.width}w`
      byVariant.set(key, (byVariant.get(key) ?? 0) + variant.bytes)
    }
  }
  return { times, seconds: all.seconds, peakRssMb: all.peakRssMb, originalBytes, derivativeBytes, byVariant }
}

/** Ingest, build and page weights for n businesses with three photos each, in a data dir of its own. */
async function benchPhotos(n: number, photos: Buffer[]) {
  const work = await mkdtemp(path.join(tmpdir(), `roland-photos-bench-${n}-`))
  try {
    const dataDir = path.join(work, 'data')
    const outDir = path.join(work, 'site')
    const store = await openEmbeddedStore({ dir: dataDir })
    let ingest: Awaited<ReturnType<typeof addPhotos>>
    try {
      // Businesses of four kinds, a quarter of them cafes (Dining & Refreshments), as site.bench.ts generates them.
      await runMigration({ store, source: { bytes: new TextEncoder().encode(generateRolandText(n)) } })
      ingest = await addPhotos(store, photos)
    } finally {
      await store.close()
    }

    // Served from where the build's absolute URLs point, so the pages load as a visitor's would.
    const server = await serveStatic(outDir)
    try {
      const built = await build(dataDir, outDir, work, server.url)
      const browser = await launchBrowser({ jit: 'full' })
      const weights: Array<[string, PageWeight]> = []
      try {
        for (const [label, pathname] of pages) weights.push([label, await weighPage(browser, server.url + pathname)])
      } finally {
        await browser.close()
      }
      return { n, ...ingest, built, weights }
    } finally {
      await server.close()
    }
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1)

/** A page weight as table cells: HTML, images, CSS and JS, fonts and the rest, and the total. */
const weightCells = (weight: Transferred) => ({
  'HTML KB': kb(weight.html),
  'images KB': kb(weight.images),
  images: weight.imagesByPath.size,
  'CSS/JS KB': kb(weight.cssJs),
  'fonts etc. KB': kb(weight.other),
  'total KB': kb(weight.total),
})

/**
 * Compares the derivatives' settings before and after issue 31 on three photos, then measures each
 * count of ROLAND_BENCH_PHOTO_COUNTS and prints the figures of issue 17, one row per count.
 */
export async function run(): Promise<void> {
  const photos = await Promise.all(Array.from({ length: 8 }, largePhoto))
  await compareDerivatives(photos.slice(0, 3))
  if (counts().length === 0) {
    process.stdout.write(
      '\nSet ROLAND_BENCH_PHOTO_COUNTS=50,200 for ingest, build and page weights at those catalog sizes.\n',
    )
    return
  }
  process.stdout.write(`\nIngesting and building in ${tmpdir()} (set TMPDIR to measure on another disk).\n`)
  const results = []
  for (const n of counts()) results.push(await benchPhotos(n, photos))

  process.stdout.write(
    '\nGrowth with the count (ingest: one photo after another through addPhoto; build: astro build of the\n' +
      'whole site; pages: what a phone downloads in all, scrolled to the end, text gzipped):\n',
  )
  table(
    results.map((result) => {
      const [business, category] = result.weights.map(([, weight]) => weight.scrolled.total)
      return {
        businesses: result.n,
        photos: result.times.length,
        'ingest s': result.seconds.toFixed(1),
        'mean s/photo': (result.seconds / result.times.length).toFixed(2),
        'p95 s/photo': percentile(result.times, 0.95).toFixed(2),
        'ingest RSS MB': Math.round(result.peakRssMb),
        'build s': result.built.seconds.toFixed(1),
        'build RSS MB': Math.round(result.built.peakRssMb),
        'build loaded sharp': result.built.loadedSharp ? 'YES' : 'no',
        'business page KB': kb(business!),
        'category page KB': kb(category!),
      }
    }),
  )

  process.stdout.write(
    '\nPage weights on a phone (412×915 at 1.75×, as Lighthouse emulates one): as loaded, before any scroll,\n' +
      'and in all once scrolled to the end (lazy images included); text gzipped, images as they are:\n',
  )
  table(
    results.flatMap((result) =>
      result.weights.flatMap(([page, weight]) => [
        { businesses: result.n, page, load: 'initial', ...weightCells(weight.initial) },
        { businesses: result.n, page, load: 'scrolled to end', ...weightCells(weight.scrolled) },
      ]),
    ),
  )

  process.stdout.write('\nOriginals and their derivatives (AVIF, WebP and JPEG at a few widths, made at ingest):\n')
  table(
    results.map((result) => ({
      businesses: result.n,
      originals: `${kb(result.originalBytes)} KB`,
      'per original': `${kb(result.originalBytes / result.times.length)} KB`,
      'all derivatives': `${kb(result.derivativeBytes)} KB`,
      'derivatives / originals': (result.derivativeBytes / result.originalBytes).toFixed(2),
    })),
  )
  const last = results.at(-1)!
  process.stdout.write('\n')
  table(
    [...last.byVariant.entries()]
      .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
      .map(([variant, bytes]) => ({ derivative: variant, 'mean size': `${kb(bytes / last.times.length)} KB` })),
  )
}
