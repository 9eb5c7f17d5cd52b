import sharp from 'sharp'
import { thumbHashToApproximateAspectRatio } from 'thumbhash'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type EmbeddedStore } from '../store/embedded.ts'
import { freshStore } from '../../test/support/fresh-store.ts'
import type { FileStorage } from '../store/types.ts'
import {
  animatedGif,
  cmykJpeg,
  grayscalePng,
  htmlPage,
  jpegWithGpsAndOrientation,
  photoJpeg,
  pixelBombPng,
  sixteenBitPng,
  svgWithScript,
  textFile,
  transparentPng,
} from '../../test/support/image-fixtures.ts'
import { BadImageError } from './bad-image-error.ts'
import { derivativeWidths, makeDerivatives, type Derivatives } from './derivatives.ts'

// The pipeline against the embedded store's real files bucket (in memory): what it writes for a
// good photo, and how each bad picture is refused with nothing written.

let store: EmbeddedStore

beforeAll(async () => {
  store = await freshStore()
})

afterAll(async () => {
  await store.close()
})

/** The files bucket, counting what is in it. */
function countingFiles(inner: FileStorage, failOnPut?: number) {
  const present = new Set<string>()
  let puts = 0
  const files: FileStorage = {
    get: (path) => inner.get(path),
    async put(path, bytes, options) {
      puts++
      if (failOnPut !== undefined && puts === failOnPut)
        throw new Error('the bucket refused the upload (quota exceeded)')
      await inner.put(path, bytes, options)
      present.add(path)
    },
    async remove(path) {
      await inner.remove(path)
      present.delete(path)
    },
    list: () => inner.list(),
    publicUrl: (path) => inner.publicUrl(path),
  }
  return { files, present }
}

let serial = 0
async function derive(bytes: Uint8Array, name = 'https://example.com/photo.jpg', files?: FileStorage) {
  const counting = countingFiles(store.files)
  const result = await makeDerivatives(bytes, {
    files: files ?? counting.files,
    name,
    basePath: `business-images/test-${++serial}`,
  })
  return { result, present: counting.present }
}

