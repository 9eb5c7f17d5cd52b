import type { ImageType } from '../catalog/types.ts'
import { BadImageError } from '../images/bad-image-error.ts'
import { removeFiles } from '../images/derivatives.ts'
import {
  IngestError,
  recordImages,
  sha256,
  writeImageFiles,
  type IngestedImage,
  type WrittenImage,
} from '../images/ingest.ts'
import type { BusinessRecord, Store } from '../store/types.ts'
import type { AcceptedImage, ImageRole } from './choose.ts'
import { CrawlError } from './crawl-error.ts'
import type { CrawlResult } from './crawl.ts'
import { downloadImage, type DownloadImageOptions } from './download-image.ts'
import { imageSize } from './image-size.ts'
import { reporter, type ProgressListener } from './progress.ts'
import { sanitizeSvg } from './sanitize-svg.ts'

// DESIGN.md, "The site": the site shows our copies and never hot-links a business's website. The
// chosen hero, thumbnail and logo are downloaded (type proven by the bytes, size and time bounded),
// written to the files bucket under a name made of the business id, the role and a hash of the
// bytes, and recorded as business_images rows. The same picture always gets the same name, so a
// re-crawl writes no new file and adds no new row.

/** Where crawled images go in the files bucket. */
export const CRAWLED_IMAGES_FOLDER = 'business-images'

/** The formats a photo is kept in; anything else is no photo a page can show everywhere. */
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'])
/** A logo may also be an SVG, rebuilt without scripts (see sanitize-svg.ts). */
const LOGO_TYPES = new Set([...PHOTO_TYPES, 'image/svg+xml'])
const ROLE_ORDER: readonly ImageRole[] = ['hero', 'thumbnail', 'logo']

/** The provenance a crawled business_images row carries in its metadata. */
export interface CrawledImageMetadata {
  source: 'crawl'
  /** The address the crawl chose; the picture was copied from there. */
  sourceUrl: string
  /** Where the download ended, when the source redirected. */
  downloadedFrom?: string
  /** The page the picture was found on first. */
  pageUrl: string | null
  websiteUrl: string
  crawledAt: string
  engine: CrawlResult['engine']
  width: number | null
  height: number | null
  contentType: string
  bytes: number
  /** SHA-256 of the stored bytes: the same picture is recognised under any role or name. */
  sha256: string
  /** What the SVG sanitizer took out, for SVG logos. */
  sanitized?: string[]
}

/** One chosen image kept in our storage (created false: it was already there from an earlier crawl). */
export interface StoredImage {
  role: ImageRole
  imageId: string
  /** The public URL the site uses (our copy). */
  imageUrl: string
  /** The object's path in the files bucket. */
  path: string
  /** The address on the business's website it was copied from. */
  sourceUrl: string
  created: boolean
  isPrimary: boolean
  contentType: string
  width: number | null
  height: number | null
}

/** A chosen image that was not stored, and why. */
export interface SkippedImage {
  role: ImageRole
  url: string
  reason: string
}

/** What storing a crawl's images did. */
export interface StoreCrawledImagesResult {
  stored: StoredImage[]
  skipped: SkippedImage[]
}

/** The business the images belong to; its current images are read from the store when not given. */
export interface CrawledBusiness {
  id: string
  slug: string
  name: string
  images?: BusinessRecord['images']
}

/** Options of storing a crawl's chosen images. */
export interface StoreCrawledImagesOptions {
  store: Store
  business: CrawledBusiness
  result: CrawlResult
  /** Let downloads reach local and private addresses (fixture sites, tests). */
  allowPrivateNetwork?: boolean
  /** Bounds of each download; defaults suit real sites. */
  limits?: Pick<DownloadImageOptions, 'timeoutMs' | 'maxBytes' | 'maxRedirects'>
  signal?: AbortSignal
  onProgress?: ProgressListener
}

interface Prepared {
  role: ImageRole
  image: AcceptedImage | undefined
  sourceUrl: string
  finalUrl: string
  bytes: Uint8Array
  contentType: string
  extension: string
  sha256: string
  width: number | null
  height: number | null
  sanitized: string[] | undefined
}

