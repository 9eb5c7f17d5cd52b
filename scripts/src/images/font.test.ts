import { describe, expect, test } from 'vitest'
import { drawText, fontCharacters, measureText, toSignText, wrapText, type RectTarget } from './font.ts'
import { hexColor } from './raster.ts'

describe('toSignText', () => {
  test('uppercases and removes accents', () => {
    expect(toSignText('Café Olé')).toBe('CAFE OLE')
  })

  test('simplifies typographic quotes and dashes and drops what the font lacks', () => {
    expect(toSignText('Joe’s — “Best” 🍕 Pizza')).toBe(`JOE'S - "BEST" PIZZA`)
  })

  test('collapses spaces', () => {
    expect(toSignText('  Big \t Rock\nCoffee ')).toBe('BIG ROCK COFFEE')
  })
})

describe('the font', () => {
  test('has every letter, digit and the punctuation of business names', () => {
    for (const char of "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 &'-.,!?:/#()+") expect(fontCharacters).toContain(char)
  })

  test('measures letters at 5 units plus 1 unit of spacing', () => {
    expect(measureText('AB', 10)).toBe((5 + 1 + 5) * 10)
    expect(measureText('', 10)).toBe(0)
    expect(measureText("A'", 1)).toBeLessThan(measureText('AA', 1))
  })

  test('wraps at spaces within the width, or gives up when one word is too wide', () => {
    expect(wrapText('BIG ROCK COFFEE', measureText('BIG ROCK', 4), 4)).toEqual(['BIG ROCK', 'COFFEE'])
    expect(wrapText('MAGNOLIA', measureText('MAGNOLI', 4), 4)).toBeNull()
  })

  test('draws each glyph as blocks inside its measured box', () => {
    const rects: Array<[number, number, number, number]> = []
    const target: RectTarget = { fillRect: (x, y, w, h) => rects.push([x, y, w, h]) }
    drawText(target, 'HI', 100, 50, 3, hexColor('#000'))
    expect(rects.length).toBeGreaterThan(0)
    for (const [x, y, w, h] of rects) {
      expect(x).toBeGreaterThanOrEqual(100)
      expect(x + w).toBeLessThanOrEqual(100 + measureText('HI', 3))
      expect(y).toBeGreaterThanOrEqual(50)
      expect(y + h).toBeLessThanOrEqual(50 + 7 * 3)
    }
  })
})