async function refusal(bytes: Uint8Array, name: string): Promise<{ error: BadImageError; present: Set<string> }> {
  const counting = countingFiles(store.files)
  const error = await makeDerivatives(bytes, {
    files: counting.files,
    name,
    basePath: `business-images/bad-${++serial}`,
  }).then(
    () => {
      throw new Error(`${name} was accepted`)
    },
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(BadImageError)
  return { error: error as BadImageError, present: counting.present }
}

async function readVariant(result: Derivatives, index: number) {
  const path = result.files[index]!
  const bytes = await store.files.get(path)
  expect(bytes, `${path} was written`).not.toBeNull()
  return sharp(bytes!).metadata()
}

describe('derivativeWidths', () => {
  test('gives the standard widths up to a wide original, never wider', () => {
    expect(derivativeWidths(2400)).toEqual([320, 640, 720, 960, 1440])
    expect(derivativeWidths(1440)).toEqual([320, 640, 720, 960, 1440])
  })

  test('adds a narrow original’s own width instead of the wider ones', () => {
    expect(derivativeWidths(800)).toEqual([320, 640, 720, 800])
    expect(derivativeWidths(700)).toEqual([320, 640, 700])
    expect(derivativeWidths(640)).toEqual([320, 640])
    expect(derivativeWidths(200)).toEqual([200])
  })
})

describe('makeDerivatives', () => {
  test('makes AVIF, WebP and JPEG at each width of a 2400×1600 photo, with a placeholder and its size', async () => {
    const { result, present } = await derive(await photoJpeg(2400, 1600))
    expect(result.width).toBe(2400)
    expect(result.height).toBe(1600)
    expect(result.hasAlpha).toBe(false)
    expect(result.frames).toBe(1)
    expect(result.variants.map((v) => `${v.format}@${v.width}x${v.height}`)).toEqual([
      'avif@320x213',
      'webp@320x213',
      'jpeg@320x213',
      'avif@640x427',
      'webp@640x427',
      'jpeg@640x427',
      'avif@720x480',
      'webp@720x480',
      'jpeg@720x480',
      'avif@960x640',
      'webp@960x640',
      'jpeg@960x640',
      'avif@1440x960',
      'webp@1440x960',
      'jpeg@1440x960',
    ])
    expect([...present].sort()).toEqual([...result.files].sort())
    for (const [index, variant] of result.variants.entries()) {
      expect(variant.url).toBe(store.files.publicUrl(result.files[index]!))
      const bytes = await store.files.get(result.files[index]!)
      expect(bytes!.byteLength).toBe(variant.bytes)
      const metadata = await sharp(bytes!).metadata()
      expect(metadata.format).toBe(variant.format === 'avif' ? 'heif' : variant.format)
      expect([metadata.width, metadata.height]).toEqual([variant.width, variant.height])
    }
    expect(thumbHashToApproximateAspectRatio(Buffer.from(result.placeholder, 'base64'))).toBeCloseTo(1.5, 0)
  })

  test('applies the EXIF orientation and strips all metadata, GPS included, from every derivative', async () => {
    const original = await jpegWithGpsAndOrientation(900, 600)
    const before = await sharp(original).metadata()
    expect(before.orientation).toBe(6)
    // The GPS IFD pointer (tag 0x8825, little-endian) is in the original's EXIF.
    expect(before.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true)

    const { result } = await derive(original, 'IMG_0042.jpg')
    expect([result.width, result.height]).toEqual([600, 900])
    for (const index of result.variants.keys()) {
      const metadata = await readVariant(result, index)
      expect(metadata.exif, result.files[index]).toBeUndefined()
      expect(metadata.xmp).toBeUndefined()
      expect(metadata.iptc).toBeUndefined()
      expect(metadata.orientation ?? 1).toBe(1)
      expect(metadata.height).toBeGreaterThan(metadata.width)
    }
  })

  test('converts a CMYK JPEG to sRGB', async () => {
    const { result } = await derive(await cmykJpeg(400, 300))
    for (const index of result.variants.keys()) {
      const metadata = await readVariant(result, index)
      expect(metadata.space).toBe('srgb')
      expect(metadata.channels).toBe(3)
    }
  })

  test('converts a 16-bit PNG to 8-bit', async () => {
    const original = await sixteenBitPng(400, 300)
    expect((await sharp(original).metadata()).depth).toBe('ushort')
    const { result } = await derive(original, 'scan-16bit.png')
    expect(result.variants.map((v) => v.format)).toEqual(['avif', 'webp', 'jpeg', 'avif', 'webp', 'jpeg'])
    for (const index of result.variants.keys()) expect((await readVariant(result, index)).depth).toBe('uchar')
  })

  test('converts a grayscale PNG to sRGB JPEG, WebP and AVIF', async () => {
    const original = await grayscalePng(400, 300)
    expect((await sharp(original).metadata()).channels).toBe(1)
    const { result } = await derive(original, 'gray.png')
    const jpeg = await readVariant(result, 2)
    expect(jpeg.format).toBe('jpeg')
    expect(jpeg.space).toBe('srgb')
  })

  test('keeps the transparency of a PNG with alpha, with PNG instead of JPEG as the fallback', async () => {
    const { result } = await derive(await transparentPng(500, 400), 'logo.png')
    expect(result.hasAlpha).toBe(true)
    expect(result.variants.map((v) => `${v.format}@${v.width}`)).toEqual([
      'avif@320',
      'webp@320',
      'png@320',
      'avif@500',
      'webp@500',
      'png@500',
    ])
    for (const index of result.variants.keys()) {
      const metadata = await readVariant(result, index)
      expect(metadata.hasAlpha, result.files[index]).toBe(true)
    }
    const png = await store.files.get(result.files[2]!)
    const { data } = await sharp(png!).raw().toBuffer({ resolveWithObject: true })
    expect(data[3]).toBe(0) // the top-left corner is still transparent
  })

  test('takes the first frame of an animated GIF and says how many it had', async () => {
    const { result } = await derive(await animatedGif(120, 80), 'spinner.gif')
    expect(result.frames).toBe(3)
    expect([result.width, result.height]).toEqual([120, 80])
    const first = await store.files.get(result.files.find((path) => path.endsWith('.jpg'))!)
    const { data } = await sharp(first!).raw().toBuffer({ resolveWithObject: true })
    // The first frame is magenta; the others are yellow and cyan.
    expect(data[0]!).toBeGreaterThan(200)
    expect(data[1]!).toBeLessThan(40)
    expect(data[2]!).toBeGreaterThan(200)
  })

  test('refuses a zero-byte file', async () => {
    const { error, present } = await refusal(new Uint8Array(), 'https://example.com/empty.jpg')
    expect(error.code).toBe('empty')
    expect(error.message).toContain('https://example.com/empty.jpg is an empty file')
    expect(present.size).toBe(0)
  })

  test('refuses a file over the size limit without reading it', async () => {
    const counting = countingFiles(store.files)
    const error = await makeDerivatives(await photoJpeg(200, 100), {
      files: counting.files,
      name: 'huge.jpg',
      basePath: 'business-images/huge',
      maxBytes: 1000,
    }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(BadImageError)
    expect((error as BadImageError).code).toBe('too-large')
    expect((error as BadImageError).message).toMatch(/^huge\.jpg is [\d.]+ MB, over the 0\.0 MB limit/)
    expect(counting.present.size).toBe(0)
  })

  test('refuses an HTML page served as image/jpeg, naming the URL', async () => {
    const { error, present } = await refusal(htmlPage, 'https://example.com/photos/storefront.jpg')
    expect(error.code).toBe('not-an-image')
    expect(error.message).toBe(
      'https://example.com/photos/storefront.jpg is an HTML page, not a photo: use a JPEG, PNG, WebP, GIF or AVIF file',
    )
    expect(present.size).toBe(0)
  })

  test('refuses a text file named .jpg', async () => {
    const { error } = await refusal(textFile, 'menu.jpg')
    expect(error.code).toBe('not-an-image')
    expect(error.message).toContain('menu.jpg is a text file, not a photo')
  })

  test('refuses a corrupt JPEG (cut short)', async () => {
    const whole = await photoJpeg(800, 600)
    const { error, present } = await refusal(whole.subarray(0, Math.floor(whole.length / 2)), 'broken.jpg')
    expect(error.code).toBe('corrupt')
    expect(error.message).toMatch(/^broken\.jpg is a damaged JPG file: /)
    expect(present.size).toBe(0)
  })

  test('refuses a JPEG whose header is garbage', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(400, 0x41)])
    const { error } = await refusal(bytes, 'garbage.jpg')
    expect(error.code).toBe('corrupt')
  })

  test('refuses a decompression bomb (30000×30000 pixels in a small PNG) before decoding it', async () => {
    const bomb = pixelBombPng(30_000, 30_000)
    expect(bomb.byteLength).toBeLessThan(200_000)
    const { error, present } = await refusal(bomb, 'https://example.com/bomb.png')
    expect(error.code).toBe('too-many-pixels')
    expect(error.message).toContain(
      'https://example.com/bomb.png is 30000×30000 pixels, over the limit of 40 megapixels',
    )
    expect(present.size).toBe(0)
  })

  test('refuses an SVG as a photo, script or not', async () => {
    const { error } = await refusal(svgWithScript, 'https://example.com/hero.svg')
    expect(error.code).toBe('svg-photo')
    expect(error.message).toContain('https://example.com/hero.svg is an SVG drawing, not a photo')
  })

  test('refuses a HEIC photo with a hint', async () => {
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(64)])
    const { error } = await refusal(heic, 'IMG_1234.HEIC')
    expect(error.message).toContain('IMG_1234.HEIC is a HEIC photo')
  })

  test('removes every file it wrote when the bucket fails part-way', async () => {
    const counting = countingFiles(store.files, 5)
    const error = await makeDerivatives(await photoJpeg(1000, 700), {
      files: counting.files,
      name: 'storefront.jpg',
      basePath: 'business-images/half-written',
    }).catch((caught: unknown) => caught)
    expect((error as Error).message).toContain('quota exceeded')
    expect(counting.present.size).toBe(0)
    for (const width of [320, 640, 720, 960, 1000]) {
      expect(await store.files.get(`business-images/half-written-${width}.avif`)).toBeNull()
      expect(await store.files.get(`business-images/half-written-${width}.webp`)).toBeNull()
    }
  })
})