type Existing = BusinessRecord['images'][number]

/** Name a crawled image's file from the business, its role and its bytes, so the same picture gets the same name. */
export function crawledImagePath(businessId: string, role: ImageRole, sha256: string, extension: string): string {
  return `${CRAWLED_IMAGES_FOLDER}/${businessId}-${role}-${sha256.slice(0, 16)}.${extension}`
}

/** Tell whether a business_images row came from a crawl. */
export function isCrawledImage(image: { metadata: Record<string, unknown> | null | undefined }): boolean {
  return image.metadata?.source === 'crawl'
}

/**
 * Download a crawl's hero, thumbnail and logo into the files bucket and record them as business_images rows.
 * A picture that cannot be downloaded or is no usable image is skipped with a reason; a storage or database
 * failure stops the run and leaves no file without its row.
 */
export async function storeCrawledImages(options: StoreCrawledImagesOptions): Promise<StoreCrawledImagesResult> {
  const { store, business, result } = options
  const report = reporter(options.onProgress)
  const skipped: SkippedImage[] = []
  const chosen = chosenImages(result, skipped)
  // A copy: the primary flags are kept up to date here as rows are added, not in the caller's records.
  const existing = (business.images ?? (await currentImages(store, business))).map((image) => ({ ...image }))

  const prepared: Prepared[] = []
  report({ phase: 'downloading images', done: 0, total: chosen.length })
  for (const [index, { role, url }] of chosen.entries()) {
    try {
      const image = await prepare(role, url, result, options)
      const twin = prepared.find((other) => other.sha256 === image.sha256)
      if (twin) skipped.push({ role, url, reason: `the same picture as the ${twin.role}` })
      else prepared.push(image)
    } catch (error) {
      if (options.signal?.aborted || !(error instanceof CrawlError) || error.code === 'cancelled') throw error
      skipped.push({ role, url, reason: error.message })
    }
    report({ phase: 'downloading images', done: index + 1, total: chosen.length })
  }

  // Every picture's files are written first, then their rows are inserted together in one
  // transaction: a crawl stopped half-way (killed) adds no row, and the next start removes the
  // files it wrote that no row names (store/folder-storage.ts).
  const outcomes: Array<StoredImage | Pending> = []
  report({ phase: 'storing images', done: 0, total: prepared.length })
  try {
    for (const [index, image] of prepared.entries()) {
      try {
        outcomes.push(await writeOne(store, business, result, image, existing))
      } catch (error) {
        // A picture its derivatives refused (corrupt, too many pixels…) is skipped; a storage failure stops the run.
        if (!(error instanceof CrawlError) || error.code !== 'not-an-image') throw error
        skipped.push({ role: image.role, url: image.sourceUrl, reason: error.message })
      }
      report({ phase: 'storing images', done: index + 1, total: prepared.length })
    }
  } catch (error) {
    await removeFiles(
      store.files,
      outcomes.flatMap((outcome) => ('written' in outcome ? outcome.written.written : [])),
    )
    throw error
  }
  const pending = outcomes.filter((outcome): outcome is Pending => 'written' in outcome)
  let rows: IngestedImage[]
  try {
    rows = await recordImages(
      store,
      pending.map((outcome) => outcome.written),
    )
  } catch (error) {
    const cause = error instanceof IngestError ? error.cause : error
    const reason = cause instanceof Error ? cause.message : String(cause)
    // A file nobody refers to is litter: recordImages removed what was written; the next crawl writes it again.
    throw new CrawlError(
      'storage-failed',
      `Failed to record the images of ${business.name}: ${reason}. ` +
        'The downloaded files and their derivatives were removed; run the crawl again',
      { url: pending[0]?.image.sourceUrl, cause: error },
    )
  }
  const stored = outcomes.map((outcome) =>
    'written' in outcome ? outcome.finish(rows[pending.indexOf(outcome)]!) : outcome,
  )
  return { stored, skipped }
}

