import { PNG } from 'pngjs'
import { runJob, type JobListener, type JobReporter } from '../jobs/run-job.ts'
import type { BusinessRecord, Store } from '../store/types.ts'
import { BadImageError } from './bad-image-error.ts'
import { categoryStyle, type CategoryStyle } from './category-style.ts'
import { generatedAltText, hasNoImage, storeImagePrompt, type GeneratedImageMetadata } from './generated.ts'
import { ImageError } from './image-error.ts'
import { ingestImage, IngestError, type IngestedImage } from './ingest.ts'
import type { ImageProvider, ImageProviderName } from './providers.ts'

/** Which businesses get a store image: one by slug, or every active business with no image at all. */
export type StoreImageTarget = { slug: string } | { missing: true }

/** Options of a store image run. */
export interface GenerateStoreImagesOptions {
  store: Store
  target: StoreImageTarget
  provider: ImageProvider
  startedBy?: string
  onEvent?: JobListener
  signal?: AbortSignal
  /** The clock for the {timestamp} in file names, in milliseconds (tests pin it). */
  now?: () => number
}

/** One image made, uploaded and recorded. */
export interface GeneratedStoreImage {
  businessId: string
  businessName: string
  slug: string
  imageId: string
  /** The public URL the site uses. */
  imageUrl: string
  /** The object's path in the files bucket. */
  path: string
  provider: ImageProviderName
  model: string
  prompt: string
  width: number
  height: number
}

/** A business `--missing` left alone, and why. */
export interface SkippedBusiness {
  slug: string
  businessName: string
  reason: 'has-image' | 'inactive'
}

/** A business whose image could not be made, and why. */
export interface FailedBusiness {
  slug: string
  businessName: string
  error: string
}

/** What a store image run did (the jobs table keeps it as the job's result). */
export interface GenerateStoreImagesResult {
  provider: ImageProviderName
  generated: GeneratedStoreImage[]
  skipped: SkippedBusiness[]
  failed: FailedBusiness[]
  summary: { generated: number; skipped: number; failed: number }
}

/** The files bucket path of a business's generated hero image (SPEC §7). */
export function storeImagePath(businessId: string, timestamp: number): string {
  return `business-images/${businessId}-hero-${timestamp}.png`
}

/**
 * Generates store images (SPEC §2 'Generate Store Image') as an 'images' job with its history:
 * for each business, the provider makes a PNG, it is uploaded to the files bucket without
 * upsert, and a business_images row (hero, labelled generated) records its public URL.
 * For one business a failure fails the job; with `missing`, a business's failure is reported
 * and the run goes on, unless the error would repeat for every business (a bad key).
 */
export async function generateStoreImages(options: GenerateStoreImagesOptions): Promise<GenerateStoreImagesResult> {
  const { store, target, provider } = options
  return runJob(
    {
      store,
      kind: 'images',
      params: { target: 'slug' in target ? target.slug : 'missing', provider: provider.name },
      startedBy: options.startedBy ?? 'cli',
      onEvent: options.onEvent,
    },
    (reporter) => run(options, reporter),
  )
}

async function run(options: GenerateStoreImagesOptions, reporter: JobReporter): Promise<GenerateStoreImagesResult> {
  const { store, target, provider } = options
  reporter.progress({ phase: 'finding businesses', done: 0, total: 1 })
  const businesses = await store.listBusinesses()
  const { categories, town } = await store.loadCatalog()
  // The town line of the sign, the alt text and the prompt: "Springfield, Illinois".
  const place = `${town.name}, ${town.state}`
  const result: GenerateStoreImagesResult = {
    provider: provider.name,
    generated: [],
    skipped: [],
    failed: [],
    summary: { generated: 0, skipped: 0, failed: 0 },
  }

  let todo: BusinessRecord[]
  if ('slug' in target) {
    todo = [findBusiness(businesses, target.slug)]
  } else {
    todo = []
    for (const business of businesses) {
      if (!business.is_active) result.skipped.push(skip(business, 'inactive'))
      else if (!hasNoImage(business)) result.skipped.push(skip(business, 'has-image'))
      else todo.push(business)
    }
  }
  reporter.progress({ phase: 'finding businesses', done: 1, total: 1 })
  reporter.log(`Generating ${todo.length} store image${todo.length === 1 ? '' : 's'} with ${provider.label}.`)

  for (const [index, business] of todo.entries()) {
    reporter.progress({ phase: `generating: ${business.name}`, done: index, total: todo.length })
    try {
      const image = await generateOne(options, business, categoryStyle(business.category, categories), place)
      result.generated.push(image)
      reporter.log(`${business.name}: ${image.imageUrl}`)
    } catch (error) {
      if ('slug' in target) throw error
      const message = error instanceof Error ? error.message : String(error)
      result.failed.push({ slug: business.slug, businessName: business.name, error: message })
      reporter.log(`${business.name}: ${message}`)
      if (error instanceof ImageError && error.fatal) {
        throw new ImageError(
          error.code,
          `${message} Stopped after ${result.generated.length} of ${todo.length} store images; the ones made are kept.`,
          { fatal: true, cause: error },
        )
      }
    }
  }
  reporter.progress({ phase: 'done', done: todo.length, total: todo.length })
  result.summary = { generated: result.generated.length, skipped: result.skipped.length, failed: result.failed.length }
  return result
}

