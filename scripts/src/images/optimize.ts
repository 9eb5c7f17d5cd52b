import { runJob, type JobListener, type JobReporter } from '../jobs/run-job.ts'
import type { FileStorage, ImageDerivativesRecord, Store, StoredBusinessImage } from '../store/types.ts'
import { makeDerivatives, removeFiles, type Derivatives } from './derivatives.ts'
import { derivativesBasePath } from './ingest.ts'

// The backfill of `roland images optimize` and the console's 'Optimize photos': photos stored before
// the pipeline existed (or whose derivatives were lost) get them now, from the original in the files
// bucket. A crawl, an upload or a generated image makes them at once; this is for the rest.

/** Options of a backfill run. */
export interface OptimizeImagesOptions {
  store: Store
  /** Only photos without derivatives (default); false makes them again for every photo. */
  missing?: boolean
  startedBy?: string
  onEvent?: JobListener
}

/** A photo whose derivatives were made. */
export interface OptimizedImage {
  imageId: string
  businessName: string
  imageUrl: string
  width: number
  height: number
  variants: number
}

/** A business image left alone, and why. */
export interface SkippedOptimization {
  imageId: string
  businessName: string
  imageUrl: string
  reason: 'has-derivatives' | 'vector' | 'not-in-storage'
}

/** A photo whose derivatives could not be made, and why (named by its URL). */
export interface FailedOptimization {
  imageId: string
  businessName: string
  imageUrl: string
  error: string
}

/** What a backfill run did (the jobs table keeps it as the job's result). */
export interface OptimizeImagesResult {
  missing: boolean
  optimized: OptimizedImage[]
  /** Photos made again whose derivatives came out exactly as recorded. */
  unchanged: number
  skipped: SkippedOptimization[]
  failed: FailedOptimization[]
  summary: { optimized: number; unchanged: number; skipped: number; failed: number }
}

/**
 * Makes the missing derivatives of stored photos, as an 'images' job (params.action 'optimize') with
 * its history. Idempotent: a second run finds nothing to do and says so. A photo that fails is
 * reported by its URL and the others still go through.
 */
export async function optimizeImages(options: OptimizeImagesOptions): Promise<OptimizeImagesResult> {
  const missing = options.missing ?? true
  return runJob(
    {
      store: options.store,
      kind: 'images',
      params: { action: 'optimize', target: missing ? 'missing' : 'all' },
      startedBy: options.startedBy ?? 'cli',
      onEvent: options.onEvent,
    },
    (reporter) => run(options.store, missing, reporter),
  )
}

