import { existsSync } from 'node:fs'
import path from 'node:path'
import { loadPublicCatalog } from '@roland/scripts/catalog/load'
import type { Catalog } from '@roland/scripts/catalog/types'
import { dataDir } from '@roland/scripts/paths'
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

/** The catalog as a build sees it, and the images left out of it. */
interface CatalogRead {
  catalog: Catalog
  dropped: DroppedImage[]
  storageRoot: string
}

async function readCatalog(): Promise<CatalogRead> {
  const catalog = await loadPublicCatalog()
  const storageRoot = path.join(dataDir(), 'storage', 'files')
  const result = withoutMissingFiles(catalog, (url) => {
    const file = storageFilePath(url, storageRoot)
    return file !== null && existsSync(file)
  })
  return { catalog: result.catalog, dropped: result.dropped, storageRoot }
}

// Astro loads the config (where prefetchCatalog is called) and the content config (where the
// catalog is read) as separate module instances: a read started early waits in a process-wide slot.
const prefetched = Symbol.for('roland.site.prefetchedCatalog')
type PrefetchSlot = { [prefetched]?: Promise<CatalogRead> }

/**
 * Starts reading the catalog now, for the next sync's sharedCatalogRead(): called as soon as Astro
 * has its config (integrations/catalog-prefetch.ts). Returns when the read is done, whatever its
 * outcome: a failure is reported by the collection that takes the read.
 */
export async function prefetchCatalog(): Promise<void> {
  const read = readCatalog()
  ;(globalThis as PrefetchSlot)[prefetched] = read
  await read.catch(() => {})
}

function takePrefetched(): Promise<CatalogRead> | undefined {
  const slot = globalThis as PrefetchSlot
  const read = slot[prefetched]
  delete slot[prefetched]
  return read
}

/**
 * The catalog for the content collections, which load in parallel during a sync and share one read
 * (the one prefetchCatalog() started, or a new one): each of the `parts` collections takes a read
 * once, and a collection that asks again (the next sync, in dev) starts the next read. Forgetting a
 * read once it settles would not do: a prefetched read is done before the first collection asks,
 * and the next one would read it all again.
 */
export function sharedCatalogRead(parts: number): (part: string, warn: (message: string) => void) => Promise<Catalog> {
  let read: Promise<Catalog> | undefined
  const takenBy = new Set<string>()
  return (part, warn) => {
    if (!read || takenBy.has(part)) {
      takenBy.clear()
      read = (takePrefetched() ?? readCatalog()).then(({ catalog, dropped, storageRoot }) => {
        for (const { slug, url, derivative } of dropped)
          warn(
            derivative
              ? `serving the original of an image of ${slug}: its derivative ${url} is not in ${storageRoot} (run pnpm roland images optimize)`
              : `left out an image of ${slug}: its file ${url} is not in ${storageRoot}`,
          )
        return catalog
      })
    }
    const mine = read
    takenBy.add(part)
    // Once every collection has it, the catalog goes with the sync that uses it.
    if (takenBy.size === parts) read = undefined
    return mine
  }
}
