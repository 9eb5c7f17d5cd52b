import { readFile } from 'node:fs/promises'
import { describe, expect, test } from 'vitest'
import { FIXTURE_SITES } from '../../test/crawl-fixture-server.ts'
import { imageSize } from './image-size.ts'

const fixture = async (path: string) => new Uint8Array(await readFile(`${FIXTURE_SITES}${path}`))
const encode = (text: string) => new TextEncoder().encode(text)

/** The first bytes of a WebP file: RIFF header, one chunk header, and the chunk's payload from byte 20. */
function webp(chunk: string, payload: number[]): Uint8Array {
  const bytes = new Uint8Array(40)
  bytes.set(encode('RIFF'), 0)
  bytes.set(encode('WEBP'), 8)
  bytes.set(encode(chunk), 12)
  bytes.set(payload, 20)
  return bytes
}

describe('imageSize', () => {
  test('reads the size of a JPEG from its start-of-frame marker', async () => {
    expect(imageSize(await fixture('onepage-smokehouse/img/smoker-at-dawn.jpg'), 'image/jpeg')).toEqual({
      width: 16,
      height: 9,
    })
  })

  test('reads the size of a PNG from its header chunk', async () => {
    const logo = await fixture('wordpress-bakery/wp-content/uploads/2024/01/main-street-bakery-logo.png')
    expect(imageSize(logo, 'image/png')).toEqual({ width: 24, height: 10 })
  })

  test('reads the size of a GIF from its screen descriptor', async () => {
    expect(imageSize(await fixture('favicon-only/images/spacer.gif'), 'image/gif')).toEqual({ width: 1, height: 1 })
  })

  test('reads the size of lossy, lossless and extended WebP files', () => {
    // VP8: frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
    const lossy = webp('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 300 & 0xff, 300 >> 8, 200 & 0xff, 200 >> 8])
    expect(imageSize(lossy, 'image/webp')).toEqual({ width: 300, height: 200 })
    // VP8L: signature 0x2f, then width-1 and height-1 in 14 bits each, little-endian.
    const bits = 299 | (199 << 14)
    const lossless = webp('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >> 24) & 0xff])
    expect(imageSize(lossless, 'image/webp')).toEqual({ width: 300, height: 200 })
    // VP8X: flags and reserved bytes, then canvas width-1 and height-1 in 24 bits each.
    const extended = webp('VP8X', [0, 0, 0, 0, 1279 & 0xff, 1279 >> 8, 0, 719 & 0xff, 719 >> 8, 0])
    expect(imageSize(extended, 'image/webp')).toEqual({ width: 1280, height: 720 })
  })

  test('reads the size of an AVIF from its spatial extents box', () => {
    const bytes = new Uint8Array(64)
    bytes.set(encode('ftypavif'), 4)
    bytes.set(encode('ispe'), 30)
    new DataView(bytes.buffer).setUint32(38, 1600)
    new DataView(bytes.buffer).setUint32(42, 900)
    expect(imageSize(bytes, 'image/avif')).toEqual({ width: 1600, height: 900 })
  })

  test('reads an SVG size from its width and height, else from its viewBox', () => {
    expect(imageSize(encode('<svg width="160" height="40px"></svg>'), 'image/svg+xml')).toEqual({
      width: 160,
      height: 40,
    })
    expect(imageSize(encode('<svg width="100%" viewBox="0 0 320 80"></svg>'), 'image/svg+xml')).toEqual({
      width: 320,
      height: 80,
    })
  })

  test('says nothing when the header does not tell', () => {
    expect(imageSize(encode('<svg width="2em"></svg>'), 'image/svg+xml')).toBeUndefined()
    expect(imageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), 'image/jpeg')).toBeUndefined()
    expect(imageSize(new Uint8Array(8), 'image/x-icon')).toBeUndefined()
  })
})
