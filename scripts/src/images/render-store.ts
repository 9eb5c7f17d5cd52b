import type { CategoryStyle } from './category-style.ts'
import { drawText, glyphHeight, measureText, toSignText, wrapText } from './font.ts'
import { drawIcon, starPoints } from './icons.ts'
import { darken, hexColor, lighten, luminance, mix, Raster, withAlpha, type Color, type Point } from './raster.ts'

// The local provider's picture: a small-town storefront under Pinnacle Mountain, with the
// business name on the sign board, its category's icon on the parapet medallion and its
// category's colour on the awning, and "ROLAND, AR" under the name. Everything that varies
// between two businesses of one category (wall, sun, ridge line, window display, flowers)
// comes from a generator seeded with the slug, so a business always gets the same bytes.

/** The side of the square image, in pixels (SPEC §9: 1024x1024). */
export const storeImageSize = 1024

/** What the renderer needs to know about a business. */
export interface StorefrontInput {
  name: string
  slug: string
  style: CategoryStyle
}

/** A name laid out on the sign: its lines and the pixels per font unit. */
export interface SignLayout {
  lines: string[]
  scale: number
}

/** The sign's text area, in pixels: wide and tall enough for a name and the town line. */
export const signTextBox = { width: 656, height: 140 } as const

const maxNameLines = 3
const maxScale = 11
const minScale = 3

/** Fits a business name on the sign: the largest letters that fit in at most three lines. */
export function fitSignName(name: string, box: { width: number; height: number } = signTextBox): SignLayout {
  const text = toSignText(name) || 'LOCAL BUSINESS'
  for (let scale = maxScale; scale >= minScale; scale--) {
    const greedy = wrapText(text, box.width, scale)
    if (!greedy || greedy.length > maxNameLines) continue
    if (blockHeight(greedy.length, scale) > box.height) continue
    return { lines: balance(text.split(' '), greedy.length, box.width, scale), scale }
  }
  // Too long even in the smallest letters: break long words and end the last line with "...".
  const chunk = Math.max(1, Math.floor((box.width / minScale + 1) / 6))
  const words = text.split(' ').flatMap((word) => word.match(new RegExp(`.{1,${chunk}}`, 'g')) ?? [])
  const lines = wrapText(words.join(' '), box.width, minScale) ?? [text.slice(0, chunk)]
  if (lines.length > maxNameLines) {
    lines.length = maxNameLines
    let last = `${lines[maxNameLines - 1]}...`
    while (measureText(last, minScale) > box.width && last.length > 3) last = `${last.slice(0, -4).trimEnd()}...`
    lines[maxNameLines - 1] = last
  }
  return { lines, scale: minScale }
}

/** The height in pixels of `lines` lines of sign text at a scale. */
function blockHeight(lines: number, scale: number): number {
  return lines * glyphHeight * scale + (lines - 1) * lineGap(scale)
}

function lineGap(scale: number): number {
  return 2 * scale
}

// Among the ways to break the words into `count` lines, the one whose widest line is narrowest:
// "BIG ROCK / COFFEE" rather than a full first line and a lonely last word.
function balance(words: string[], count: number, width: number, scale: number): string[] {
  let best: string[] | null = null
  let bestWidth = Infinity
  const search = (start: number, left: number, lines: string[]) => {
    if (left === 1) {
      const all = [...lines, words.slice(start).join(' ')]
      const widest = Math.max(...all.map((line) => measureText(line, scale)))
      if (widest <= width && widest < bestWidth) {
        best = all
        bestWidth = widest
      }
      return
    }
    for (let end = start + 1; end <= words.length - (left - 1); end++) {
      search(end, left - 1, [...lines, words.slice(start, end).join(' ')])
    }
  }
  search(0, count, [])
  return best ?? [words.join(' ')]
}

