import type { Color } from './raster.ts'

// A 5×7 bitmap font (uppercase letters, digits and the punctuation business names use), drawn
// as solid blocks scaled up: the local renderer writes sign text without a font file or canvas.
// Punctuation is narrower than letters, so "JOE'S" does not gape around the apostrophe.

/** Rows of a glyph are 7 units tall; letters and digits are 5 units wide. */
export const glyphHeight = 7

/** Units between two glyphs. */
export const glyphSpacing = 1

const glyphs: Record<string, readonly string[]> = {
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  B: ['####.', '#...#', '#...#', '####.', '#...#', '#...#', '####.'],
  C: ['.###.', '#...#', '#....', '#....', '#....', '#...#', '.###.'],
  D: ['####.', '#...#', '#...#', '#...#', '#...#', '#...#', '####.'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  F: ['#####', '#....', '#....', '####.', '#....', '#....', '#....'],
  G: ['.###.', '#...#', '#....', '#.###', '#...#', '#...#', '.####'],
  H: ['#...#', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  I: ['.###.', '..#..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  J: ['..###', '...#.', '...#.', '...#.', '...#.', '#..#.', '.##..'],
  K: ['#...#', '#..#.', '#.#..', '##...', '#.#..', '#..#.', '#...#'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  M: ['#...#', '##.##', '#.#.#', '#.#.#', '#...#', '#...#', '#...#'],
  N: ['#...#', '#...#', '##..#', '#.#.#', '#..##', '#...#', '#...#'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  P: ['####.', '#...#', '#...#', '####.', '#....', '#....', '#....'],
  Q: ['.###.', '#...#', '#...#', '#...#', '#.#.#', '#..#.', '.##.#'],
  R: ['####.', '#...#', '#...#', '####.', '#.#..', '#..#.', '#...#'],
  S: ['.####', '#....', '#....', '.###.', '....#', '....#', '####.'],
  T: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '..#..'],
  U: ['#...#', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  V: ['#...#', '#...#', '#...#', '#...#', '#...#', '.#.#.', '..#..'],
  W: ['#...#', '#...#', '#...#', '#.#.#', '#.#.#', '#.#.#', '.#.#.'],
  X: ['#...#', '#...#', '.#.#.', '..#..', '.#.#.', '#...#', '#...#'],
  Y: ['#...#', '#...#', '.#.#.', '..#..', '..#..', '..#..', '..#..'],
  Z: ['#####', '....#', '...#.', '..#..', '.#...', '#....', '#####'],
  '0': ['.###.', '#...#', '#..##', '#.#.#', '##..#', '#...#', '.###.'],
  '1': ['..#..', '.##..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  '2': ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  '3': ['#####', '...#.', '..#..', '...#.', '....#', '#...#', '.###.'],
  '4': ['...#.', '..##.', '.#.#.', '#..#.', '#####', '...#.', '...#.'],
  '5': ['#####', '#....', '####.', '....#', '....#', '#...#', '.###.'],
  '6': ['..##.', '.#...', '#....', '####.', '#...#', '#...#', '.###.'],
  '7': ['#####', '....#', '...#.', '..#..', '.#...', '.#...', '.#...'],
  '8': ['.###.', '#...#', '#...#', '.###.', '#...#', '#...#', '.###.'],
  '9': ['.###.', '#...#', '#...#', '.####', '....#', '...#.', '.##..'],
  ' ': ['...', '...', '...', '...', '...', '...', '...'],
  '.': ['..', '..', '..', '..', '..', '##', '##'],
  ',': ['..', '..', '..', '..', '##', '.#', '#.'],
  "'": ['#', '#', '#', '.', '.', '.', '.'],
  '"': ['#.#', '#.#', '#.#', '...', '...', '...', '...'],
  '!': ['#', '#', '#', '#', '#', '.', '#'],
  '?': ['.###.', '#...#', '....#', '...#.', '..#..', '.....', '..#..'],
  ':': ['..', '##', '##', '..', '##', '##', '..'],
  ';': ['..', '##', '##', '..', '##', '.#', '#.'],
  '-': ['....', '....', '....', '####', '....', '....', '....'],
  '+': ['.....', '..#..', '..#..', '#####', '..#..', '..#..', '.....'],
  '=': ['.....', '.....', '#####', '.....', '#####', '.....', '.....'],
  '&': ['.##..', '#..#.', '#.#..', '.#...', '#.#.#', '#..#.', '.##.#'],
  '/': ['....#', '....#', '...#.', '..#..', '.#...', '#....', '#....'],
  '#': ['.#.#.', '.#.#.', '#####', '.#.#.', '#####', '.#.#.', '.#.#.'],
  '@': ['.###.', '#...#', '#.###', '#.#.#', '#.###', '#....', '.####'],
  $: ['..#..', '.####', '#.#..', '.###.', '..#.#', '####.', '..#..'],
  '%': ['##...', '##..#', '...#.', '..#..', '.#...', '#..##', '...##'],
  '*': ['.....', '#.#.#', '.###.', '#####', '.###.', '#.#.#', '.....'],
  '(': ['..#', '.#.', '#..', '#..', '#..', '.#.', '..#'],
  ')': ['#..', '.#.', '..#', '..#', '..#', '.#.', '#..'],
}

/** The characters the font can draw. */
export const fontCharacters: readonly string[] = Object.keys(glyphs)

// Typographic characters a name may use, mapped to what the font has.
const substitutes: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u02bc': "'",
  '`': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2013': '-',
  '\u2014': '-',
  _: '-',
  '\u2026': '...',
  '\u00d7': 'X',
  '|': '/',
  '[': '(',
  ']': ')',
  '{': '(',
  '}': ')',
}

/**
 * Turns any text into what the font can draw: uppercase, accents removed (CAFÉ → CAFE),
 * typographic quotes and dashes simplified, other characters dropped, spaces collapsed.
 */
export function toSignText(text: string): string {
  const plain = text.normalize('NFKD').replace(/\p{M}/gu, '')
  let out = ''
  for (const char of plain) {
    const upper = (substitutes[char] ?? char).toUpperCase()
    for (const c of upper) {
      if (/\s/.test(c)) out += ' '
      else if (glyphs[c]) out += c
    }
  }
  return out.replace(/ +/g, ' ').trim()
}

/** The width of a glyph in font units. */
function glyphWidth(char: string): number {
  return glyphs[char]?.[0]?.length ?? 0
}

/** Measures a line of sign text (see toSignText) in pixels at a scale of `scale` pixels per unit. */
export function measureText(text: string, scale: number, spacing = glyphSpacing): number {
  const chars = [...text]
  if (chars.length === 0) return 0
  const units = chars.reduce((sum, c) => sum + glyphWidth(c), 0) + spacing * (chars.length - 1)
  return units * scale
}

/**
 * Breaks sign text into lines no wider than maxWidth at the given scale, at spaces only;
 * null when a single word is wider than that (the caller tries a smaller scale).
 */
export function wrapText(text: string, maxWidth: number, scale: number, spacing = glyphSpacing): string[] | null {
  const words = text.split(' ').filter(Boolean)
  const lines: string[] = []
  let line = ''
  for (const word of words) {
    if (measureText(word, scale, spacing) > maxWidth) return null
    const candidate = line ? `${line} ${word}` : word
    if (measureText(candidate, scale, spacing) <= maxWidth) {
      line = candidate
    } else {
      lines.push(line)
      line = word
    }
  }
  if (line) lines.push(line)
  return lines
}

/** Anything that can fill rectangles in pixel coordinates (the Raster). */
export interface RectTarget {
  fillRect(x: number, y: number, w: number, h: number, color: Color): void
}

/** Draws one line of sign text with its top-left corner at (x, y). */
export function drawText(
  target: RectTarget,
  text: string,
  x: number,
  y: number,
  scale: number,
  color: Color,
  spacing = glyphSpacing,
): void {
  let cursor = x
  for (const char of text) {
    const rows = glyphs[char]
    if (!rows) continue
    rows.forEach((row, ry) => {
      // Runs of set units become one rectangle: fewer seams, faster drawing.
      let start = -1
      for (let rx = 0; rx <= row.length; rx++) {
        const on = row[rx] === '#'
        if (on && start < 0) start = rx
        if (!on && start >= 0) {
          target.fillRect(cursor + start * scale, y + ry * scale, (rx - start) * scale, scale, color)
          start = -1
        }
      }
    })
    cursor += (glyphWidth(char) + spacing) * scale
  }
}