/** A picture whose files are written, waiting for its row; finish says what was stored once it is in. */
interface Pending {
  image: Prepared
  written: WrittenImage
  finish: (row: IngestedImage) => StoredImage
}

function chosenImages(result: CrawlResult, skipped: SkippedImage[]): Array<{ role: ImageRole; url: string }> {
  const urls: Record<ImageRole, string | null> = {
    hero: result.heroUrl,
    thumbnail: result.thumbnailUrl,
    logo: result.logoUrl,
  }
  const chosen: Array<{ role: ImageRole; url: string }> = []
  for (const role of ROLE_ORDER) {
    const url = urls[role]
    if (!url) continue
    // A site with a single photo has it chosen as hero and thumbnail; one row shows it.
    const earlier = chosen.find((other) => other.url === url)
    if (earlier) skipped.push({ role, url, reason: `the same picture as the ${earlier.role}` })
    else chosen.push({ role, url })
  }
  return chosen
}

async function currentImages(store: Store, business: CrawledBusiness): Promise<Existing[]> {
  const record = (await store.listBusinesses()).find((candidate) => candidate.id === business.id)
  if (!record) {
    throw new CrawlError(
      'invalid-input',
      `No business with id ${business.id} (${business.slug}) in ${store.location}: it may have been deleted`,
    )
  }
  return record.images
}

async function prepare(
  role: ImageRole,
  url: string,
  result: CrawlResult,
  options: StoreCrawledImagesOptions,
): Promise<Prepared> {
  const downloaded = await downloadImage(url, {
    ...options.limits,
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    signal: options.signal,
  })
  const allowed = role === 'logo' ? LOGO_TYPES : PHOTO_TYPES
  if (!allowed.has(downloaded.contentType)) {
    const kinds = role === 'logo' ? 'JPEG, PNG, WebP, GIF, AVIF or SVG' : 'JPEG, PNG, WebP, GIF or AVIF'
    const why =
      downloaded.contentType === 'image/svg+xml'
        ? ': an SVG is kept only as a logo, where it is cleaned of scripts'
        : ''
    throw new CrawlError(
      'not-an-image',
      `${downloaded.url} is ${downloaded.contentType}; a ${role} must be ${kinds}${why}`,
      {
        url: downloaded.url,
      },
    )
  }
  let bytes = downloaded.bytes
  let sanitized: string[] | undefined
  if (downloaded.contentType === 'image/svg+xml') {
    const clean = sanitizeSvg(bytes, downloaded.url)
    bytes = clean.bytes
    sanitized = clean.removed
  }
  const size = imageSize(bytes, downloaded.contentType)
  // A beacon that slipped past the address rules still gives itself away by its size.
  if (size && size.width <= 2 && size.height <= 2) {
    throw new CrawlError(
      'not-an-image',
      `${downloaded.url} is ${size.width}×${size.height} pixels: a tracking pixel, not a picture`,
      {
        url: downloaded.url,
      },
    )
  }
  const image = result.images.find((candidate) => candidate.url === url)
  return {
    role,
    image,
    sourceUrl: url,
    finalUrl: downloaded.url,
    bytes,
    contentType: downloaded.contentType,
    extension: downloaded.extension,
    sha256: sha256(bytes),
    width: size?.width ?? image?.width ?? null,
    height: size?.height ?? image?.height ?? null,
    sanitized,
  }
}

