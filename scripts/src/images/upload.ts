import { createHash } from 'node:crypto'
import { createRow, type Actor, type ContentRow } from '../content/edit.ts'
import { MAX_IMAGE_BYTES, sniffImageType } from '../crawl/download-image.ts'
import { imageSize } from '../crawl/image-size.ts'
import { CRAWLED_IMAGES_FOLDER } from '../crawl/store-images.ts'
import type { Store } from '../store/types.ts'
import { ImageError } from './image-error.ts'

// A photo an operator uploads from the console (issue 18). Its bytes decide what it is, never its
// name or the type the browser claimed. The file and its business_images row are written together:
// when the row cannot be added, the file is removed again, so nothing is left half-written.

/** The formats an uploaded photo may have: those every browser shows (no SVG: it can carry scripts). */
const UPLOAD_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'])

/** An uploaded photo and what the operator said about it. */
export interface UploadedImage {
  businessId: string
  bytes: Uint8Array
  /** The name of the file the operator chose, kept as provenance. */
  fileName: string
  altText: string | null
  actor: Actor
}

/** Stores an uploaded photo of a business and records it as its newest gallery image. */
export async function addUploadedImage(store: Store, upload: UploadedImage): Promise<ContentRow> {
  if (upload.bytes.length === 0) throw new ImageError('invalid-input', 'The file is empty: choose the photo again.')
  if (upload.bytes.length > MAX_IMAGE_BYTES) {
    throw new ImageError('invalid-input', 'The photo is over the 10 MB limit: send a smaller one.')
  }
  const sniffed = sniffImageType(upload.bytes)
  if (!sniffed || !UPLOAD_TYPES.has(sniffed.contentType)) {
    throw new ImageError(
      'invalid-input',
      `${upload.fileName || 'The file'} is ${sniffed ? sniffed.contentType : 'not an image'}: upload a JPEG, PNG, WebP, GIF or AVIF photo.`,
    )
  }
  const size = imageSize(upload.bytes, sniffed.contentType)
  const sha256 = createHash('sha256').update(upload.bytes).digest('hex')
  const path = `${CRAWLED_IMAGES_FOLDER}/${upload.businessId}-upload-${sha256.slice(0, 16)}.${sniffed.extension}`
  // The same photo gets the same name: when it is there already (kept for an undo), leave it be.
  const wrote = (await store.files.get(path)) === null
  if (wrote) await store.files.put(path, upload.bytes, { contentType: sniffed.contentType, upsert: true })
  const removeWritten = () => (wrote ? store.files.remove(path).catch(() => {}) : Promise.resolve())
  let outcome
  try {
    outcome = await createRow(
      store,
      'business_images',
      {
        business_id: upload.businessId,
        image_url: store.files.publicUrl(path),
        alt_text: upload.altText,
        image_type: 'gallery',
        is_primary: false,
        sort_order: 1000,
        width: size?.width ?? null,
        height: size?.height ?? null,
        metadata: { source: 'upload', fileName: upload.fileName.slice(0, 200), sha256 },
      },
      upload.actor,
    )
  } catch (error) {
    await removeWritten()
    throw new ImageError('record-failed', `The photo could not be recorded: ${(error as Error).message}`, {
      cause: error,
    })
  }
  if (outcome.status !== 'ok') {
    await removeWritten()
    throw outcome.status === 'invalid' && outcome.constraint === 'business_images_business_id_fkey'
      ? new ImageError('not-found', `No business with id ${upload.businessId}: take the id from GET /api/businesses.`)
      : outcome.status === 'invalid' && outcome.constraint === 'business_images_business_id_image_url_key'
        ? new ImageError('invalid-input', 'This business already has this photo.')
        : new ImageError(
            'record-failed',
            `The photo could not be recorded: ${'message' in outcome ? outcome.message : outcome.status}`,
          )
  }
  return outcome.row
}
