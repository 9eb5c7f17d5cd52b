import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fontMetrics, woffToSfnt, type FontMetrics } from './sfnt.ts'

// The store image's lettering: Inter (SIL Open Font License) from @fontsource/inter in
// node_modules, never the network or the machine's fonts, so every machine draws the same bytes.
// The Latin and Latin Extended subsets of each weight are loaded as one family: resvg takes each
// character from whichever face has it.

/** The font family name the store image's SVG asks for. */
export const storeFontFamily = 'Inter'

/** The weights the store image uses: the business name, and the town line under it. */
export const storeFontWeights = { name: 800, town: 600 } as const

/** One of the weights the store image uses. */
export type StoreFontWeight = (typeof storeFontWeights)[keyof typeof storeFontWeights]

const subsets = ['latin', 'latin-ext'] as const

/** The fonts resvg loads and the metrics the sign's layout measures with. */
export interface StoreFont {
  /** TrueType files (unpacked from @fontsource's WOFF into a cache folder) for resvg's `fontFiles`. */
  files: string[]
  /** True when the lettering has a glyph for this character. */
  covers(char: string): boolean
  /** The advance width in pixels of a text at a font size and weight (kerning aside). */
  width(text: string, size: number, weight?: StoreFontWeight): number
}

let loaded: StoreFont | undefined

/** Loads Inter for the store image, once per process: unpacked TrueType files and the name's metrics. */
export function storeFont(): StoreFont {
  if (loaded) return loaded
  const require = createRequire(import.meta.url)
  const filesDir = path.join(path.dirname(require.resolve('@fontsource/inter/package.json')), 'files')
  const cacheDir = path.join(tmpdir(), 'roland-store-font')
  const fonts = Object.values(storeFontWeights).flatMap((weight) =>
    subsets.map((subset) => {
      const woff = path.join(filesDir, `inter-${subset}-${weight}-normal.woff`)
      if (!existsSync(woff)) {
        throw new Error(`The store image's font is missing: ${woff}. Run pnpm install to restore @fontsource/inter.`)
      }
      const sfnt = woffToSfnt(readFileSync(woff))
      return { weight, file: cached(cacheDir, `inter-${subset}-${weight}`, sfnt), sfnt }
    }),
  )
  const metrics = (weight: StoreFontWeight): FontMetrics[] =>
    fonts.filter((f) => f.weight === weight).map((f) => fontMetrics(f.sfnt))
  const byWeight = new Map(Object.values(storeFontWeights).map((weight) => [weight, metrics(weight)]))
  // A character's advance in ems, from the first subset that has it.
  const advance = (codePoint: number, weight: StoreFontWeight) => {
    for (const font of byWeight.get(weight)!) {
      const units = font.advance(codePoint)
      if (units !== undefined) return units / font.unitsPerEm
    }
    return undefined
  }
  loaded = {
    files: fonts.map((f) => f.file),
    covers: (char) => advance(char.codePointAt(0)!, storeFontWeights.name) !== undefined,
    width: (text, size, weight = storeFontWeights.name) =>
      [...text].reduce((sum, char) => sum + (advance(char.codePointAt(0)!, weight) ?? 0), 0) * size,
  }
  return loaded
}

/**
 * Writes a font into the cache folder under a name that carries its content's hash, unless it is
 * there already; returns its path. Written to a temporary name and renamed, so a process reading
 * it never sees half a file while another writes it.
 */
function cached(dir: string, name: string, bytes: Buffer): string {
  const file = path.join(dir, `${name}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.ttf`)
  if (existsSync(file)) return file
  mkdirSync(dir, { recursive: true })
  const partial = `${file}.${process.pid}.partial`
  writeFileSync(partial, bytes)
  renameSync(partial, file)
  return file
}
