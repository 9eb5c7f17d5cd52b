import { createHash } from 'node:crypto'
import { downloadImage } from '@roland/scripts/crawl/crawl'
import type { BusinessRecord, Store } from '@roland/scripts/store/types'
import type { JobReporter } from '@roland/scripts/jobs/run-job'

// DESIGN.md, "Jobs": crawled images are copied into our storage, not hot-linked, and recorded as
// business_images. File names are content hashes, so crawling the same site again adds nothing.

/** The crawl result fields this step reads. */
export interface CrawledImages {
  websiteUrl: string
  heroUrl: string | null
  thumbnailUrl: string | null
  logoUrl: string | null
  engine?: string
}

/** What storing did, per image. */
export interface StoredImages {
  businessId: string
  added: number
  kept: number
  failed: Array<{ url: string; reason: string }>
  images: Array<{ role: 'hero' | 'thumbnail' | 'logo'; url: string; originalUrl: string; created: boolean }>
}

/**
 * Downloads a crawl's hero, thumbnail and logo into the 'files' bucket and adds them to the
 * business. An image is primary only when the business has no primary image of that type yet,
 * so nothing an operator chose is replaced. A failed download is reported, not fatal.
 */
export async function storeCrawledImages(options: {
  store: Store
  business: Pick<BusinessRecord, 'id' | 'name' | 'images'>
  crawl: CrawledImages
  allowPrivateNetwork: boolean
  reporter: JobReporter
}): Promise<StoredImages> {
  const { store, business, crawl, reporter } = options
  const wanted = (
    [
      ['hero', crawl.heroUrl],
      ['thumbnail', crawl.thumbnailUrl],
      ['logo', crawl.logoUrl],
    ] as const
  ).filter((entry): entry is readonly ['hero' | 'thumbnail' | 'logo', string] => typeof entry[1] === 'string')
  const result: StoredImages = { businessId: business.id, added: 0, kept: 0, failed: [], images: [] }
  const primaryTypes = new Set(business.images.filter((image) => image.is_primary).map((image) => image.image_type))
  let sortOrder = business.images.length
  for (const [index, [role, url]] of wanted.entries()) {
    reporter.progress({ phase: 'storing images', done: index, total: wanted.length })
    try {
      const image = await downloadImage(url, { allowPrivateNetwork: options.allowPrivateNetwork })
      const hash = createHash('sha256').update(image.bytes).digest('hex').slice(0, 16)
      const objectPath = `business-images/${business.id}-${role}-${hash}.${image.extension}`
      await store.files.put(objectPath, image.bytes, { contentType: image.contentType, upsert: true })
      const publicUrl = store.files.publicUrl(objectPath)
      const primary = !primaryTypes.has(role)
      const added = await store.addImage({
        business_id: business.id,
        image_url: publicUrl,
        alt_text: `${business.name} ${role === 'logo' ? 'logo' : 'photo'}`,
        image_type: role,
        is_primary: primary,
        sort_order: sortOrder++,
        metadata: { source: 'crawl', originalUrl: image.url, websiteUrl: crawl.websiteUrl, engine: crawl.engine ?? null, crawledAt: new Date().toISOString() },
      })
      if (added.created) {
        result.added++
        if (primary) primaryTypes.add(role)
      } else {
        result.kept++
      }
      result.images.push({ role, url: publicUrl, originalUrl: url, created: added.created })
      reporter.log(`${added.created ? 'Stored' : 'Already had'} the ${role} image ${url}`)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      result.failed.push({ url, reason })
      reporter.log(`Could not store the ${role} image ${url}: ${reason}`)
    }
  }
  reporter.progress({ phase: 'storing images', done: wanted.length, total: wanted.length })
  return result
}
