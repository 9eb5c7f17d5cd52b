// The site gives every <img> its width and height so the page does not jump while pictures load
// (DESIGN.md, "The site"). The sizes a page declares are often wrong or missing, so a stored image
// records the size its own bytes say: read from the format's header, no decoding, no native code.

/** A picture's size in pixels. */
export interface ImageSize {
  width: number
  height: number
}

function u16be(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 8) | bytes[at + 1]!
}

function u16le(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8)
}

function u24le(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)
}

function u32be(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) >>> 0) + ((bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!)
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end))
}

function sized(width: number, height: number): ImageSize | undefined {
  return Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0 ? { width, height } : undefined
}

function pngSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 24 || ascii(bytes, 12, 16) !== 'IHDR') return undefined
  return sized(u32be(bytes, 16), u32be(bytes, 20))
}

function gifSize(bytes: Uint8Array): ImageSize | undefined {
  return bytes.length < 10 ? undefined : sized(u16le(bytes, 6), u16le(bytes, 8))
}

// Start-of-frame markers carry the size; C4 (Huffman tables), C8 (reserved) and CC (arithmetic coding) do not.
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf])

function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  let at = 2
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined
    const marker = bytes[at + 1]!
    // Fill bytes, and markers that stand alone without a length.
    if (marker === 0xff) {
      at += 1
      continue
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2
      continue
    }
    if (SOF_MARKERS.has(marker)) return sized(u16be(bytes, at + 7), u16be(bytes, at + 5))
    if (marker === 0xd9 || marker === 0xda) return undefined
    at += 2 + u16be(bytes, at + 2)
  }
  return undefined
}

function webpSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 30) return undefined
  const chunk = ascii(bytes, 12, 16)
  if (chunk === 'VP8 ') return sized(u16le(bytes, 26) & 0x3fff, u16le(bytes, 28) & 0x3fff)
  if (chunk === 'VP8L') {
    const b1 = bytes[22]!
    const width = 1 + (((b1 & 0x3f) << 8) | bytes[21]!)
    const height = 1 + (((bytes[24]! & 0x0f) << 10) | (bytes[23]! << 2) | ((b1 & 0xc0) >> 6))
    return sized(width, height)
  }
  if (chunk === 'VP8X') return sized(1 + u24le(bytes, 24), 1 + u24le(bytes, 27))
  return undefined
}

function avifSize(bytes: Uint8Array): ImageSize | undefined {
  // The image spatial extents box ('ispe'): version and flags, then width and height.
  const limit = Math.min(bytes.length - 16, 64 * 1024)
  for (let at = 4; at < limit; at++) {
    if (bytes[at] === 0x69 && ascii(bytes, at, at + 4) === 'ispe')
      return sized(u32be(bytes, at + 8), u32be(bytes, at + 12))
  }
  return undefined
}

function svgLength(value: string | undefined): number | undefined {
  // Only absolute pixel lengths say a size; "100%" or "2em" depend on where the SVG is shown.
  const match = value === undefined ? null : /^\s*([\d.]+)\s*(px)?\s*$/.exec(value)
  return match ? Number(match[1]) : undefined
}

function svgSize(bytes: Uint8Array): ImageSize | undefined {
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 4096))
  const tag = /<svg\b[^>]*>/i.exec(head)?.[0]
  if (!tag) return undefined
  const attribute = (name: string) => new RegExp(`\\s${name}\\s*=\\s*(["'])(.*?)\\1`, 'i').exec(tag)?.[2]
  const width = svgLength(attribute('width'))
  const height = svgLength(attribute('height'))
  if (width !== undefined && height !== undefined) return sized(Math.round(width), Math.round(height))
  const box = attribute('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number)
  if (box?.length === 4) return sized(Math.round(box[2]!), Math.round(box[3]!))
  return undefined
}

/** Read a picture's pixel size from its header (PNG, JPEG, GIF, WebP, AVIF, SVG), or undefined when it does not say. */
export function imageSize(bytes: Uint8Array, contentType: string): ImageSize | undefined {
  switch (contentType) {
    case 'image/png':
      return pngSize(bytes)
    case 'image/jpeg':
      return jpegSize(bytes)
    case 'image/gif':
      return gifSize(bytes)
    case 'image/webp':
      return webpSize(bytes)
    case 'image/avif':
      return avifSize(bytes)
    case 'image/svg+xml':
      return svgSize(bytes)
    default:
      return undefined
  }
}
