import { createHash } from 'node:crypto'
import { imageSize } from '../crawl/image-size.ts'
import type { ImageDerivativesRecord, NewBusinessImage, Store } from '../store/types.ts'
import { BadImageError } from './bad-image-error.ts'
import { derivativesMetadata, makeDerivatives, removeFiles, type Derivatives } from './derivatives.ts'

// Every way a picture enters (a crawl, an upload, a generated store image) ends the same way: the
// derivatives are made first (so a bad picture is refused before anything is written), then the
// original is written, then the business_images row is inserted with its derivatives in one step.
// When a step fails, what the earlier steps wrote is removed: no file without its row, no row
// without its derivatives.

/** Which step of an ingest failed after the picture was accepted: storing a file, or recording the row. */
export class IngestError extends Error {
  readonly step: 'upload' | 'record'
  constructor(step: 'upload' | 'record', message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'IngestError'
    this.step = step
  }
}

/** A picture to store as a business image. */
export interface IngestImageOptions {
  store: Store
  /** The original's path in the files bucket; the derivatives are named after it. */
  path: string
  bytes: Uint8Array
  /** The media type the bytes proved (an SVG logo is kept as is, without raster derivatives; an SVG photo is refused). */
  contentType: string
  /** The URL or file name the picture came from, for messages. */
  name: string
  /** The row to insert, without its URL and derivatives (ingest fills them in). */
  row: Omit<NewBusinessImage, 'image_url' | keyof ImageDerivativesRecord>
  /**
   * Fail when a file is already at path. Otherwise a file with the same bytes is taken as this picture
   * (named by its hash, stored before), and one with other bytes, a write cut short, is replaced.
   */
  exclusive?: boolean
}

/** A picture stored with its row (created false: the row for that URL was already there). */
export interface IngestedImage {
  id: string
  created: boolean
  imageUrl: string
  path: string
  width: number | null
  height: number | null
  derivatives: Derivatives | null
}

/** A picture whose files are written, and the row that will name them. */
export interface WrittenImage {
  row: NewBusinessImage
  path: string
  /** The name of the picture, for messages. */
  name: string
  width: number | null
  height: number | null
  derivatives: Derivatives | null
  /** The files this write added (an original already stored with the same bytes is not among them). */
  written: string[]
}

/** Make a picture's derivatives, write it and them to the files bucket and insert its row, all or nothing. */
export async function ingestImage(options: IngestImageOptions): Promise<IngestedImage> {
  return (await recordImages(options.store, [await writeImageFiles(options)]))[0]!
}

/**
 * Make a picture's derivatives and write it and them to the files bucket, without its row yet
 * (recordImages inserts it): a refused picture writes nothing, a failed write removes what it wrote.
 */
export async function writeImageFiles(options: IngestImageOptions): Promise<WrittenImage> {
  const { store, path, bytes, contentType, name } = options
  let derivatives: Derivatives | null = null
  let size: { width: number; height: number } | null
  if (contentType === 'image/svg+xml' && options.row.image_type === 'logo') {
    // A vector logo (cleaned of scripts by the caller) is served as is: no raster derivatives, its size from its own header when it says one.
    size = imageSize(bytes, contentType) ?? null
  } else {
    try {
      // Throws a BadImageError, having written nothing, when the picture is no usable photo.
      derivatives = await makeDerivatives(bytes, { files: store.files, name, basePath: derivativesBasePath(path) })
    } catch (error) {
      if (error instanceof BadImageError) throw error
      throw new IngestError('upload', `Failed to upload the derivatives of ${name}: ${messageOf(error)}`, {
        cause: error,
      })
    }
    size = { width: derivatives.width, height: derivatives.height }
  }

  let wroteOriginal: boolean
  try {
    if (options.exclusive) {
      await store.files.put(path, bytes, { contentType, upsert: false })
      wroteOriginal = true
    } else {
      wroteOriginal = await putOnce(store, path, bytes, contentType)
    }
  } catch (error) {
    await removeFiles(store.files, derivatives?.files ?? [])
    throw new IngestError('upload', `Failed to upload ${name}: ${messageOf(error)}`, { cause: error })
  }

  return {
    row: {
      ...options.row,
      image_url: store.files.publicUrl(path),
      metadata: { ...options.row.metadata, ...(derivatives ? derivativesMetadata(derivatives) : {}) },
      width: size?.width ?? null,
      height: size?.height ?? null,
      placeholder: derivatives?.placeholder ?? null,
      variants: derivatives?.variants ?? [],
    },
    path,
    name,
    width: size?.width ?? null,
    height: size?.height ?? null,
    derivatives,
    written: [...(derivatives?.files ?? []), ...(wroteOriginal ? [path] : [])],
  }
}

/**
 * Insert the rows of pictures whose files are written, in one transaction (Store.addImages): all
 * of them or, on failure, none, and then the files written for them are removed.
 */
export async function recordImages(store: Store, images: readonly WrittenImage[]): Promise<IngestedImage[]> {
  if (images.length === 0) return []
  try {
    const rows = await store.addImages(images.map((image) => image.row))
    return images.map((image, index) => ({
      ...rows[index]!,
      imageUrl: image.row.image_url,
      path: image.path,
      width: image.width,
      height: image.height,
      derivatives: image.derivatives,
    }))
  } catch (error) {
    await removeFiles(
      store.files,
      images.flatMap((image) => image.written),
    )
    const names = images.map((image) => image.name).join(', ')
    throw new IngestError(
      'record',
      `Failed to record ${names}: ${messageOf(error)}. The files written for ${images.length === 1 ? 'it' : 'them'} were removed`,
      { cause: error },
    )
  }
}

/** Where derivatives go in the files bucket: a folder of their own, apart from the originals. */
export const DERIVATIVES_FOLDER = 'variants'

/** Name the derivatives of a picture after its path: 'variants/<path without extension>-<width>.<format>'. */
export function derivativesBasePath(path: string): string {
  return `${DERIVATIVES_FOLDER}/${path.replace(/\.[a-z0-9]+$/i, '')}`
}

/**
 * Write a file unless the same bytes are already there; say whether it wrote. A file at that path with
 * other bytes is a write cut short and is replaced: no row can rely on broken bytes.
 */
export async function putOnce(store: Store, path: string, bytes: Uint8Array, contentType: string): Promise<boolean> {
  try {
    await store.files.put(path, bytes, { contentType, upsert: false })
    return true
  } catch (error) {
    const current = await store.files.get(path).catch(() => null)
    if (!current) throw error
    if (sha256(current) === sha256(bytes)) return false
    await store.files.put(path, bytes, { contentType, upsert: true })
    return false
  }
}

/** Hash bytes with SHA-256, in hex. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