async function writeOne(
  store: Store,
  business: CrawledBusiness,
  result: CrawlResult,
  image: Prepared,
  existing: Existing[],
): Promise<StoredImage | Pending> {
  const baseOf = { role: image.role, sourceUrl: image.sourceUrl, contentType: image.contentType }
  // The same picture stored by an earlier crawl, perhaps in another role: keep that row, add nothing.
  const known = existing.find((row) => row.metadata?.sha256 === image.sha256)
  if (known) {
    return {
      ...baseOf,
      width: image.width,
      height: image.height,
      imageId: known.id,
      imageUrl: known.image_url,
      path: pathOf(known.image_url),
      created: false,
      isPrimary: known.is_primary,
    }
  }

  const path = crawledImagePath(business.id, image.role, image.sha256, image.extension)
  const type: ImageType = image.role
  const primary = existing.find((row) => row.image_type === type && row.is_primary)
  // One primary per type (SPEC §4): a crawl takes it from an earlier crawl, never from an image a person chose.
  const isPrimary = !primary || isCrawledImage(primary)
  const metadata: CrawledImageMetadata = {
    source: 'crawl',
    sourceUrl: image.sourceUrl,
    ...(image.finalUrl !== image.sourceUrl ? { downloadedFrom: image.finalUrl } : {}),
    pageUrl: image.image?.pageUrl ?? null,
    websiteUrl: result.websiteUrl,
    crawledAt: new Date().toISOString(),
    engine: result.engine,
    width: image.width,
    height: image.height,
    contentType: image.contentType,
    bytes: image.bytes.byteLength,
    sha256: image.sha256,
    ...(image.sanitized ? { sanitized: image.sanitized } : {}),
  }
  let written: WrittenImage
  try {
    // Derivatives first, then the file; the row with them comes with the others' (recordImages).
    written = await writeImageFiles({
      store,
      path,
      bytes: image.bytes,
      contentType: image.contentType,
      name: image.finalUrl,
      row: {
        business_id: business.id,
        alt_text: altText(image.image?.alt, image.role, business.name),
        image_type: type,
        is_primary: isPrimary,
        // Hero, thumbnail, logo after what the business already has: a card shows the hero first.
        sort_order: existing.length,
        metadata: { ...metadata },
      },
    })
  } catch (error) {
    if (error instanceof BadImageError) {
      throw new CrawlError('not-an-image', error.message, { url: image.finalUrl, cause: error })
    }
    const cause = error instanceof IngestError ? error.cause : error
    const reason = cause instanceof Error ? cause.message : String(cause)
    throw new CrawlError('storage-failed', `Failed to upload image: ${reason}`, { url: image.sourceUrl, cause: error })
  }
  const imageUrl = written.row.image_url
  // Mirror the database trigger, so the next role of this run sees the flags as they will be.
  const wasPrimary = existing.filter((other) => other.image_type === type && other.is_primary)
  const same = existing.find((other) => other.image_url === imageUrl)
  const mirror: Existing = {
    id: '',
    image_url: imageUrl,
    image_type: type,
    is_primary: isPrimary,
    metadata: { ...metadata },
  }
  if (!same) {
    if (isPrimary) for (const other of wasPrimary) other.is_primary = false
    existing.push(mirror)
  }
  return {
    image,
    written,
    finish: (row) => {
      const base = { ...baseOf, width: row.width ?? image.width, height: row.height ?? image.height }
      mirror.id = row.id
      // The row was there already (same business, same URL): it keeps its flags.
      if (!row.created)
        return { ...base, imageId: row.id, imageUrl, path, created: false, isPrimary: same?.is_primary ?? false }
      return { ...base, imageId: row.id, imageUrl, path, created: true, isPrimary }
    },
  }
}

/** Find the bucket path in a public URL: /files/business-images/… or Supabase's …/public/files/business-images/…. */
function pathOf(imageUrl: string): string {
  const at = imageUrl.lastIndexOf(`/${CRAWLED_IMAGES_FOLDER}/`)
  return at >= 0 ? imageUrl.slice(at + 1) : imageUrl
}

/** Write the alt text of a stored image: the page's own when it describes the picture, else one naming the business. */
export function altText(alt: string | undefined, role: ImageRole, businessName: string): string {
  const own = alt?.replace(/\s+/g, ' ').trim() ?? ''
  // File names and camera counters ("IMG_4821", "hero.jpg") describe nothing.
  const meaningless =
    own.length < 3 ||
    /\.(?:jpe?g|png|gif|webp|avif|svg)$/i.test(own) ||
    /^(?:img|dsc|dscn|image|photo|pic|screenshot)[\s_-]*\d*$/i.test(own)
  if (!meaningless) return own.length > 250 ? `${own.slice(0, 247).trimEnd()}...` : own
  return role === 'logo' ? `${businessName} logo` : `${businessName} photo`
}
