import { createHash } from 'node:crypto'
import { createRow, type Actor, type ContentRow } from '../content/edit.ts'
import { MAX_IMAGE_BYTES, sniffImageType } from '../crawl/download-image.ts'
import { CRAWLED_IMAGES_FOLDER } from '../crawl/store-images.ts'
import type { Store } from '../store/types.ts'
import { BadImageError } from './bad-image-error.ts'
import { derivativesMetadata, makeDerivatives, removeFiles } from './derivatives.ts'
import { ImageError } from './image-error.ts'
import { derivativesBasePath } from './ingest.ts'

// A photo an operator uploads from the console (issue 18). Its bytes decide what it is, never its
// name or the type the browser claimed. It goes through the image pipeline (derivatives.ts) like a
// crawled photo: refused before anything is written when it is no usable picture, else its AVIF,
// WebP and JPEG widths are written first. The row goes in through create_row, so the audit trail
// names the operator; when it cannot be added, every file written is removed again.

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
  const sha256 = createHash('sha256').update(upload.bytes).digest('hex')
  const path = `${CRAWLED_IMAGES_FOLDER}/${upload.businessId}-upload-${sha256.slice(0, 16)}.${sniffed.extension}`
  const name = upload.fileName || 'the uploaded photo'
  // The same photo gets the same names: when it is there already (kept for an undo, or still in use),
  // its files are rewritten with the same bytes and never removed here.
  const wrote = (await store.files.get(path)) === null
  let derivatives
  try {
    derivatives = await makeDerivatives(upload.bytes, { files: store.files, name, basePath: derivativesBasePath(path) })
  } catch (error) {
    if (error instanceof BadImageError) throw new ImageError('invalid-input', error.message, { cause: error })
    throw error
  }
  const written = wrote ? [...derivatives.files, path] : []
  try {
    if (wrote) await store.files.put(path, upload.bytes, { contentType: sniffed.contentType, upsert: true })
  } catch (error) {
    await removeFiles(store.files, written).catch(() => {})
    throw new ImageError('record-failed', `${name} could not be stored: ${(error as Error).message}`, { cause: error })
  }
  const removeWritten = () => removeFiles(store.files, written).catch(() => {})
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
        width: derivatives.width,
        height: derivatives.height,
        placeholder: derivatives.placeholder,
        variants: derivatives.variants,
        metadata: {
          source: 'upload',
          fileName: upload.fileName.slice(0, 200),
          sha256,
          ...derivativesMetadata(derivatives),
        },
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
            `The photo could not be recorded: ${outcome.status === 'invalid' ? outcome.message : outcome.status}`,
          )
  }
  return outcome.row
}
