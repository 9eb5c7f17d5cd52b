import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp, { type Sharp } from 'sharp'
import { rgbaToThumbHash } from 'thumbhash'
import type { ImageVariant } from '@roland/scripts/catalog/types'
import { derivativeWidths } from '@roland/scripts/images/derivatives'

// Photos for the site's tests as the ingest pipeline leaves them (supabase/migrations/*_image_variants.sql):
// an original, and derivatives in the pipeline's widths (derivativeWidths), in AVIF, WebP and JPEG
// (PNG with alpha), with a ThumbHash; only the encoders' efforts are lower, to make them quickly.
// They are real files, so Chromium really chooses among them and decodes them.
// Encoding them takes seconds on a busy machine, and every fixture catalog needs them (the global
// setup's, and those of tests that build a site of their own): makePhoto keeps them in a folder of
// the system's temporary directory, named after the photo and this file's code.

type Rgb = [number, number, number]

/** A synthetic photo: a sky-to-ground gradient with a few shapes (and grain, for measurements). */
export interface FixturePhoto {
  name: string
  width: number
  height: number
  sky: Rgb
  ground: Rgb
  /** A logo-like picture on a transparent background, whose fallback is PNG. */
  alpha?: boolean
  /** Camera-like grain, so it weighs what a real photo does (slow to draw and encode: for measurements). */
  grain?: boolean
}

const hex = ([r, g, b]: Rgb) => `rgb(${r},${g},${b})`

/** Draws the original of a fixture photo: JPEG, or PNG with transparency. */
export async function drawPhoto(photo: FixturePhoto): Promise<Uint8Array> {
  const { width, height } = photo
  const svg = photo.alpha
    ? `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
         <circle cx="${width / 2}" cy="${height / 2}" r="${width * 0.42}" fill="${hex(photo.sky)}"/>
         <rect x="${width * 0.3}" y="${height * 0.35}" width="${width * 0.4}" height="${height * 0.3}" rx="${width * 0.05}" fill="${hex(photo.ground)}"/>
       </svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
         <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
           <stop offset="0" stop-color="${hex(photo.sky)}"/><stop offset="1" stop-color="${hex(photo.ground)}"/>
         </linearGradient></defs>
         <rect width="100%" height="100%" fill="url(#g)"/>
         <ellipse cx="${width * 0.3}" cy="${height * 0.75}" rx="${width * 0.4}" ry="${height * 0.2}" fill="${hex(photo.ground)}" opacity="0.8"/>
         <rect x="${width * 0.55}" y="${height * 0.4}" width="${width * 0.25}" height="${height * 0.35}" fill="${hex(photo.sky)}" opacity="0.7"/>
         <circle cx="${width * 0.8}" cy="${height * 0.2}" r="${height * 0.08}" fill="#fff3c4"/>
       </svg>`
  const drawn = sharp(Buffer.from(svg))
  if (photo.alpha) return drawn.png().toBuffer()
  if (!photo.grain) return drawn.jpeg({ quality: 92 }).toBuffer()
  const grain = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 24 } },
  })
    .blur(0.6)
    .png()
    .toBuffer()
  return drawn
    .composite([{ input: grain, blend: 'overlay' }])
    .jpeg({ quality: 92 })
    .toBuffer()
}

/** A derivative's bytes and where it goes, before it is stored. */
export interface MadeVariant extends Omit<ImageVariant, 'url'> {
  name: string
  contents: Uint8Array
}

/** What processing a photo gives: its size, its ThumbHash and its derivatives. */
export interface ProcessedPhoto {
  width: number
  height: number
  placeholder: string
  variants: MadeVariant[]
}

const encoders = {
  avif: (image: Sharp) => image.avif({ quality: 50, effort: 0 }),
  webp: (image: Sharp) => image.webp({ quality: 72, effort: 0 }),
  jpeg: (image: Sharp) => image.jpeg({ quality: 75, mozjpeg: true }),
  png: (image: Sharp) => image.png({ compressionLevel: 9 }),
} as const

/** Makes the derivatives and the ThumbHash of an original, as the ingest pipeline would. */
export async function processPhoto(name: string, original: Uint8Array): Promise<ProcessedPhoto> {
  const meta = await sharp(original).metadata()
  const alpha = meta.hasAlpha === true
  const small = await sharp(original)
    .resize(100, 100, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const placeholder = Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString('base64')
  const variants: MadeVariant[] = []
  for (const width of derivativeWidths(meta.width)) {
    for (const format of ['avif', 'webp', alpha ? 'png' : 'jpeg'] as const) {
      const { data, info } = await encoders[format](sharp(original).resize({ width })).toBuffer({
        resolveWithObject: true,
      })
      const extension = format === 'jpeg' ? 'jpg' : format
      variants.push({
        name: `${name}-${width}.${extension}`,
        format,
        width: info.width,
        height: info.height,
        bytes: data.byteLength,
        contents: data,
      })
    }
  }
  return { width: meta.width, height: meta.height, placeholder, variants }
}

/** A fixture photo's original and what processing made of it. */
export interface MadePhoto {
  original: Uint8Array
  processed: ProcessedPhoto
}

const cacheDir = path.join(tmpdir(), 'roland-fixture-photos')

/** Draws and processes a fixture photo, or reads it from the cache when this code made it before. */
export async function makePhoto(photo: FixturePhoto): Promise<MadePhoto> {
  // The cache is kept apart for each version of this code and of the widths it takes from the pipeline.
  const sources = [import.meta.url, new URL('../../scripts/src/images/derivatives.ts', import.meta.url)]
  const code = await Promise.all(sources.map((source) => readFile(new URL(source))))
  const key = createHash('sha256').update(Buffer.concat(code)).update(JSON.stringify(photo)).digest('hex').slice(0, 24)
  const file = path.join(cacheDir, `${key}.json`)
  const cached = await readFile(file, 'utf8').catch(() => null)
  if (cached) {
    const { original, processed } = JSON.parse(cached) as { original: string; processed: ProcessedPhoto }
    const variants = processed.variants.map((v) => ({
      ...v,
      contents: Buffer.from(v.contents as unknown as string, 'base64'),
    }))
    return { original: Buffer.from(original, 'base64'), processed: { ...processed, variants } }
  }
  const original = await drawPhoto(photo)
  const processed = await processPhoto(photo.name, original)
  const json = JSON.stringify({
    original: Buffer.from(original).toString('base64'),
    processed: {
      ...processed,
      variants: processed.variants.map((v) => ({ ...v, contents: Buffer.from(v.contents).toString('base64') })),
    },
  })
  // Written aside, then renamed: a test reading it at the same time sees all of it or nothing.
  await mkdir(cacheDir, { recursive: true })
  const partial = `${file}.${process.pid}.partial`
  await writeFile(partial, json)
  await rename(partial, file)
  return { original, processed }
}
