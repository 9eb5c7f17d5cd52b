import { existsSync } from 'node:fs'
import path from 'node:path'
import type { Catalog } from '@roland/scripts/catalog/types'
import { dataDir } from '@roland/scripts/paths'
import { assertPublishableBusinesses } from './business-checks.ts'
import { inCatalogOrder } from './catalog-order.ts'
import { setCatalogSource } from './catalog-slot.ts'
import { isStorageUrl, storageFilePath } from './storage-files.ts'

/** An image the build leaves out (or serves without its derivatives), and the file that is missing. */
export interface DroppedImage {
  slug: string
  url: string
  /** Only a derivative is missing: the image is kept, served as its original file. */
  derivative?: true
}

/**
 * Leaves out the business images whose storage file is gone, so a page never shows a broken
 * image, and the derivatives of an image when one of their files is gone (the page then serves
 * the original); other images (absolute URLs, e.g. Supabase Storage) are kept as they are.
 */
export function withoutMissingFiles(
  catalog: Catalog,
  fileExists: (url: string) => boolean,
): { catalog: Catalog; dropped: DroppedImage[] } {
  const dropped: DroppedImage[] = []
  const missing = (url: string) => isStorageUrl(url) && !fileExists(url)
  const businesses = catalog.businesses.map((business) => {
    let changed = false
    const images = business.images.flatMap((image) => {
      if (missing(image.image_url)) {
        dropped.push({ slug: business.slug, url: image.image_url })
        changed = true
        return []
      }
      const gone = image.variants.find((variant) => missing(variant.url))
      if (!gone) return [image]
      dropped.push({ slug: business.slug, url: gone.url, derivative: true })
      changed = true
      return [{ ...image, variants: [] }]
    })
    return changed ? { ...business, images } : business
  })
  return { catalog: { ...catalog, businesses }, dropped }
}

/**
 * The catalog as the data source has it. The store's code (PGlite's among it) loads only here: a
 * build whose rebuild hands the catalog over never needs it.
 */
async function readDataSource(): Promise<Catalog> {
  return (await import('@roland/scripts/catalog/load')).loadPublicCatalog()
}

/** Says what a build left out of the catalog; a build prints it among Astro's lines. */
const warnOfBuild = (message: string) => console.warn(`[roland:catalog] ${message}`)

/**
 * Reads the catalog a build renders, in list order. It warns of the images left out, and fails (the
 * build with it, before its pages are published) when the data source is unreachable or empty
 * (CatalogUnavailableError) or a business cannot be published (UnpublishableBusinessError).
 */
export async function readSiteCatalog(
  warn: (message: string) => void = warnOfBuild,
  load: () => Promise<Catalog> = readDataSource,
): Promise<Catalog> {
  const storageRoot = path.join(dataDir(), 'storage', 'files')
  const { catalog, dropped } = withoutMissingFiles(await load(), (url) => {
    const file = storageFilePath(url, storageRoot)
    return file !== null && existsSync(file)
  })
  for (const { slug, url, derivative } of dropped)
    warn(
      derivative
        ? `serving the original of an image of ${slug}: its derivative ${url} is not in ${storageRoot} (run pnpm roland images optimize)`
        : `left out an image of ${slug}: its file ${url} is not in ${storageRoot}`,
    )
  assertPublishableBusinesses(catalog.businesses)
  return inCatalogOrder(catalog)
}

/**
 * Gives the pages of `astro dev` their catalog (lib/catalog-slot.ts), read afresh for each request;
 * a build reads it once, on a thread of its own (site/integrations/catalog-read.ts, catalogRead).
 *
 * The site reads it here rather than through Astro's content collections: a collection keeps every
 * business in its data store, writes it to disk and bundles it into the build as one module, which
 * at 100,000 businesses took 16 s and more than a gigabyte of memory before the first page.
 */
export function provideDevCatalog(): void {
  // The pages of a request (and the header and footer of each) ask at once: they share the read
  // under way, as the embedded database opens once at a time in a process; the next asks afresh.
  let reading: Promise<Catalog> | null = null
  setCatalogSource(() => (reading ??= readSiteCatalog().finally(() => (reading = null))))
}
