import { inflateSync } from 'node:zlib'

// The two things the store image needs from a font file that no installed library gives it:
// @fontsource ships Inter as WOFF and WOFF2 only, while resvg loads TrueType/OpenType files, so a
// WOFF is unpacked back into the font it wraps (WOFF 1.0 is that font's tables, each
// zlib-compressed); and a name is wrapped on the sign before resvg draws it, which needs the
// glyphs' advance widths (the cmap and hmtx tables).

/** Unpacks a WOFF 1.0 file into the TrueType or OpenType font it wraps, table for table. */
export function woffToSfnt(woff: Uint8Array): Buffer {
  const input = Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength)
  if (input.length < 44 || input.toString('latin1', 0, 4) !== 'wOFF') {
    throw new Error('Not a WOFF font: the file does not start with "wOFF". Pass a .woff file (not .woff2).')
  }
  const flavor = input.readUInt32BE(4)
  const count = input.readUInt16BE(12)
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 44 + i * 20
    const offset = input.readUInt32BE(at + 4)
    const compressed = input.readUInt32BE(at + 8)
    const length = input.readUInt32BE(at + 12)
    const stored = input.subarray(offset, offset + compressed)
    const data = compressed < length ? inflateSync(stored) : stored
    if (data.length !== length) {
      throw new Error(
        `Broken WOFF font: table ${input.toString('latin1', at, at + 4)} unpacks to ${data.length} bytes, not ${length}.`,
      )
    }
    return { tag: input.subarray(at, at + 4), checksum: input.readUInt32BE(at + 16), data }
  })
  // The sfnt header, then one 16-byte record per table, then the tables, each padded to 4 bytes.
  const power = 2 ** Math.floor(Math.log2(count))
  const header = Buffer.alloc(12 + count * 16)
  header.writeUInt32BE(flavor, 0)
  header.writeUInt16BE(count, 4)
  header.writeUInt16BE(power * 16, 6)
  header.writeUInt16BE(Math.log2(power), 8)
  header.writeUInt16BE(count * 16 - power * 16, 10)
  const parts: Buffer[] = [header]
  let offset = header.length
  tables.forEach((table, i) => {
    const record = 12 + i * 16
    table.tag.copy(header, record)
    header.writeUInt32BE(table.checksum, record + 4)
    header.writeUInt32BE(offset, record + 8)
    header.writeUInt32BE(table.data.length, record + 12)
    const padded = (table.data.length + 3) & ~3
    parts.push(table.data, Buffer.alloc(padded - table.data.length))
    offset += padded
  })
  return Buffer.concat(parts)
}

/** The horizontal metrics of a font: which characters it has and how far each advances the pen. */
export interface FontMetrics {
  unitsPerEm: number
  /** The advance width of a character in font units, or undefined when the font has no glyph for it. */
  advance(codePoint: number): number | undefined
}

/** Reads the advance widths of a TrueType or OpenType font from its cmap, hhea and hmtx tables. */
export function fontMetrics(sfnt: Buffer): FontMetrics {
  const tables = new Map<string, number>()
  for (let i = 0, count = sfnt.readUInt16BE(4); i < count; i++) {
    const record = 12 + i * 16
    tables.set(sfnt.toString('latin1', record, record + 4), sfnt.readUInt32BE(record + 8))
  }
  const table = (tag: string) => {
    const at = tables.get(tag)
    if (at === undefined) throw new Error(`The font has no ${tag} table, which the store image needs to measure text.`)
    return at
  }
  const unitsPerEm = sfnt.readUInt16BE(table('head') + 18)
  const metricsCount = sfnt.readUInt16BE(table('hhea') + 34)
  const hmtx = table('hmtx')
  const glyphOf = cmapLookup(sfnt, table('cmap'))
  return {
    unitsPerEm,
    advance(codePoint) {
      const glyph = glyphOf(codePoint)
      if (!glyph) return undefined
      // Glyphs past the last full metric share its advance (monospaced tails).
      return sfnt.readUInt16BE(hmtx + Math.min(glyph, metricsCount - 1) * 4)
    },
  }
}

/** The character-to-glyph lookup of a font's Unicode cmap subtable (format 12 or 4); 0 means no glyph. */
function cmapLookup(sfnt: Buffer, cmap: number): (codePoint: number) => number {
  const subtables = Array.from({ length: sfnt.readUInt16BE(cmap + 2) }, (_, i) => {
    const at = cmap + 4 + i * 8
    const offset = cmap + sfnt.readUInt32BE(at + 4)
    return {
      platform: sfnt.readUInt16BE(at),
      encoding: sfnt.readUInt16BE(at + 2),
      offset,
      format: sfnt.readUInt16BE(offset),
    }
  })
  const unicode = subtables.filter(
    (s) => s.platform === 0 || (s.platform === 3 && (s.encoding === 1 || s.encoding === 10)),
  )
  const full = unicode.find((s) => s.format === 12)
  if (full) {
    const groups = sfnt.readUInt32BE(full.offset + 12)
    return (codePoint) => {
      for (let i = 0; i < groups; i++) {
        const at = full.offset + 16 + i * 12
        const start = sfnt.readUInt32BE(at)
        if (codePoint >= start && codePoint <= sfnt.readUInt32BE(at + 4))
          return sfnt.readUInt32BE(at + 8) + codePoint - start
      }
      return 0
    }
  }
  const basic = unicode.find((s) => s.format === 4)
  if (!basic) throw new Error('The font has no Unicode cmap subtable (format 4 or 12) to find its characters in.')
  const segments = sfnt.readUInt16BE(basic.offset + 6) / 2
  const ends = basic.offset + 14
  const starts = ends + segments * 2 + 2
  const deltas = starts + segments * 2
  const rangeOffsets = deltas + segments * 2
  return (codePoint) => {
    if (codePoint > 0xffff) return 0
    for (let i = 0; i < segments; i++) {
      if (codePoint > sfnt.readUInt16BE(ends + i * 2)) continue
      const start = sfnt.readUInt16BE(starts + i * 2)
      if (codePoint < start) return 0
      const delta = sfnt.readUInt16BE(deltas + i * 2)
      const rangeOffset = sfnt.readUInt16BE(rangeOffsets + i * 2)
      if (rangeOffset === 0) return (codePoint + delta) & 0xffff
      const glyph = sfnt.readUInt16BE(rangeOffsets + i * 2 + rangeOffset + (codePoint - start) * 2)
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff
    }
    return 0
  }
}
