import { PNG } from 'pngjs'
import { describe, expect, test } from 'vitest'
import { fitSignName, renderStoreImage, seededRandom, signTextBox, storeImageSize } from './render-store.ts'
import { measureText, glyphHeight } from './font.ts'

const coffee = {
  name: 'Big Rock Coffee',
  slug: 'big-rock-coffee',
  style: { category: 'Dining & Refreshments', color: '#b45309', iconName: 'utensils' },
}

function decode(bytes: Uint8Array): PNG {
  return PNG.sync.read(Buffer.from(bytes))
}

function pixel(png: PNG, x: number, y: number): [number, number, number] {
  const i = (y * png.width + x) * 4
  return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!]
}

describe('renderStoreImage', () => {
  test('draws a valid 1024×1024 PNG', () => {
    const bytes = renderStoreImage(coffee)
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const png = decode(bytes)
    expect(png.width).toBe(storeImageSize)
    expect(png.height).toBe(1024)
  })

  test('gives the same bytes for the same business', () => {
    expect(Buffer.from(renderStoreImage(coffee)).equals(Buffer.from(renderStoreImage({ ...coffee })))).toBe(true)
  })

  test('gives different bytes for another business of the same category', () => {
    const other = renderStoreImage({ ...coffee, name: 'Scoops on 300', slug: 'scoops-on-300' })
    expect(Buffer.from(other).equals(Buffer.from(renderStoreImage(coffee)))).toBe(false)
  })

  test('paints the awning in the category colour', () => {
    // The first awning stripe, just below its top edge and clear of the shade band.
    const png = decode(renderStoreImage(coffee))
    expect(pixel(png, 140, 660)).toEqual([0xb4, 0x53, 0x09])
    const shopping = decode(renderStoreImage({ ...coffee, style: { ...coffee.style, color: '#047857' } }))
    expect(pixel(shopping, 140, 660)).toEqual([0x04, 0x78, 0x57])
  })

  test('writes the name in the sign ink on the dark sign board', () => {
    const png = decode(renderStoreImage(coffee))
    const board = pixel(png, 200, 560)
    expect(board).toEqual([0x1f, 0x2a, 0x2e])
    // Somewhere across the sign's text rows there is ink.
    let ink = 0
    for (let y = 360; y < 540; y += 2) {
      for (let x = 180; x < 844; x += 2) {
        const [r, g, b] = pixel(png, x, y)
        if (r === 0xfd && g === 0xf3 && b === 0xd8) ink++
      }
    }
    expect(ink).toBeGreaterThan(500)
  })

  test('draws names it has no glyphs for without failing', () => {
    for (const name of ['Café Olé — 24/7', '🍕🍕🍕', '', 'A'.repeat(300)]) {
      expect(decode(renderStoreImage({ ...coffee, name })).width).toBe(1024)
    }
  })
})

describe('fitSignName', () => {
  test('puts a short name on one line in large letters', () => {
    const layout = fitSignName('Ace Insurance')
    expect(layout.lines).toEqual(['ACE INSURANCE'])
    expect(layout.scale).toBeGreaterThanOrEqual(8)
  })

  test('wraps a long name into balanced lines that fit the sign', () => {
    const layout = fitSignName('Pinnacle Mountain Country Store & Bait')
    expect(layout.lines.length).toBeGreaterThan(1)
    expect(layout.lines.join(' ')).toBe('PINNACLE MOUNTAIN COUNTRY STORE & BAIT')
    for (const line of layout.lines) expect(measureText(line, layout.scale)).toBeLessThanOrEqual(signTextBox.width)
    const height = layout.lines.length * glyphHeight * layout.scale + (layout.lines.length - 1) * 2 * layout.scale
    expect(height).toBeLessThanOrEqual(signTextBox.height)
  })

  test('cuts a name too long for three lines with an ellipsis', () => {
    const layout = fitSignName('Word '.repeat(60))
    expect(layout.lines).toHaveLength(3)
    expect(layout.lines[2]).toMatch(/\.\.\.$/)
    for (const line of layout.lines) expect(measureText(line, layout.scale)).toBeLessThanOrEqual(signTextBox.width)
  })

  test('breaks a single word longer than the sign', () => {
    const layout = fitSignName('X'.repeat(50))
    for (const line of layout.lines) expect(measureText(line, layout.scale)).toBeLessThanOrEqual(signTextBox.width)
  })

  test('writes LOCAL BUSINESS when nothing of the name can be drawn', () => {
    expect(fitSignName('🍕').lines).toEqual(['LOCAL BUSINESS'])
  })
})

describe('seededRandom', () => {
  test('repeats its sequence for the same seed and differs for another', () => {
    const a = seededRandom('big-rock-coffee')
    const b = seededRandom('big-rock-coffee')
    const c = seededRandom('scoops-on-300')
    const first = [a(), a(), a()]
    expect([b(), b(), b()]).toEqual(first)
    expect([c(), c(), c()]).not.toEqual(first)
    expect(first.every((n) => n >= 0 && n < 1)).toBe(true)
  })
})
