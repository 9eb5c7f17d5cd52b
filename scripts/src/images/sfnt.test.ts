import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { fontMetrics, woffToSfnt } from './sfnt.ts'

const files = path.join(path.dirname(createRequire(import.meta.url).resolve('@fontsource/inter/package.json')), 'files')
const woff = readFileSync(path.join(files, 'inter-latin-800-normal.woff'))

describe('woffToSfnt', () => {
  test("unpacks Inter's WOFF into a TrueType font with every table, each where its record says", () => {
    const sfnt = woffToSfnt(woff)
    expect(sfnt.readUInt32BE(0)).toBe(woff.readUInt32BE(4))
    const count = woff.readUInt16BE(12)
    expect(sfnt.readUInt16BE(4)).toBe(count)
    // The WOFF header records the size of the font it wraps.
    expect(sfnt.length).toBe(woff.readUInt32BE(16))
    for (let i = 0; i < count; i++) {
      const record = 12 + i * 16
      const offset = sfnt.readUInt32BE(record + 8)
      expect(offset % 4).toBe(0)
      expect(offset + sfnt.readUInt32BE(record + 12)).toBeLessThanOrEqual(sfnt.length)
    }
    expect(sfnt.subarray(12, 16).toString('latin1')).toBe(woff.subarray(44, 48).toString('latin1'))
  })

  test('refuses a WOFF2 file or anything else with what to pass instead', () => {
    const woff2 = readFileSync(path.join(files, 'inter-latin-800-normal.woff2'))
    expect(() => woffToSfnt(woff2)).toThrow(
      'Not a WOFF font: the file does not start with "wOFF". Pass a .woff file (not .woff2).',
    )
    expect(() => woffToSfnt(Buffer.from('hello'))).toThrow('Not a WOFF font')
  })

  test('refuses a WOFF whose table does not unpack to its recorded size', () => {
    const broken = Buffer.from(woff)
    broken.writeUInt32BE(broken.readUInt32BE(44 + 12) + 1, 44 + 12)
    expect(() => woffToSfnt(broken)).toThrow(/^Broken WOFF font: table .{4} unpacks to \d+ bytes, not \d+\.$/)
  })
})

describe('fontMetrics', () => {
  const metrics = fontMetrics(woffToSfnt(woff))

  test("reads Inter's advance widths: W is wider than i, and a space is narrower than an M", () => {
    expect(metrics.unitsPerEm).toBeGreaterThan(0)
    const advance = (char: string) => metrics.advance(char.codePointAt(0)!)!
    expect(advance('W')).toBeGreaterThan(advance('i'))
    expect(advance(' ')).toBeLessThan(advance('M'))
    expect(advance('é')).toBe(advance('e'))
  })

  test('has no advance for characters outside the subset', () => {
    expect(metrics.advance('🍕'.codePointAt(0)!)).toBeUndefined()
    expect(metrics.advance('中'.codePointAt(0)!)).toBeUndefined()
  })
})
