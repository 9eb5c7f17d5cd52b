import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'

// Pictures for the image pipeline's tests, made here rather than copied from real photos: each is
// small, says in its name what is special about it, and carries only the metadata a test put there.

/** A photo-like JPEG: a gradient with some detail, so encoders have something to compress. */
export async function photoJpeg(width: number, height: number, options: { quality?: number } = {}): Promise<Buffer> {
  return sharp(await gradient(width, height))
    .jpeg({ quality: options.quality ?? 90 })
    .toBuffer()
}

/** A JPEG whose EXIF says to rotate it a quarter turn (orientation 6) and that carries a GPS position. */
export async function jpegWithGpsAndOrientation(width: number, height: number): Promise<Buffer> {
  return sharp(await gradient(width, height))
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'Roland Test Camera', Copyright: 'fixture' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '34/1 53/1 12/1', GPSLongitudeRef: 'W', GPSLongitude: '92/1 30/1 0/1' },
    })
    .toBuffer()
}

/** A CMYK JPEG, as print shops and some logo packs deliver them. */
export async function cmykJpeg(width: number, height: number): Promise<Buffer> {
  return sharp(await gradient(width, height))
    .toColourspace('cmyk')
    .jpeg()
    .toBuffer()
}

/** A 16-bit-per-channel PNG. */
export async function sixteenBitPng(width: number, height: number): Promise<Buffer> {
  return sharp(await gradient(width, height))
    .toColourspace('rgb16')
    .png()
    .toBuffer()
}

/** A one-channel grayscale PNG. */
export async function grayscalePng(width: number, height: number): Promise<Buffer> {
  return sharp(await gradient(width, height))
    .toColourspace('b-w')
    .png()
    .toBuffer()
}

/** A PNG with a transparent background around an opaque square. */
export async function transparentPng(width: number, height: number): Promise<Buffer> {
  const square = await sharp({
    create: { width: Math.round(width / 2), height: Math.round(height / 2), channels: 4, background: '#2563ebff' },
  })
    .png()
    .toBuffer()
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: square, gravity: 'centre' }])
    .png()
    .toBuffer()
}

/** An animated GIF of three frames: magenta, yellow, cyan. */
export async function animatedGif(width: number, height: number): Promise<Buffer> {
  const frame = width * height * 4
  const raw = Buffer.alloc(frame * 3, 255)
  for (let f = 0; f < 3; f++) for (let i = 0; i < frame; i += 4) raw[f * frame + i + ((f + 1) % 3)] = 0
  return sharp(raw, { raw: { width, height: height * 3, channels: 4, pageHeight: height } })
    .gif({ delay: [200, 200, 200] })
    .toBuffer()
}

/**
 * A decompression bomb: a valid PNG of width×height black pixels, one bit each, whose zeros deflate to
 * a few hundred kilobytes (30000×30000 is 900 megapixels in about 110 KB).
 */
export function pixelBombPng(width: number, height: number): Buffer {
  const rowBytes = 1 + Math.ceil(width / 8)
  const idat = deflateSync(Buffer.alloc(rowBytes * height), { level: 9 })
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 1 // bit depth
  ihdr[9] = 0 // grayscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** An SVG with a script, as a hostile logo would be. */
export const svgWithScript = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><script>alert(1)</script>' +
    '<rect width="200" height="100" fill="#c84"/></svg>',
)

/** An HTML error page, as a server answers for a missing picture while claiming image/jpeg. */
export const htmlPage = Buffer.from(
  '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>Gone</body></html>',
)

/** A text file, as someone renamed notes.txt to photo.jpg. */
export const textFile = Buffer.from('Opening hours: Monday to Friday, 7 to 3.\nCall us at 501-555-0100.\n')

async function gradient(width: number, height: number): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3
      data[i] = (x * 255) / width
      data[i + 1] = (y * 255) / height
      data[i + 2] = ((x ^ y) & 0x3f) + 96
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer()
}
