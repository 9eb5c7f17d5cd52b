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

/** Make a picture's derivatives, write it and them to the files bucket and insert its row, all or nothing. */
export async function ingestImage(options: IngestImageOptions): Promise<IngestedImage> {
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

  const imageUrl = store.files.publicUrl(path)
  try {
    const row = await store.addImage({
      ...options.row,
      image_url: imageUrl,
      metadata: { ...options.row.metadata, ...(derivatives ? derivativesMetadata(derivatives) : {}) },
      width: size?.width ?? null,
      height: size?.height ?? null,
      placeholder: derivatives?.placeholder ?? null,
      variants: derivatives?.variants ?? [],
    })
    return { ...row, imageUrl, path, width: size?.width ?? null, height: size?.height ?? null, derivatives }
  } catch (error) {
    await removeFiles(store.files, [...(derivatives?.files ?? []), ...(wroteOriginal ? [path] : [])])
    throw new IngestError(
      'record',
      `Failed to record ${name}: ${messageOf(error)}. The files written for it were removed`,
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
