import { existsSync } from 'node:fs'
import path from 'node:path'
import { loadPublicCatalog } from '@roland/scripts/catalog/load'
import type { Catalog } from '@roland/scripts/catalog/types'
import { dataDir } from '@roland/scripts/paths'
import { isStorageUrl, storageFilePath } from './storage-files.ts'

/** An image the build leaves out, and why. */
export interface DroppedImage {
  slug: string
  url: string
}

/**
 * Leaves out the business images whose storage file is gone, so a page never shows a broken
 * image; other images (absolute URLs, e.g. Supabase Storage) are kept as they are.
 */
export function withoutMissingFiles(
  catalog: Catalog,
  fileExists: (url: string) => boolean,
): { catalog: Catalog; dropped: DroppedImage[] } {
  const dropped: DroppedImage[] = []
  const businesses = catalog.businesses.map((business) => {
    const images = business.images.filter((image) => {
      const keep = !isStorageUrl(image.image_url) || fileExists(image.image_url)
      if (!keep) dropped.push({ slug: business.slug, url: image.image_url })
      return keep
    })
    return images.length === business.images.length ? business : { ...business, images }
  })
  return { catalog: { ...catalog, businesses }, dropped }
}

let inFlight: Promise<Catalog> | undefined

/**
 * Reads the public catalog for the content collections. The four collections load in parallel
 * during one sync and share one read; the next sync (in dev) reads afresh.
 */
export function readCatalogOnce(warn: (message: string) => void): Promise<Catalog> {
  inFlight ??= readCatalog(warn).finally(() => {
    inFlight = undefined
  })
  return inFlight
}

async function readCatalog(warn: (message: string) => void): Promise<Catalog> {
  const catalog = await loadPublicCatalog()
  const storageRoot = path.join(dataDir(), 'storage', 'files')
  const result = withoutMissingFiles(catalog, (url) => {
    const file = storageFilePath(url, storageRoot)
    return file !== null && existsSync(file)
  })
  for (const { slug, url } of result.dropped) {
    warn(`left out an image of ${slug}: its file ${url} is not in ${storageRoot}`)
  }
  return result.catalog
}