/** Find a stored file's bucket path from its public URL, or null when the URL is not our storage's. */
export function storagePathOf(files: FileStorage, imageUrl: string): string | null {
  const probe = files.publicUrl('probe')
  const prefix = probe.slice(0, -'probe'.length)
  if (!imageUrl.startsWith(prefix)) return null
  const objectPath = decodeURIComponent(imageUrl.slice(prefix.length).split(/[?#]/)[0]!)
  return objectPath.length > 0 ? objectPath : null
}

async function run(store: Store, missing: boolean, reporter: JobReporter): Promise<OptimizeImagesResult> {
  reporter.progress({ phase: 'finding photos', done: 0, total: 1 })
  const images = await store.listImages()
  const result: OptimizeImagesResult = {
    missing,
    optimized: [],
    unchanged: 0,
    skipped: [],
    failed: [],
    summary: { optimized: 0, unchanged: 0, skipped: 0, failed: 0 },
  }
  const todo: Array<{ image: StoredBusinessImage; path: string }> = []
  for (const image of images) {
    const path = storagePathOf(store.files, image.image_url)
    const skip = (reason: SkippedOptimization['reason']) =>
      result.skipped.push({ imageId: image.id, businessName: image.business_name, imageUrl: image.image_url, reason })
    if (!path) skip('not-in-storage')
    else if (/\.svg$/i.test(path)) skip('vector')
    else if (missing && image.variants.length > 0) skip('has-derivatives')
    else todo.push({ image, path })
  }
  reporter.progress({ phase: 'finding photos', done: 1, total: 1 })
  reporter.log(
    todo.length === 0
      ? `Every photo already has its derivatives: nothing to do (${images.length} business image${images.length === 1 ? '' : 's'}).`
      : `Making derivatives for ${todo.length} photo${todo.length === 1 ? '' : 's'}.`,
  )

  // Every photo's derivatives are made first and recorded together at the end, in one transaction:
  // a run stopped half-way (killed) leaves the rows as they were, and the next start removes the
  // files it made that no row names (store/folder-storage.ts).
  const phase = 'optimizing photos'
  const made: Array<{ image: StoredBusinessImage; derivatives: Derivatives }> = []
  for (const [index, { image, path }] of todo.entries()) {
    reporter.progress({ phase, done: index, total: todo.length })
    try {
      const derivatives = await optimizeOne(store, image, path)
      if (sameRecord(image, derivatives)) result.unchanged++
      else made.push({ image, derivatives })
    } catch (error) {
      fail(result, image, error instanceof Error ? error.message : String(error), reporter)
    }
  }
  reporter.progress({ phase: 'recording', done: todo.length, total: todo.length })
  // New files nobody refers to are litter; files a row already names (a remake) stay for it.
  const litter = (items: typeof made) =>
    items.flatMap(({ image, derivatives }) => (image.variants.length === 0 ? derivatives.files : []))
  let deleted: Set<string>
  try {
    const records = made.map(({ image, derivatives }) => ({ imageId: image.id, ...recordOf(derivatives) }))
    deleted = new Set((await store.recordImageDerivatives(records)).missing)
  } catch (error) {
    await removeFiles(store.files, litter(made))
    throw error
  }
  const gone = made.filter(({ image }) => deleted.has(image.id))
  await removeFiles(store.files, litter(gone))
  for (const { image, derivatives } of made) {
    if (deleted.has(image.id)) {
      fail(result, image, `No business image with id ${image.id}: it may have been deleted`, reporter)
      continue
    }
    result.optimized.push({
      imageId: image.id,
      businessName: image.business_name,
      imageUrl: image.image_url,
      width: derivatives.width,
      height: derivatives.height,
      variants: derivatives.variants.length,
    })
  }
  reporter.progress({ phase: 'done', done: todo.length, total: todo.length })
  result.summary = {
    optimized: result.optimized.length,
    unchanged: result.unchanged,
    skipped: result.skipped.length,
    failed: result.failed.length,
  }
  reporter.log(
    `Optimized ${result.summary.optimized}, unchanged ${result.summary.unchanged}, ` +
      `skipped ${result.summary.skipped}, failed ${result.summary.failed}.`,
  )
  return result
}

function fail(result: OptimizeImagesResult, image: StoredBusinessImage, message: string, reporter: JobReporter): void {
  result.failed.push({
    imageId: image.id,
    businessName: image.business_name,
    imageUrl: image.image_url,
    error: message,
  })
  reporter.log(`${image.business_name}: ${message}`)
}

function recordOf(derivatives: Derivatives): ImageDerivativesRecord {
  return {
    width: derivatives.width,
    height: derivatives.height,
    placeholder: derivatives.placeholder,
    variants: derivatives.variants,
  }
}

async function optimizeOne(store: Store, image: StoredBusinessImage, path: string): Promise<Derivatives> {
  const bytes = await store.files.get(path)
  if (!bytes) {
    throw new Error(`${image.image_url} is missing from storage (${path}): upload the photo again, or delete its row`)
  }
  return makeDerivatives(bytes, { files: store.files, name: image.image_url, basePath: derivativesBasePath(path) })
}

function sameRecord(image: ImageDerivativesRecord, record: ImageDerivativesRecord): boolean {
  return (
    image.width === record.width &&
    image.height === record.height &&
    image.placeholder === record.placeholder &&
    image.variants.length === record.variants.length &&
    // Field by field: jsonb gives the keys back in its own order.
    image.variants.every((variant, index) => {
      const other = record.variants[index]!
      return (
        variant.format === other.format &&
        variant.width === other.width &&
        variant.height === other.height &&
        variant.url === other.url &&
        variant.bytes === other.bytes
      )
    })
  )
}