function skip(business: BusinessRecord, reason: SkippedBusiness['reason']): SkippedBusiness {
  return { slug: business.slug, businessName: business.name, reason }
}

function findBusiness(businesses: BusinessRecord[], slug: string): BusinessRecord {
  const wanted = slug.trim().toLowerCase()
  if (!wanted)
    throw new ImageError('invalid-input', 'Say which business: --business <slug>, e.g. --business big-rock-coffee.')
  const business = businesses.find((b) => b.slug === wanted)
  if (business) return business
  const near = businesses
    .filter((b) => b.slug.includes(wanted) || wanted.includes(b.slug) || b.name.toLowerCase().includes(wanted))
    .slice(0, 3)
    .map((b) => b.slug)
  throw new ImageError(
    'not-found',
    `No business has the slug "${slug}". ` +
      (near.length
        ? `Did you mean ${near.join(', ')}?`
        : 'A slug is the last part of the business page address, /business/{slug}, e.g. big-rock-coffee.'),
  )
}

async function generateOne(
  options: GenerateStoreImagesOptions,
  business: BusinessRecord,
  style: CategoryStyle,
  place: string,
): Promise<GeneratedStoreImage> {
  const { store, provider } = options
  const image = await provider.generate(
    { businessName: business.name, slug: business.slug, style, place, prompt: storeImagePrompt(business, place) },
    options.signal,
  )
  const size = pngSize(image.bytes)
  if (!size) {
    throw new ImageError(
      'no-image-data',
      `No image data received: ${provider.label} answered ${image.bytes.length} bytes of ${image.mimeType}, not a PNG image. ` +
        'The store keeps store images as PNG: use a model that answers PNG (gpt-image-1 does), or --provider local.',
    )
  }

  const path = storeImagePath(business.id, (options.now ?? Date.now)())
  const metadata: GeneratedImageMetadata = {
    generated: true,
    provider: provider.name,
    model: image.model,
    prompt: image.prompt,
    width: size.width,
    height: size.height,
    generatedAt: new Date().toISOString(),
  }
  let row: IngestedImage
  try {
    row = await ingestImage({
      store,
      path,
      bytes: image.bytes,
      contentType: 'image/png',
      name: `the store image of ${business.name} from ${provider.label}`,
      // No upsert: a file already at this path is someone else's.
      exclusive: true,
      row: {
        business_id: business.id,
        alt_text: generatedAltText(business.name, provider.name, place),
        image_type: 'hero',
        // Not primary: SPEC §4 already puts a generated image first on the detail page, and the
        // primary image doubles as the header logo, which a storefront picture should not become.
        is_primary: false,
        sort_order: business.images.length,
        metadata: { ...metadata },
      },
    })
  } catch (error) {
    if (error instanceof BadImageError) throw new ImageError('no-image-data', error.message, { cause: error })
    const cause = error instanceof IngestError ? error.cause : error
    const reason = cause instanceof Error ? cause.message : String(cause)
    if (error instanceof IngestError && error.step === 'record') {
      // ingestImage left no orphan file behind: the run failed, so storage is as it was.
      throw new ImageError(
        'record-failed',
        `Failed to record the store image of ${business.name}: ${reason}. ` +
          'The uploaded file was removed; run the command again.',
        { cause: error },
      )
    }
    throw new ImageError('upload-failed', `Failed to upload image: ${reason}`, { fatal: true, cause: error })
  }
  const imageUrl = row.imageUrl
  return {
    businessId: business.id,
    businessName: business.name,
    slug: business.slug,
    imageId: row.id,
    imageUrl,
    path,
    provider: provider.name,
    model: image.model,
    prompt: image.prompt,
    width: size.width,
    height: size.height,
  }
}

/** Reads a PNG's size after checking it decodes, or null when the bytes are not a valid PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (bytes.length < 24 || signature.some((b, i) => bytes[i] !== b)) return null
  try {
    const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    return { width: png.width, height: png.height }
  } catch {
    return null
  }
}