/** Makes a deterministic random generator from a text seed (FNV-1a hash into mulberry32). */
export function seededRandom(seed: string): () => number {
  let hash = 2166136261
  for (const char of seed) {
    hash ^= char.codePointAt(0)!
    hash = Math.imul(hash, 16777619)
  }
  let state = hash >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Facade {
  wall: string
  trim: string
  texture: 'brick' | 'siding' | 'plain'
}

const facades: readonly Facade[] = [
  { wall: '#a4553a', trim: '#f1e6d2', texture: 'brick' },
  { wall: '#efe3c8', trim: '#3d4a3e', texture: 'siding' },
  { wall: '#b9c7b0', trim: '#fbf7ef', texture: 'siding' },
  { wall: '#a9bccf', trim: '#fbf7ef', texture: 'siding' },
  { wall: '#e2c9a0', trim: '#5b4636', texture: 'plain' },
  { wall: '#8e4b3a', trim: '#efe6d6', texture: 'brick' },
]

const flowerColours = ['#f472b6', '#facc15', '#f87171', '#c084fc', '#fb923c', '#fde68a']
const displayColours = ['#f59e0b', '#10b981', '#3b82f6', '#ef4444', '#a855f7', '#f97316', '#14b8a6', '#eab308']

const signBoard = hexColor('#1f2a2e')
const signInk = hexColor('#fdf3d8')
const gold = hexColor('#e2b65c')
const shadow = hexColor('#000000')

/** Draws the store image of a business as a 1024×1024 PNG; the same input gives the same bytes. */
export function renderStoreImage(input: StorefrontInput): Uint8Array {
  const random = seededRandom(input.slug)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const raster = new Raster(storeImageSize, storeImageSize, 2)
  const accent = hexColor(input.style.color)
  const facade = pick(facades)
  const wall = hexColor(facade.wall)
  const trim = hexColor(facade.trim)

  drawSky(raster, random)
  drawLandscape(raster, random)
  drawBuilding(raster, wall, trim, facade.texture, accent, input.style.iconName)
  drawSign(raster, input.name, accent)
  drawStorefront(raster, random, trim, accent, pick)
  drawAwning(raster, accent)
  drawSidewalk(raster, pick)
  return raster.toPng()
}

function drawSky(raster: Raster, random: () => number): void {
  raster.fillVerticalGradient(0, 0, 1024, 900, hexColor('#9fcbe8'), hexColor('#f7e8cf'))
  const sunX = random() < 0.5 ? 150 + random() * 60 : 814 + random() * 60
  const sunY = 110 + random() * 40
  raster.fillCircle(sunX, sunY, 118, withAlpha(hexColor('#fff6d8'), 0.18))
  raster.fillCircle(sunX, sunY, 86, withAlpha(hexColor('#fff6d8'), 0.3))
  raster.fillCircle(sunX, sunY, 58, hexColor('#fff1b8'))
  const cloud = hexColor('#fbfdff')
  for (let i = 0; i < 2; i++) {
    const cx = i === 0 ? 260 + random() * 160 : 600 + random() * 180
    const cy = 70 + random() * 70
    const size = 0.8 + random() * 0.5
    raster.fillEllipse(cx, cy + 14 * size, 92 * size, 20 * size, cloud)
    raster.fillCircle(cx - 40 * size, cy + 4 * size, 26 * size, cloud)
    raster.fillCircle(cx + 4 * size, cy - 8 * size, 36 * size, cloud)
    raster.fillCircle(cx + 44 * size, cy + 6 * size, 24 * size, cloud)
  }
}

function drawLandscape(raster: Raster, random: () => number): void {
  // A far ridge with Pinnacle Mountain's cone rising from it, then nearer wooded hills.
  const peakX = random() < 0.5 ? 200 + random() * 90 : 734 + random() * 90
  const far: Point[] = [[0, 900]]
  for (let x = 0; x <= 1024; x += 64) far.push([x, 300 + random() * 46])
  far.push([1024, 900])
  raster.fillPolygon(far, hexColor('#a9bfd0'))
  raster.fillPolygon(
    [
      [peakX - 230, 900],
      [peakX - 150, 330],
      [peakX - 60, 222],
      [peakX - 22, 196],
      [peakX + 18, 192],
      [peakX + 64, 224],
      [peakX + 170, 330],
      [peakX + 250, 900],
    ],
    hexColor('#94adc1'),
  )
  const near: Point[] = [[0, 900]]
  for (let x = 0; x <= 1024; x += 48) near.push([x, 420 + random() * 60])
  near.push([1024, 900])
  raster.fillPolygon(near, hexColor('#7c9c84'))
  raster.fillRect(0, 780, 1024, 120, hexColor('#8db07a'))
  // Trees at both ends of the street, half hidden by the building.
  for (const x of [34, 990]) {
    raster.fillRect(x - 9, 720, 18, 160, hexColor('#5b4636'))
    const green = hexColor('#3f7a4a')
    raster.fillCircle(x, 650, 74, green)
    raster.fillCircle(x - 46, 700, 52, green)
    raster.fillCircle(x + 46, 700, 52, green)
    raster.fillCircle(x - 18, 620, 40, lighten(green, 0.15))
  }
}

function drawBuilding(
  raster: Raster,
  wall: Color,
  trim: Color,
  texture: Facade['texture'],
  accent: Color,
  iconName: string,
): void {
  // The raised centre of the parapet carries the category medallion.
  raster.fillRect(352, 196, 320, 110, wall)
  raster.fillRect(96, 300, 832, 580, wall)
  wallTexture(raster, wall, texture)
  raster.fillRect(340, 184, 344, 16, trim)
  raster.fillRect(340, 200, 344, 5, withAlpha(shadow, 0.15))
  raster.fillRect(84, 290, 856, 24, trim)
  raster.fillRect(96, 314, 832, 6, withAlpha(shadow, 0.15))
  raster.fillRect(96, 300, 10, 580, withAlpha(shadow, 0.08))
  raster.fillRect(918, 300, 10, 580, withAlpha(shadow, 0.12))

  raster.fillCircle(512, 246, 48, trim)
  raster.fillCircle(512, 246, 41, accent)
  const iconInk = luminance(accent) > 0.45 ? darken(accent, 0.75) : hexColor('#fffaf0')
  drawIcon(raster, iconName, { x: 512 - 27, y: 246 - 27, size: 54, fg: iconInk, bg: accent })
}

function wallTexture(raster: Raster, wall: Color, texture: Facade['texture']): void {
  if (texture === 'brick') {
    const mortar = withAlpha(lighten(wall, 0.35), 0.55)
    for (let row = 0, y = 196; y < 880; row++, y += 22) {
      const left = y < 300 ? 352 : 96
      const right = y < 300 ? 672 : 928
      raster.fillRect(left, y, right - left, 3, mortar)
      for (let x = left + (row % 2 === 0 ? 0 : 26); x < right; x += 52) raster.fillRect(x, y, 3, 22, mortar)
    }
  } else if (texture === 'siding') {
    for (let y = 216; y < 880; y += 20) {
      const left = y < 300 ? 352 : 96
      const right = y < 300 ? 672 : 928
      raster.fillRect(left, y, right - left, 3, withAlpha(darken(wall, 0.4), 0.22))
      raster.fillRect(left, y + 3, right - left, 2, withAlpha(lighten(wall, 0.6), 0.25))
    }
  }
}

function drawSign(raster: Raster, name: string, accent: Color): void {
  const x = 144
  const y = 332
  const w = 736
  const h = 244
  raster.fillRoundedRect(x + 6, y + 10, w, h, 14, withAlpha(shadow, 0.25))
  raster.fillRoundedRect(x, y, w, h, 14, accent)
  raster.fillRoundedRect(x + 10, y + 10, w - 20, h - 20, 8, signBoard)
  raster.fillRoundedRect(x + 20, y + 20, w - 40, h - 40, 6, gold)
  raster.fillRoundedRect(x + 23, y + 23, w - 46, h - 46, 5, signBoard)
  // Bolts at the corners.
  for (const [bx, by] of [
    [x + 5, y + 5],
    [x + w - 5, y + 5],
    [x + 5, y + h - 5],
    [x + w - 5, y + h - 5],
  ] as const) {
    raster.fillCircle(bx, by, 4, darken(accent, 0.35))
  }

  const layout = fitSignName(name)
  const townScale = 4
  const townSpacing = 2
  const townGap = 18
  const nameHeight = blockHeight(layout.lines.length, layout.scale)
  const total = nameHeight + townGap + glyphHeight * townScale
  let top = y + (h - total) / 2
  const centre = x + w / 2
  for (const line of layout.lines) {
    const width = measureText(line, layout.scale)
    const left = Math.round(centre - width / 2)
    const lift = Math.max(1, Math.round(layout.scale / 2))
    drawText(raster, line, left + lift, top + lift, layout.scale, withAlpha(shadow, 0.45))
    drawText(raster, line, left, top, layout.scale, signInk)
    top += glyphHeight * layout.scale + lineGap(layout.scale)
  }
  top += townGap - lineGap(layout.scale)
  const town = 'ROLAND, AR'
  const townWidth = measureText(town, townScale, townSpacing)
  const townLeft = Math.round(centre - townWidth / 2)
  drawText(raster, town, townLeft, top, townScale, gold, townSpacing)
  const starY = top + (glyphHeight * townScale) / 2
  raster.fillPolygon(starPoints(townLeft - 26, starY, 10, 4), gold)
  raster.fillPolygon(starPoints(townLeft + townWidth + 26, starY, 10, 4), gold)
}

function drawStorefront(
  raster: Raster,
  random: () => number,
  trim: Color,
  accent: Color,
  pick: <T>(items: readonly T[]) => T,
): void {
  const frame = mix(trim, hexColor('#2b2b2b'), luminance(trim) > 0.5 ? 0.55 : 0)
  const glassTop = hexColor('#d6eaf4')
  const glassBottom = hexColor('#86aac0')
  const openSignLeft = random() < 0.5
  for (const left of [132, 612]) {
    raster.fillRect(left - 10, 706, 300, 176, frame)
    raster.fillVerticalGradient(left, 716, 280, 126, glassTop, glassBottom)
    raster.fillRect(left + 137, 716, 6, 126, frame)
    const hasOpenSign = (left === 132) === openSignLeft
    if (hasOpenSign) {
      // Hung in the pane next to the door.
      const centre = left === 132 ? left + 211 : left + 68
      raster.fillRect(centre - 40, 716, 2, 28, hexColor('#3a3a3a'))
      raster.fillRect(centre + 38, 716, 2, 28, hexColor('#3a3a3a'))
      raster.fillRoundedRect(centre - 59, 742, 118, 48, 8, hexColor('#1c1917'))
      raster.fillRoundedRect(centre - 55, 746, 110, 40, 6, withAlpha(hexColor('#ef4444'), 0.18))
      drawText(raster, 'OPEN', Math.round(centre - measureText('OPEN', 4) / 2), 752, 4, hexColor('#ff5a4e'))
    } else {
      // A shelf with goods on display.
      raster.fillRect(left + 12, 808, 256, 6, darken(frame, 0.1))
      let x = left + 24
      while (x < left + 250) {
        const w = 26 + random() * 26
        const h = 24 + random() * 44
        if (x + w > left + 262) break
        raster.fillRoundedRect(x, 808 - h, w, h, 5, hexColor(pick(displayColours)))
        raster.fillRect(x + 5, 808 - h + 6, Math.max(4, w - 10), 5, withAlpha(hexColor('#ffffff'), 0.35))
        x += w + 8 + random() * 10
      }
    }
    // Reflections on the glass.
    raster.fillPolygon(
      [
        [left + 170, 716],
        [left + 206, 716],
        [left + 120, 842],
        [left + 84, 842],
      ],
      withAlpha(hexColor('#ffffff'), 0.22),
    )
    raster.fillPolygon(
      [
        [left + 224, 716],
        [left + 236, 716],
        [left + 150, 842],
        [left + 138, 842],
      ],
      withAlpha(hexColor('#ffffff'), 0.18),
    )
    raster.fillRect(left - 10, 842, 300, 40, darken(frame, 0.15))
    raster.fillRect(left + 4, 850, 124, 24, withAlpha(shadow, 0.12))
    raster.fillRect(left + 152, 850, 124, 24, withAlpha(shadow, 0.12))
  }

  // The door: the category colour, darkened, with a glass pane and a brass handle.
  raster.fillRect(442, 698, 140, 182, frame)
  const door = darken(accent, 0.25)
  raster.fillRect(452, 708, 120, 172, door)
  raster.fillVerticalGradient(468, 724, 88, 78, glassTop, glassBottom)
  raster.fillPolygon(
    [
      [520, 724],
      [540, 724],
      [500, 802],
      [480, 802],
    ],
    withAlpha(hexColor('#ffffff'), 0.22),
  )
  raster.fillRect(468, 818, 88, 44, lighten(door, 0.12))
  raster.fillCircle(552, 808, 6, gold)
  raster.fillRect(432, 878, 160, 10, hexColor('#b8b0a4'))

  // Planters either side of the door.
  const flower = hexColor(pick(flowerColours))
  for (const cx of [412, 612]) {
    const leaf = hexColor('#4d8b4f')
    raster.fillCircle(cx - 16, 822, 22, leaf)
    raster.fillCircle(cx + 16, 822, 22, leaf)
    raster.fillCircle(cx, 806, 26, lighten(leaf, 0.1))
    for (let i = 0; i < 6; i++) {
      raster.fillCircle(cx - 30 + random() * 60, 796 + random() * 34, 5, flower)
    }
    raster.fillPolygon(
      [
        [cx - 30, 838],
        [cx + 30, 838],
        [cx + 24, 886],
        [cx - 24, 886],
      ],
      hexColor('#9a5b3c'),
    )
    raster.fillRect(cx - 32, 836, 64, 8, hexColor('#7d4a31'))
  }
}

function drawAwning(raster: Raster, accent: Color): void {
  const stripes = 12
  const top = 598
  const bottom = 684
  const topLeft = 116
  const topRight = 908
  const bottomLeft = 92
  const bottomRight = 932
  const cream = hexColor('#fbf3e4')
  const at = (edgeLeft: number, edgeRight: number, i: number) => edgeLeft + ((edgeRight - edgeLeft) * i) / stripes
  // The shadow the awning casts on the storefront.
  raster.fillRect(96, bottom, 832, 34, withAlpha(shadow, 0.16))
  raster.fillRect(topLeft - 6, top - 8, topRight - topLeft + 12, 10, darken(accent, 0.45))
  for (let i = 0; i < stripes; i++) {
    const colour = i % 2 === 0 ? accent : cream
    const x0 = at(topLeft, topRight, i)
    const x1 = at(topLeft, topRight, i + 1)
    const b0 = at(bottomLeft, bottomRight, i)
    const b1 = at(bottomLeft, bottomRight, i + 1)
    raster.fillPolygon(
      [
        [x0, top],
        [x1, top],
        [b1, bottom],
        [b0, bottom],
      ],
      colour,
    )
    // A scalloped valance hanging below each stripe.
    raster.fillEllipse((b0 + b1) / 2, bottom, (b1 - b0) / 2, 22, colour)
  }
  // Shade near the wall, light at the front edge, as on a real canvas awning.
  raster.fillPolygon(
    [
      [topLeft, top],
      [topRight, top],
      [topRight + 6, top + 26],
      [topLeft - 6, top + 26],
    ],
    withAlpha(shadow, 0.14),
  )
  raster.fillRect(bottomLeft, bottom - 6, bottomRight - bottomLeft, 6, withAlpha(hexColor('#ffffff'), 0.18))
}

function drawSidewalk(raster: Raster, pick: <T>(items: readonly T[]) => T): void {
  const paving = hexColor('#d8d2c8')
  raster.fillRect(0, 880, 1024, 112, paving)
  raster.fillRect(0, 880, 1024, 18, withAlpha(shadow, 0.1))
  const offset = pick([0, 32, 64, 96])
  for (let x = offset; x < 1024; x += 128) raster.fillRect(x, 880, 3, 112, darken(paving, 0.12))
  raster.fillRect(0, 936, 1024, 3, darken(paving, 0.1))
  raster.fillRect(0, 990, 1024, 12, hexColor('#b9b1a5'))
  raster.fillRect(0, 1002, 1024, 22, hexColor('#5f5a55'))
}
