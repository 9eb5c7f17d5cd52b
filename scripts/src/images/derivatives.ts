import sharp, { type Metadata, type Sharp } from 'sharp'
import { rgbaToThumbHash } from 'thumbhash'
import type { ImageVariant, ImageVariantFormat } from '../catalog/types.ts'
import { MAX_IMAGE_BYTES, sniffImageType } from '../crawl/download-image.ts'
import type { FileStorage } from '../store/types.ts'
import { BadImageError } from './bad-image-error.ts'

// DESIGN.md, "Images": a photo is processed once, when it enters (crawl, upload, generated store
// image, backfill), never at build time. Its bytes are proven to be a raster photo, its header is
// checked against a pixel limit before a single pixel is decoded, and it is decoded once, into 8-bit
// sRGB with its EXIF orientation applied, at most as wide as the widest derivative. Every width and format is cut from those decoded pixels,
// so no derivative carries the original's metadata (GPS, camera, comments): they are new images.

/**
 * The widths a photo is served in; a narrower original gets its own width instead of the wider ones.
 * 720 is a full-width photo on a phone (360–412 CSS px at a density of 1.75–2): without it such a
 * phone picks the 960, about three times the bytes, and a business page's LCP waits for them.
 */
export const PHOTO_WIDTHS = [320, 640, 720, 960, 1440] as const

/** Most pixels a photo may have: 40 megapixels is more than a phone or a common camera takes. */
export const MAX_PHOTO_PIXELS = 40_000_000

/** Largest photo file taken, the same bound as a crawl's downloads. */
export const MAX_PHOTO_BYTES = MAX_IMAGE_BYTES

/** The raster formats a photo may arrive in. */
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'])

const FORMATS: Record<ImageVariantFormat, { contentType: string; extension: string }> = {
  avif: { contentType: 'image/avif', extension: 'avif' },
  webp: { contentType: 'image/webp', extension: 'webp' },
  jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
  png: { contentType: 'image/png', extension: 'png' },
}

/**
 * How the derivatives are encoded. Measured by `pnpm bench photos` on a 2400×1600 photo, against the
 * settings before issue 31 (AVIF effort 2 in 4:4:4, WebP effort 4, one encode after another, every
 * width resized from the full picture): AVIF effort 0 in 4:2:0 is about ten times faster for the
 * same SSIM and fewer bytes (4:2:0 is what the WebP and JPEG derivatives have always had); WebP
 * effort 2 is about three times faster than 4 for a few per cent more bytes. The JPEG is only the
 * fallback of browsers without AVIF and WebP, so it skips mozjpeg's slow trellis search, and it is
 * baseline: progressive took twice the CPU time to save 3% of its bytes. The narrower widths are cut
 * from the widest derivative: cheaper than from the original, and than a JPEG's shrink-on-load
 * (a second decode), for the same SSIM; decoding straight to the widest saved another tenth.
 */
export interface DerivativeEncoding {
  avif: { quality: number; effort: number; chromaSubsampling: '4:4:4' | '4:2:0' }
  webp: { quality: number; effort: number }
  jpeg: { quality: number; progressive: boolean }
  png: { compressionLevel: number; adaptiveFiltering: boolean }
  /**
   * Decode straight to the widest derivative's width (in one pass; a JPEG of twice that width or
   * more shrinks on load) and resize the narrower widths from it, instead of decoding the full
   * picture and resizing every width from it.
   */
  cascade: boolean
  /** Run the encodes side by side (on libuv's thread pool) instead of one after another. */
  parallel: boolean
}

/** The encoding every photo gets. */
export const PHOTO_ENCODING: DerivativeEncoding = {
  avif: { quality: 50, effort: 0, chromaSubsampling: '4:2:0' },
  webp: { quality: 72, effort: 2 },
  jpeg: { quality: 76, progressive: false },
  png: { compressionLevel: 9, adaptiveFiltering: true },
  cascade: true,
  parallel: true,
}

