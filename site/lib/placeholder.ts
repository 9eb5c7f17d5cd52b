import { rgbaToDataURL, thumbHashToAverageRGBA, thumbHashToRGBA } from 'thumbhash'

// A processed photo carries a ThumbHash (base64, ~25 bytes). Pages turn it into CSS at build time,
// so what a visitor sees until the photo arrives costs no script.

const toHex = (channel: number) =>
  Math.round(channel * 255)
    .toString(16)
    .padStart(2, '0')

function decode(thumbHash: string): Uint8Array | null {
  let bytes: Uint8Array
  try {
    bytes = Uint8Array.from(atob(thumbHash), (c) => c.charCodeAt(0))
  } catch {
    return null
  }
  // A ThumbHash has a 5-byte header (6 with alpha) and at least a few bytes of coefficients.
  return bytes.byteLength >= 6 ? bytes : null
}

/**
 * Gives the average colour of a ThumbHash as a CSS hex colour (#rrggbb), or null for a missing or
 * broken one. A photo with transparency gets its colour over white, the colour of the cards.
 */
export function placeholderColor(thumbHash: string | null | undefined): string | null {
  const bytes = thumbHash ? decode(thumbHash) : null
  if (!bytes) return null
  const { r, g, b, a } = thumbHashToAverageRGBA(bytes)
  const overWhite = (channel: number) => channel * a + (1 - a)
  return `#${toHex(overWhite(r))}${toHex(overWhite(g))}${toHex(overWhite(b))}`
}

/**
 * Draws a ThumbHash as a blurred preview: a PNG data URL a few pixels wide (about 300 bytes; the
 * browser's smooth upscaling does the blurring), or null for a missing or broken one. ThumbHash's
 * own thumbHashToDataURL draws it 32 pixels wide, uncompressed: 4 KB of HTML on every business page.
 */
export function placeholderDataUrl(thumbHash: string | null | undefined, width = 8): string | null {
  const bytes = thumbHash ? decode(thumbHash) : null
  if (!bytes) return null
  const full = thumbHashToRGBA(bytes)
  const w = Math.min(width, full.w)
  const h = Math.max(1, Math.round((full.h * w) / full.w))
  const rgba = new Uint8Array(w * h * 4)
  // Each pixel is the average of the block of decoded pixels it covers.
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [x0, x1] = [Math.floor((x * full.w) / w), Math.floor(((x + 1) * full.w) / w)]
      const [y0, y1] = [Math.floor((y * full.h) / h), Math.floor(((y + 1) * full.h) / h)]
      const sum = [0, 0, 0, 0]
      for (let sy = y0; sy < y1; sy++)
        for (let sx = x0; sx < x1; sx++) for (let c = 0; c < 4; c++) sum[c]! += full.rgba[(sy * full.w + sx) * 4 + c]!
      const count = (x1 - x0) * (y1 - y0)
      for (let c = 0; c < 4; c++) rgba[(y * w + x) * 4 + c] = Math.round(sum[c]! / count)
    }
  }
  return rgbaToDataURL(w, h, rgba)
}
