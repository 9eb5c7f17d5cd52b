import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import {
  fitSignName,
  renderStoreImage,
  seededRandom,
  signBlockHeight,
  signColours,
  signTextBox,
  storeImageSize,
  storeImageSvg,
  toSignText,
} from './render-store.ts'
import { storeFont } from './store-font.ts'

const coffee = {
  name: 'Big Rock Coffee',
  slug: 'big-rock-coffee',
  style: { category: 'Dining & Refreshments', color: '#b45309', iconName: 'utensils' },
  place: 'Roland, Arkansas',
}

/** Decodes a PNG into a function reading the RGB of one pixel. */
async function pixels(bytes: Uint8Array) {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true })
  return {
    width: info.width,
    height: info.height,
    at(x: number, y: number): [number, number, number] {
      const i = (y * info.width + x) * info.channels
      return [data[i]!, data[i + 1]!, data[i + 2]!]
    },
  }
}

// Big Rock Coffee's image, drawn once for the tests that only read it.
let coffeePng: Uint8Array | undefined
const coffeeImage = () => (coffeePng ??= renderStoreImage(coffee))

const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16))

describe('renderStoreImage', () => {
  test('draws a valid 1024×1024 PNG', async () => {
    const bytes = coffeeImage()
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const png = await pixels(bytes)
    expect([png.width, png.height]).toEqual([storeImageSize, 1024])
  })

  test('gives the same bytes for the same business', () => {
    expect(Buffer.from(coffeeImage()).equals(Buffer.from(renderStoreImage({ ...coffee })))).toBe(true)
  })

  test('gives the same bytes in another process, which loads the font afresh', () => {
    // A fresh Node process has no font loaded and no state from this one: the bytes depend on the input alone.
    const script =
      "import { renderStoreImage } from './render-store.ts'; import { createHash } from 'node:crypto';" +
      `process.stdout.write(createHash('sha256').update(renderStoreImage(${JSON.stringify(coffee)})).digest('hex'))`
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
    })
    expect(child.stderr).toBe('')
    expect(child.stdout).toBe(createHash('sha256').update(coffeeImage()).digest('hex'))
  })

  test('gives different bytes for another business of the same category', () => {
    const other = renderStoreImage({ ...coffee, name: 'Scoops on 300', slug: 'scoops-on-300' })
    expect(Buffer.from(other).equals(Buffer.from(coffeeImage()))).toBe(false)
  })

  test('paints the awning in the category colour', async () => {
    // The first awning stripe, just below its top edge and clear of the shade band.
    expect((await pixels(coffeeImage())).at(140, 660)).toEqual(rgb('#b45309'))
    const shopping = await pixels(renderStoreImage({ ...coffee, style: { ...coffee.style, color: '#047857' } }))
    expect(shopping.at(140, 660)).toEqual(rgb('#047857'))
  })

  test('writes the name in the sign ink on the dark sign board', async () => {
    const png = await pixels(coffeeImage())
    expect(png.at(200, 560)).toEqual(rgb(signColours.board))
    // Somewhere across the sign's text rows there is ink.
    let ink = 0
    for (let y = 360; y < 480; y += 2) {
      for (let x = 180; x < 844; x += 2) {
        if (png.at(x, y).join() === rgb(signColours.ink).join()) ink++
      }
    }
    expect(ink).toBeGreaterThan(500)
  })

  test('draws names with characters the font lacks, and empty and very long names, without failing', async () => {
    for (const name of ['Café Olé — 24/7', '🍕🍕🍕', '', 'A'.repeat(300), '中文 Shop']) {
      expect((await pixels(renderStoreImage({ ...coffee, name }))).width).toBe(1024)
    }
  })
})

describe('storeImageSvg', () => {
  test('writes the name as Inter text, escaped, and asks for no other font', () => {
    const svg = storeImageSvg({ ...coffee, name: 'Tom & Jerry\'s <Diner> "24"' })
    const texts = [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((match) => match[1])
    expect(texts).toContain('Tom &#38; Jerry&#39;s')
    expect(texts).toContain('&#60;Diner&#62; &#34;24&#34;')
    expect(texts).toContain('Roland, Arkansas')
    expect([...new Set(svg.match(/font-family="[^"]*"/g))]).toEqual(['font-family="Inter"'])
  })

  test('refuses a category colour that is not a hex colour rather than writing it into the SVG', () => {
    expect(() => storeImageSvg({ ...coffee, style: { ...coffee.style, color: 'red"/><script/>' } })).toThrow(
      'Not a hex colour',
    )
  })
})

describe('toSignText', () => {
  test('keeps accents and typographic punctuation Inter has, drops what it lacks, and collapses spaces', () => {
    expect(toSignText('  Joe’s — “Café”\t🍕 Pizza\n')).toBe('Joe’s — “Café” Pizza')
  })
})

describe('fitSignName', () => {
  const width = (line: string, size: number) => storeFont().width(line, size)

  test('puts a short name on one line in large letters', () => {
    const layout = fitSignName('Ace Insurance')
    expect(layout.lines).toEqual(['Ace Insurance'])
    expect(layout.fontSize).toBeGreaterThanOrEqual(72)
  })

  test('wraps a long name into balanced lines that fit the sign', () => {
    const layout = fitSignName('Pinnacle Mountain Country Store & Bait')
    expect(layout.lines).toEqual(['Pinnacle Mountain', 'Country Store & Bait'])
    for (const line of layout.lines) expect(width(line, layout.fontSize)).toBeLessThanOrEqual(signTextBox.width)
    expect(signBlockHeight(layout.lines.length, layout.fontSize)).toBeLessThanOrEqual(signTextBox.height)
  })

  test('cuts a name too long for three lines with an ellipsis', () => {
    const layout = fitSignName('Word '.repeat(60))
    expect(layout.lines).toHaveLength(3)
    expect(layout.lines[2]).toMatch(/…$/)
    for (const line of layout.lines) expect(width(line, layout.fontSize)).toBeLessThanOrEqual(signTextBox.width)
  })

  test('breaks a single word longer than the sign', () => {
    const layout = fitSignName('W'.repeat(50))
    expect(layout.lines.length).toBeGreaterThan(1)
    for (const line of layout.lines) expect(width(line, layout.fontSize)).toBeLessThanOrEqual(signTextBox.width)
  })

  test('writes Local Business when nothing of the name can be drawn', () => {
    expect(fitSignName('🍕').lines).toEqual(['Local Business'])
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