/** Where a photo's derivatives go, and the bounds it must keep. */
export interface DerivativesOptions {
  files: FileStorage
  /** The URL or file name of the picture, for messages. */
  name: string
  /** The bucket path the derivatives' names start with, e.g. 'business-images/<id>-hero-<hash>' (no extension). */
  basePath: string
  maxBytes?: number
  maxPixels?: number
  /** Other encoding settings than PHOTO_ENCODING, for the bench to compare. */
  encoding?: DerivativeEncoding
}

/** A photo's intrinsic size, placeholder and responsive derivatives, as written to storage. */
export interface Derivatives {
  /** Width and height after EXIF orientation. */
  width: number
  height: number
  /** A ThumbHash of the picture, base64. */
  placeholder: string
  variants: ImageVariant[]
  /** Every file written, by bucket path (the caller removes them if its row cannot be recorded). */
  files: string[]
  /** True when the picture has transparency (its fallback is PNG, not JPEG). */
  hasAlpha: boolean
  /** Frames in the original: more than 1 for an animation, of which only the first is kept. */
  frames: number
}

/** Choose a photo's widths: the standard ones it is not narrower than, plus its own width when under the widest. */
export function derivativeWidths(originalWidth: number): number[] {
  const widths: number[] = PHOTO_WIDTHS.filter((width) => width <= originalWidth)
  const widest = PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1]!
  if (originalWidth < widest && !widths.includes(originalWidth)) widths.push(originalWidth)
  return widths
}

/** Say what a derivative set means for a business_images row's metadata (an animation keeps its first frame). */
export function derivativesMetadata(derivatives: Pick<Derivatives, 'frames'>): Record<string, unknown> {
  return derivatives.frames > 1 ? { firstFrameOf: derivatives.frames } : {}
}

/**
 * Validate a photo, decode it once, and write its derivatives (every width in AVIF, WebP and a JPEG
 * or, with transparency, PNG fallback) through files. A picture that is not a usable photo is
 * refused with a BadImageError naming it; on any failure the files already written are removed.
 */
export async function makeDerivatives(bytes: Uint8Array, options: DerivativesOptions): Promise<Derivatives> {
  const { name } = options
  const encoding = options.encoding ?? PHOTO_ENCODING
  // With the cascade, the photo is decoded straight to the widest derivative's size, so that a
  // JPEG's shrink-on-load can skip most of a large original's pixels.
  const decoded = await decodePhoto(
    bytes,
    options,
    encoding.cascade ? PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1] : undefined,
  )
  const { width, height } = decoded
  const { channels } = decoded.info
  const hasAlpha = channels === 4 && hasTransparency(decoded.data)
  const fallback: ImageVariantFormat = hasAlpha ? 'png' : 'jpeg'
  const raw = (pixels: Raw) =>
    sharp(pixels.data, { raw: pixels.info }).pipelineColourspace('srgb').toColourspace('srgb')
  const opaque = (image: Sharp) => (hasAlpha || channels === 3 ? image : image.removeAlpha())
  const encoders: Record<ImageVariantFormat, (image: Sharp) => Promise<Buffer>> = {
    avif: (image) => opaque(image).avif(encoding.avif).toBuffer(),
    webp: (image) => opaque(image).webp(encoding.webp).toBuffer(),
    jpeg: (image) => opaque(image).jpeg(encoding.jpeg).toBuffer(),
    png: (image) => image.png(encoding.png).toBuffer(),
  }
  const resize = async (from: Raw, targetWidth: number): Promise<Raw> => {
    const { data, info } = await raw(from)
      .resize({ width: targetWidth, withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true })
    return { data, info: { width: info.width, height: info.height, channels: info.channels as 3 | 4 } }
  }
  /** Encode one width in the three formats, each from the same resized pixels. */
  const encodeWidth = async (resized: Raw) => {
    const jobs = (['avif', 'webp', fallback] as const).map((format) => async () => {
      const output = await encoders[format](raw(resized))
      return {
        variant: { format, width: resized.info.width, height: resized.info.height, bytes: output.byteLength },
        path: `${options.basePath}-${resized.info.width}.${FORMATS[format].extension}`,
        bytes: output,
      }
    })
    return runAll(jobs, encoding.parallel)
  }

  let encoded: Encoded[]
  let placeholder: string
  try {
    // Widest first: with the cascade, the narrower widths are cut from it (a third of the pixels of
    // a 2400×1600 original), and its encodes, the longest, start first.
    const [widest, ...narrower] = derivativeWidths(width).sort((a, b) => b - a)
    const first = decoded.info.width === widest ? decoded : await resize(decoded, widest!)
    const source = encoding.cascade ? first : decoded
    const perWidth = [
      () => encodeWidth(first),
      ...narrower.map((targetWidth) => async () => encodeWidth(await resize(source, targetWidth))),
    ]
    const [hash, widths] = await Promise.all([thumbHash(first), runAll(perWidth, encoding.parallel)])
    placeholder = hash
    // Narrowest first, as before: the variants are in the order of their widths.
    encoded = widths.reverse().flat()
  } catch (error) {
    throw new BadImageError('corrupt', name, `${name} could not be converted: ${messageOf(error)}`, { cause: error })
  }

  const files: string[] = []
  try {
    for (const item of encoded) {
      await options.files.put(item.path, item.bytes, {
        contentType: FORMATS[item.variant.format].contentType,
        upsert: true,
      })
      files.push(item.path)
    }
  } catch (error) {
    await removeFiles(options.files, files)
    throw error
  }
  const variants = encoded.map((item) => ({ ...item.variant, url: options.files.publicUrl(item.path) }))
  return { width, height, placeholder, variants, files, hasAlpha, frames: decoded.frames }
}

