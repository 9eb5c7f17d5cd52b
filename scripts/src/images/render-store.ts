import { Resvg } from '@resvg/resvg-js'
import type { CategoryStyle } from './category-style.ts'
import { iconSvg, starPoints } from './icons.ts'
import { storeFont, storeFontFamily, storeFontWeights, type StoreFontWeight } from './store-font.ts'
import {
  circle,
  darken,
  ellipse,
  escapeXml,
  hexColor,
  lighten,
  luminance,
  mix,
  num,
  paint,
  polygon,
  rect,
  withAlpha,
  type Color,
  type Point,
} from './svg.ts'

// The local provider's picture: a small-town storefront under Pinnacle Mountain, with the
// business name in Inter on the sign board, its category's icon on the parapet medallion and its
// category's colour on the awning, and the town ("{town}, {state}") under the name. Everything that varies
// between two businesses of one category (wall, sun, ridge line, window display, flowers) comes
// from a generator seeded with the slug, and the scene is written as SVG that resvg draws with
// the font bundled in node_modules, so a business always gets the same bytes.

/** The side of the square image, in pixels (SPEC §9: 1024x1024). */
export const storeImageSize = 1024

/** What the renderer needs to know about a business. */
export interface StorefrontInput {
  name: string
  slug: string
  style: CategoryStyle
  /** The town line under the name: "{town}, {state}" of the town settings. */
  place: string
}

/** A name laid out on the sign: its lines and their font size in pixels. */
export interface SignLayout {
  lines: string[]
  fontSize: number
}

/** The sign's area for the name, in pixels; the town line goes under it. */
export const signTextBox = { width: 640, height: 150 } as const

const maxNameLines = 3
const maxFontSize = 96
const minFontSize = 32
// Inter's capital height and descender, in ems, and the distance between baselines.
const capHeight = 0.73
const descender = 0.2
const lineHeight = 1.1

/** The height in pixels of a name of `lines` lines at a font size: the first capital's top to the last descender. */
export function signBlockHeight(lines: number, fontSize: number): number {
  return (lines - 1) * lineHeight * fontSize + (capHeight + descender) * fontSize
}

/** Keeps the characters of a name the sign's font can draw, with spaces collapsed. */
export function toSignText(name: string): string {
  const font = storeFont()
  return [...name.normalize('NFC')]
    .map((char) => (/\s/.test(char) ? ' ' : char))
    .filter((char) => char === ' ' || font.covers(char))
    .join('')
    .replace(/ +/g, ' ')
    .trim()
}

/** Fits a business name on the sign: the largest letters that fit in at most three balanced lines. */
export function fitSignName(name: string, box: { width: number; height: number } = signTextBox): SignLayout {
  const text = toSignText(name) || 'Local Business'
  const width = (line: string, size: number) => storeFont().width(line, size)
  for (let size = maxFontSize; size >= minFontSize; size -= 2) {
    const greedy = wrap(text.split(' '), box.width, (line) => width(line, size))
    if (!greedy || greedy.length > maxNameLines || signBlockHeight(greedy.length, size) > box.height) continue
    return { lines: balance(text.split(' '), greedy.length, box.width, (line) => width(line, size)), fontSize: size }
  }
  // Too long even in the smallest letters: break long words and end the last line with "…".
  const measure = (line: string) => width(line, minFontSize)
  const pieces = text.split(' ').flatMap((word) => breakWord(word, box.width, measure))
  const lines = wrap(pieces, box.width, measure)!
  if (lines.length > maxNameLines) {
    lines.length = maxNameLines
    let last = `${lines[maxNameLines - 1]}…`
    while (measure(last) > box.width && last.length > 1) last = `${last.slice(0, -2).trimEnd()}…`
    lines[maxNameLines - 1] = last
  }
  return { lines, fontSize: minFontSize }
}

/** Wraps words greedily into lines no wider than `width`, or gives up (null) when one word is wider. */
function wrap(words: string[], width: number, measure: (line: string) => number): string[] | null {
  const lines: string[] = []
  for (const word of words) {
    if (measure(word) > width) return null
    const last = lines.at(-1)
    if (last !== undefined && measure(`${last} ${word}`) <= width) lines[lines.length - 1] = `${last} ${word}`
    else lines.push(word)
  }
  return lines
}

