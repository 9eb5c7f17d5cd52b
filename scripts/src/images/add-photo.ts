import type { ImageType } from '../catalog/types.ts'
import { sniffImageType } from '../crawl/download-image.ts'
import { sanitizeSvg } from '../crawl/sanitize-svg.ts'
import { StoreError, type Store } from '../store/types.ts'
import { ingestImage, sha256 } from './ingest.ts'

// A photo an operator uploads (the console's upload route calls this): proven by its bytes, processed
// like a crawled one, written with its derivatives and recorded, all or nothing.

/** Where uploaded photos go in the files bucket (beside the crawled ones: the site treats them alike). */
export const UPLOADED_IMAGES_FOLDER = 'business-images'

/** A photo to add to a business. */
export interface AddPhotoInput {
  businessId: string
  bytes: Uint8Array
  /** The file name (or URL) it came from, for messages and the row's metadata. */
  name: string
  altText: string | null
  imageType: ImageType
  isPrimary: boolean
  /** Where it goes among the business's images; after the others when omitted. */
  sortOrder?: number
  /** Who added it, for the row's metadata (an operator's name, 'cli'). */
  addedBy?: string
}

/** The photo as stored (created false: the business already had this very picture). */
export interface AddedPhoto {
  imageId: string
  created: boolean
  imageUrl: string
  /** The original's path in the files bucket. */
  path: string
  width: number | null
  height: number | null
  placeholder: string | null
  variants: number
}

/**
 * Add a photo to a business: refuse it with a BadImageError naming the file when it is no usable
 * picture (an SVG only as a logo, cleaned of scripts), else write it and its derivatives and insert
 * its business_images row, removing what was written if the row cannot be recorded.
 */
export async function addPhoto(store: Store, input: AddPhotoInput): Promise<AddedPhoto> {
  const type = sniffImageType(input.bytes)
  let bytes = input.bytes
  let sanitized: string[] | undefined
  if (type?.contentType === 'image/svg+xml' && input.imageType === 'logo') {
    const clean = sanitizeSvg(bytes, input.name)
    bytes = clean.bytes
    sanitized = clean.removed
  }
  // Anything else is proven (or refused) by the derivatives, before a byte is written.
  const hash = sha256(bytes)
  const extension = type?.extension ?? 'bin'
  const path = `${UPLOADED_IMAGES_FOLDER}/${input.businessId}-${input.imageType}-${hash.slice(0, 16)}.${extension}`
  const sortOrder = input.sortOrder ?? (await imagesOf(store, input.businessId))
  const row = await ingestImage({
    store,
    path,
    bytes,
    contentType: type?.contentType ?? 'application/octet-stream',
    name: input.name,
    row: {
      business_id: input.businessId,
      alt_text: input.altText,
      image_type: input.imageType,
      is_primary: input.isPrimary,
      sort_order: sortOrder,
      metadata: {
        source: 'upload',
        fileName: input.name,
        addedBy: input.addedBy ?? 'cli',
        addedAt: new Date().toISOString(),
        contentType: type?.contentType ?? null,
        bytes: bytes.byteLength,
        sha256: hash,
        ...(sanitized ? { sanitized } : {}),
      },
    },
  })
  return {
    imageId: row.id,
    created: row.created,
    imageUrl: row.imageUrl,
    path,
    width: row.width,
    height: row.height,
    placeholder: row.derivatives?.placeholder ?? null,
    variants: row.derivatives?.variants.length ?? 0,
  }
}

async function imagesOf(store: Store, businessId: string): Promise<number> {
  const business = (await store.listBusinesses()).find((candidate) => candidate.id === businessId)
  if (!business) {
    throw new StoreError(`No business with id ${businessId} in ${store.location}: it may have been deleted`)
  }
  return business.images.length
}