/** Remove files a failed ingest wrote, ignoring any already gone, so nothing is left half-written. */
export async function removeFiles(files: FileStorage, paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map((path) => files.remove(path).catch(() => {})))
}

/** Decoded 8-bit sRGB pixels. */
interface Raw {
  data: Buffer
  info: { width: number; height: number; channels: 3 | 4 }
}

interface Decoded extends Raw {
  /** The original's size after EXIF orientation (the pixels may be narrower). */
  width: number
  height: number
  frames: number
}

/** One derivative, encoded, before it is written. */
interface Encoded {
  variant: Omit<ImageVariant, 'url'>
  path: string
  bytes: Buffer
}

/** Run jobs side by side, or one after another; the results are in the jobs' order either way. */
async function runAll<T>(jobs: ReadonlyArray<() => Promise<T>>, parallel: boolean): Promise<T[]> {
  if (parallel) return Promise.all(jobs.map((job) => job()))
  const results: T[] = []
  for (const job of jobs) results.push(await job())
  return results
}

/**
 * Prove the bytes are a raster photo within bounds, then decode them once into oriented 8-bit sRGB
 * pixels, no wider than maxWidth when given.
 */
async function decodePhoto(bytes: Uint8Array, options: DerivativesOptions, maxWidth?: number): Promise<Decoded> {
  const { name } = options
  const maxBytes = options.maxBytes ?? MAX_PHOTO_BYTES
  const maxPixels = options.maxPixels ?? MAX_PHOTO_PIXELS
  if (bytes.byteLength === 0) throw new BadImageError('empty', name, `${name} is an empty file (0 bytes): no picture`)
  if (bytes.byteLength > maxBytes) {
    throw new BadImageError(
      'too-large',
      name,
      `${name} is ${megabytes(bytes.byteLength)}, over the ${megabytes(maxBytes)} limit for a photo: ` +
        'export it smaller (a photo for the site needs no more than 2400 pixels across)',
    )
  }
  const type = sniffImageType(bytes)
  if (type?.contentType === 'image/svg+xml') {
    throw new BadImageError(
      'svg-photo',
      name,
      `${name} is an SVG drawing, not a photo: an SVG is kept only as a logo, where it is cleaned of scripts`,
    )
  }
  if (!type || !PHOTO_TYPES.has(type.contentType)) {
    throw new BadImageError(
      type ? 'unsupported-format' : 'not-an-image',
      name,
      `${name} is ${type ? `an image of type ${type.contentType}` : describeNonImage(bytes)}, ` +
        'not a photo: use a JPEG, PNG, WebP, GIF or AVIF file',
    )
  }
  // One frame only (pages: 1): an animated GIF or WebP gives its first frame.
  const input = () => sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error', autoOrient: true, pages: 1 })
  let header: Metadata
  try {
    // The header alone, without the pixel limit, so a picture over it is refused below saying its size.
    header = await sharp(bytes, { limitInputPixels: false, failOn: 'error', pages: 1 }).metadata()
  } catch (error) {
    throw new BadImageError(
      'corrupt',
      name,
      `${name} is a damaged ${type.extension.toUpperCase()} file: ${messageOf(error)}`,
      {
        cause: error,
      },
    )
  }
  // Checked from the header, before decoding: a small file can claim billions of pixels (a decompression bomb).
  if (header.width * header.height > maxPixels) {
    throw new BadImageError(
      'too-many-pixels',
      name,
      `${name} is ${header.width}×${header.height} pixels, over the limit of ${(maxPixels / 1e6).toFixed(0)} megapixels: ` +
        'it was refused before decoding; export it at a normal size',
    )
  }
  try {
    const image = input()
    if (maxWidth !== undefined) image.resize({ width: maxWidth, withoutEnlargement: true })
    const { data, info } = await image
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true })
    if (info.channels !== 3 && info.channels !== 4)
      throw new Error(`${info.channels} channels after conversion to sRGB`)
    return {
      data,
      info: { width: info.width, height: info.height, channels: info.channels },
      width: header.autoOrient.width,
      height: header.autoOrient.height,
      frames: header.pages ?? 1,
    }
  } catch (error) {
    const limit = /pixel limit/i.test(messageOf(error))
    throw new BadImageError(
      limit ? 'too-many-pixels' : 'corrupt',
      name,
      limit
        ? `${name} has more pixels than the limit of ${(maxPixels / 1e6).toFixed(0)} megapixels: export it at a normal size`
        : `${name} is a damaged ${type.extension.toUpperCase()} file: ${messageOf(error)}`,
      { cause: error },
    )
  }
}