/** Cuts a word wider than `width` into pieces that fit, letter by letter. */
function breakWord(word: string, width: number, measure: (line: string) => number): string[] {
  const pieces = ['']
  for (const char of word) {
    if (pieces.at(-1) && measure(pieces.at(-1)! + char) > width) pieces.push('')
    pieces[pieces.length - 1] += char
  }
  return pieces
}

// Among the ways to break the words into `count` lines, the one whose widest line is narrowest:
// "Big Rock / Coffee" rather than a full first line and a lonely last word.
function balance(words: string[], count: number, width: number, measure: (line: string) => number): string[] {
  let best: string[] | null = null
  let bestWidth = Infinity
  const search = (start: number, left: number, lines: string[]) => {
    if (left === 1) {
      const all = [...lines, words.slice(start).join(' ')]
      const widest = Math.max(...all.map(measure))
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

/** The sign board's colour, and the ink the name is written in. */
export const signColours = { board: '#1f2a2e', ink: '#fdf3d8' } as const

const signBoard = hexColor(signColours.board)
const signInk = hexColor(signColours.ink)
const gold = hexColor('#e2b65c')
const shadow = hexColor('#000000')
const white = hexColor('#ffffff')
const glassTop = hexColor('#d6eaf4')
const glassBottom = hexColor('#86aac0')

/** Writes the store image of a business as an SVG document; the same input gives the same text. */
export function storeImageSvg(input: StorefrontInput): string {
  const random = seededRandom(input.slug)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const accent = hexColor(input.style.color)
  const facade = pick(facades)
  const wall = hexColor(facade.wall)
  const trim = hexColor(facade.trim)
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${storeImageSize}" height="${storeImageSize}" viewBox="0 0 ${storeImageSize} ${storeImageSize}">`,
    '<defs>',
    gradient('sky', hexColor('#9fcbe8'), hexColor('#f7e8cf')),
    gradient('glass', glassTop, glassBottom),
    '</defs>',
    drawSky(random),
    drawLandscape(random),
    drawBuilding(wall, trim, facade.texture, accent, input.style.iconName),
    drawSign(input.name, input.place, accent),
    drawStorefront(random, trim, accent, pick),
    drawAwning(accent),
    drawSidewalk(pick),
    '</svg>',
  ]
  return parts.join('\n')
}

/**
 * Draws the store image of a business as a square PNG, 1024×1024 unless `size` says otherwise (the
 * site's app icons are drawn at 192 and 512); the same input gives the same bytes.
 */
export function renderStoreImage(input: StorefrontInput, size: number = storeImageSize): Uint8Array {
  const resvg = new Resvg(storeImageSvg(input), {
    // Only the bundled Inter: the machine's fonts would make the bytes differ between machines.
    font: { loadSystemFonts: false, fontFiles: storeFont().files, defaultFontFamily: storeFontFamily },
    fitTo: size === storeImageSize ? { mode: 'original' } : { mode: 'width', value: size },
    logLevel: 'error',
  })
  return new Uint8Array(resvg.render().asPng())
}

function gradient(id: string, top: Color, bottom: Color): string {
  return (
    `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1">` +
    `<stop offset="0" ${paint(top, 'stop-color')}/><stop offset="1" ${paint(bottom, 'stop-color')}/></linearGradient>`
  )
}

function text(
  content: string,
  x: number,
  baseline: number,
  size: number,
  weight: StoreFontWeight,
  color: Color,
  letterSpacing = 0,
): string {
  const spacing = letterSpacing ? ` letter-spacing="${num(letterSpacing)}"` : ''
  return (
    `<text x="${num(x)}" y="${num(baseline)}" text-anchor="middle" font-family="${storeFontFamily}" ` +
    `font-weight="${weight}" font-size="${num(size)}"${spacing} ${paint(color)}>${escapeXml(content)}</text>`
  )
}

function drawSky(random: () => number): string {
  const shapes = [`<rect x="0" y="0" width="1024" height="900" fill="url(#sky)"/>`]
  const sunX = random() < 0.5 ? 150 + random() * 60 : 814 + random() * 60
  const sunY = 110 + random() * 40
  shapes.push(
    circle(sunX, sunY, 118, withAlpha(hexColor('#fff6d8'), 0.18)),
    circle(sunX, sunY, 86, withAlpha(hexColor('#fff6d8'), 0.3)),
    circle(sunX, sunY, 58, hexColor('#fff1b8')),
  )
  const cloud = hexColor('#fbfdff')
  for (let i = 0; i < 2; i++) {
    const cx = i === 0 ? 260 + random() * 160 : 600 + random() * 180
    const cy = 70 + random() * 70
    const size = 0.8 + random() * 0.5
    shapes.push(
      ellipse(cx, cy + 14 * size, 92 * size, 20 * size, cloud),
      circle(cx - 40 * size, cy + 4 * size, 26 * size, cloud),
      circle(cx + 4 * size, cy - 8 * size, 36 * size, cloud),
      circle(cx + 44 * size, cy + 6 * size, 24 * size, cloud),
    )
  }
  return shapes.join('')
}

function drawLandscape(random: () => number): string {
  // A far ridge with Pinnacle Mountain's cone rising from it, then nearer wooded hills.
  const peakX = random() < 0.5 ? 200 + random() * 90 : 734 + random() * 90
  const far: Point[] = [[0, 900]]
  for (let x = 0; x <= 1024; x += 64) far.push([x, 300 + random() * 46])
  far.push([1024, 900])
  const shapes = [
    polygon(far, hexColor('#a9bfd0')),
    polygon(
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
    ),
  ]
  const near: Point[] = [[0, 900]]
  for (let x = 0; x <= 1024; x += 48) near.push([x, 420 + random() * 60])
  near.push([1024, 900])
  shapes.push(polygon(near, hexColor('#7c9c84')), rect(0, 780, 1024, 120, hexColor('#8db07a')))
  // Trees at both ends of the street, half hidden by the building.
  for (const x of [34, 990]) {
    const green = hexColor('#3f7a4a')
    shapes.push(
      rect(x - 9, 720, 18, 160, hexColor('#5b4636')),
      circle(x, 650, 74, green),
      circle(x - 46, 700, 52, green),
      circle(x + 46, 700, 52, green),
      circle(x - 18, 620, 40, lighten(green, 0.15)),
    )
  }
  return shapes.join('')
}

function drawBuilding(wall: Color, trim: Color, texture: Facade['texture'], accent: Color, iconName: string): string {
  // The raised centre of the parapet carries the category medallion.
  const iconInk = luminance(accent) > 0.45 ? darken(accent, 0.75) : hexColor('#fffaf0')
  return [
    rect(352, 196, 320, 110, wall),
    rect(96, 300, 832, 580, wall),
    wallTexture(wall, texture),
    rect(340, 184, 344, 16, trim),
    rect(340, 200, 344, 5, withAlpha(shadow, 0.15)),
    rect(84, 290, 856, 24, trim),
    rect(96, 314, 832, 6, withAlpha(shadow, 0.15)),
    rect(96, 300, 10, 580, withAlpha(shadow, 0.08)),
    rect(918, 300, 10, 580, withAlpha(shadow, 0.12)),
    circle(512, 246, 48, trim),
    circle(512, 246, 41, accent),
    iconSvg(iconName, { x: 512 - 27, y: 246 - 27, size: 54, fg: iconInk, bg: accent }),
  ].join('')
}

function wallTexture(wall: Color, texture: Facade['texture']): string {
  const shapes: string[] = []
  const span = (y: number): readonly [number, number] => (y < 300 ? [352, 672] : [96, 928])
  if (texture === 'brick') {
    const mortar = withAlpha(lighten(wall, 0.35), 0.55)
    for (let row = 0, y = 196; y < 880; row++, y += 22) {
      const [left, right] = span(y)
      shapes.push(rect(left, y, right - left, 3, mortar))
      for (let x = left + (row % 2 === 0 ? 0 : 26); x < right; x += 52) shapes.push(rect(x, y, 3, 22, mortar))
    }
  } else if (texture === 'siding') {
    for (let y = 216; y < 880; y += 20) {
      const [left, right] = span(y)
      shapes.push(
        rect(left, y, right - left, 3, withAlpha(darken(wall, 0.4), 0.22)),
        rect(left, y + 3, right - left, 2, withAlpha(lighten(wall, 0.6), 0.25)),
      )
    }
  }
  return shapes.join('')
}

function drawSign(name: string, town: string, accent: Color): string {
  const x = 144
  const y = 332
  const w = 736
  const h = 244
  const shapes = [
    rect(x + 6, y + 10, w, h, withAlpha(shadow, 0.25), 14),
    rect(x, y, w, h, accent, 14),
    rect(x + 10, y + 10, w - 20, h - 20, signBoard, 8),
    rect(x + 20, y + 20, w - 40, h - 40, gold, 6),
    rect(x + 23, y + 23, w - 46, h - 46, signBoard, 5),
  ]
  // Bolts at the corners.
  for (const [bx, by] of [
    [x + 5, y + 5],
    [x + w - 5, y + 5],
    [x + 5, y + h - 5],
    [x + w - 5, y + h - 5],
  ] as const) {
    shapes.push(circle(bx, by, 4, darken(accent, 0.35)))
  }

  // The name and the town line, centred together on the board.
  const layout = fitSignName(name)
  const size = layout.fontSize
  const townSize = 30
  const townSpacing = 1.5
  const townGap = 22
  const nameHeight = signBlockHeight(layout.lines.length, size)
  const top = y + (h - (nameHeight + townGap + capHeight * townSize)) / 2
  const centre = x + w / 2
  const lift = Math.max(2, size / 24)
  layout.lines.forEach((line, i) => {
    const baseline = top + capHeight * size + i * lineHeight * size
    shapes.push(
      text(line, centre + lift, baseline + lift, size, storeFontWeights.name, withAlpha(shadow, 0.45)),
      text(line, centre, baseline, size, storeFontWeights.name, signInk),
    )
  })
  const townBaseline = top + nameHeight + townGap + capHeight * townSize
  shapes.push(text(town, centre, townBaseline, townSize, storeFontWeights.town, gold, townSpacing))
  const townWidth = storeFont().width(town, townSize, storeFontWeights.town) + townSpacing * (town.length - 1)
  const starY = townBaseline - (capHeight * townSize) / 2
  shapes.push(
    polygon(starPoints(centre - townWidth / 2 - 26, starY, 11, 4.5), gold),
    polygon(starPoints(centre + townWidth / 2 + 26, starY, 11, 4.5), gold),
  )
  return shapes.join('')
}

function drawStorefront(random: () => number, trim: Color, accent: Color, pick: <T>(items: readonly T[]) => T): string {
  const shapes: string[] = []
  const frame = mix(trim, hexColor('#2b2b2b'), luminance(trim) > 0.5 ? 0.55 : 0)
  const openSignLeft = random() < 0.5
  for (const left of [132, 612]) {
    shapes.push(
      rect(left - 10, 706, 300, 176, frame),
      `<rect x="${left}" y="716" width="280" height="126" fill="url(#glass)"/>`,
      rect(left + 137, 716, 6, 126, frame),
    )
    const hasOpenSign = (left === 132) === openSignLeft
    if (hasOpenSign) {
      // Hung in the pane next to the door.
      const centre = left === 132 ? left + 211 : left + 68
      shapes.push(
        rect(centre - 40, 716, 2, 28, hexColor('#3a3a3a')),
        rect(centre + 38, 716, 2, 28, hexColor('#3a3a3a')),
        rect(centre - 59, 742, 118, 48, hexColor('#1c1917'), 8),
        rect(centre - 55, 746, 110, 40, withAlpha(hexColor('#ef4444'), 0.18), 6),
        text('OPEN', centre, 777, 28, storeFontWeights.name, hexColor('#ff5a4e'), 2),
      )
    } else {
      // A shelf with goods on display.
      shapes.push(rect(left + 12, 808, 256, 6, darken(frame, 0.1)))
      let x = left + 24
      while (x < left + 250) {
        const w = 26 + random() * 26
        const h = 24 + random() * 44
        if (x + w > left + 262) break
        shapes.push(
          rect(x, 808 - h, w, h, hexColor(pick(displayColours)), 5),
          rect(x + 5, 808 - h + 6, Math.max(4, w - 10), 5, withAlpha(white, 0.35)),
        )
        x += w + 8 + random() * 10
      }
    }
    // Reflections on the glass.
    shapes.push(
      polygon(
        [
          [left + 170, 716],
          [left + 206, 716],
          [left + 120, 842],
          [left + 84, 842],
        ],
        withAlpha(white, 0.22),
      ),
      polygon(
        [
          [left + 224, 716],
          [left + 236, 716],
          [left + 150, 842],
          [left + 138, 842],
        ],
        withAlpha(white, 0.18),
      ),
      rect(left - 10, 842, 300, 40, darken(frame, 0.15)),
      rect(left + 4, 850, 124, 24, withAlpha(shadow, 0.12)),
      rect(left + 152, 850, 124, 24, withAlpha(shadow, 0.12)),
    )
  }

  // The door: the category colour, darkened, with a glass pane and a brass handle.
  const door = darken(accent, 0.25)
  shapes.push(
    rect(442, 698, 140, 182, frame),
    rect(452, 708, 120, 172, door),
    `<rect x="468" y="724" width="88" height="78" fill="url(#glass)"/>`,
    polygon(
      [
        [520, 724],
        [540, 724],
        [500, 802],
        [480, 802],
      ],
      withAlpha(white, 0.22),
    ),
    rect(468, 818, 88, 44, lighten(door, 0.12)),
    circle(552, 808, 6, gold),
    rect(432, 878, 160, 10, hexColor('#b8b0a4')),
  )

  // Planters either side of the door.
  const flower = hexColor(pick(flowerColours))
  for (const cx of [412, 612]) {
    const leaf = hexColor('#4d8b4f')
    shapes.push(circle(cx - 16, 822, 22, leaf), circle(cx + 16, 822, 22, leaf), circle(cx, 806, 26, lighten(leaf, 0.1)))
    for (let i = 0; i < 6; i++) shapes.push(circle(cx - 30 + random() * 60, 796 + random() * 34, 5, flower))
    shapes.push(
      polygon(
        [
          [cx - 30, 838],
          [cx + 30, 838],
          [cx + 24, 886],
          [cx - 24, 886],
        ],
        hexColor('#9a5b3c'),
      ),
      rect(cx - 32, 836, 64, 8, hexColor('#7d4a31')),
    )
  }
  return shapes.join('')
}

function drawAwning(accent: Color): string {
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
  const shapes = [
    rect(96, bottom, 832, 34, withAlpha(shadow, 0.16)),
    rect(topLeft - 6, top - 8, topRight - topLeft + 12, 10, darken(accent, 0.45)),
  ]
  for (let i = 0; i < stripes; i++) {
    const colour = i % 2 === 0 ? accent : cream
    const x0 = at(topLeft, topRight, i)
    const x1 = at(topLeft, topRight, i + 1)
    const b0 = at(bottomLeft, bottomRight, i)
    const b1 = at(bottomLeft, bottomRight, i + 1)
    shapes.push(
      polygon(
        [
          [x0, top],
          [x1, top],
          [b1, bottom],
          [b0, bottom],
        ],
        colour,
      ),
      // A scalloped valance hanging below each stripe.
      ellipse((b0 + b1) / 2, bottom, (b1 - b0) / 2, 22, colour),
    )
  }
  // Shade near the wall, light at the front edge, as on a real canvas awning.
  shapes.push(
    polygon(
      [
        [topLeft, top],
        [topRight, top],
        [topRight + 6, top + 26],
        [topLeft - 6, top + 26],
      ],
      withAlpha(shadow, 0.14),
    ),
    rect(bottomLeft, bottom - 6, bottomRight - bottomLeft, 6, withAlpha(white, 0.18)),
  )
  return shapes.join('')
}

function drawSidewalk(pick: <T>(items: readonly T[]) => T): string {
  const paving = hexColor('#d8d2c8')
  const shapes = [rect(0, 880, 1024, 112, paving), rect(0, 880, 1024, 18, withAlpha(shadow, 0.1))]
  const offset = pick([0, 32, 64, 96])
  for (let x = offset; x < 1024; x += 128) shapes.push(rect(x, 880, 3, 112, darken(paving, 0.12)))
  shapes.push(
    rect(0, 936, 1024, 3, darken(paving, 0.1)),
    rect(0, 990, 1024, 12, hexColor('#b9b1a5')),
    rect(0, 1002, 1024, 22, hexColor('#5f5a55')),
  )
  return shapes.join('')
}