/** Tell a person what some bytes that are no image look like: an HTML page, text, or unknown data. */
function describeNonImage(bytes: Uint8Array): string {
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart()
  if (/^<(?:!doctype html|html|head|body)\b/i.test(head)) return 'an HTML page'
  if (/^</.test(head)) return 'an XML or HTML document'
  const ftyp = String.fromCharCode(...bytes.subarray(4, 12))
  if (/^ftyp(?:heic|heix|hevc|mif1|msf1)/.test(ftyp))
    return 'a HEIC photo (the format of iPhones), which browsers cannot show'
  if (/^%PDF/.test(head)) return 'a PDF document'
  // Printable text: no control characters but tabs and line breaks.
  // eslint-disable-next-line no-control-regex -- finding control characters (binary data) is the point
  if (!/[\x00-\x08\x0e-\x1f]/.test(head)) return 'a text file'
  return 'not an image (its bytes match no image format)'
}

function hasTransparency(rgba: Buffer): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i]! < 255) return true
  return false
}

/** Make the ThumbHash of decoded pixels (it takes at most 100×100 RGBA). */
async function thumbHash(pixels: Raw): Promise<string> {
  const small = await sharp(pixels.data, { raw: pixels.info })
    .resize({ width: 100, height: 100, fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString('base64')
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  // libvips repeats its complaint line by line; the first line says it.
  return message.split('\n')[0]!.trim()
}
