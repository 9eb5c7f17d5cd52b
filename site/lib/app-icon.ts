import { renderStoreImage } from '@roland/scripts/images/render-store'
import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { themeColor } from './web-app-manifest.ts'

/** How the drawing is kept: 32 colours, no dithering, the smallest file zlib and the quantizer can make. */
const encoding = { palette: true, colours: 32, dither: 0, compressionLevel: 9, effort: 10 } as const

/**
 * Icons already encoded, by what went into them (the drawing, the encoding, sharp's and libvips'
 * versions), for every build of this checkout: the test suite builds about a hundred sites, each
 * with its own cache folder, and drew both icons for each. Encoding them is most of an icon's time
 * (about 0.1 s of CPU for the two, the drawing 0.02 s), and it once never ended: libvips' thread
 * pool waited for a worker (vips_threadpool_run, then vips_semaphore_down), and the build with it.
 */
const keptIcons = fileURLToPath(new URL('../../node_modules/.cache/roland-app-icons/', import.meta.url))

/**
 * The site's app icon ("Add to Home Screen"), `size` pixels square: a storefront drawn by the
 * store-image renderer the generated business images use, with the town's name on its sign and the
 * theme colour on its awning (`town`: the town settings' name, and "{town}, {state}" under it). Drawn by integrations/service-worker.ts (the renderer is native code,
 * which the pages' bundle cannot hold). Kept as a palette PNG, opaque: the drawing has few colours
 * (flat fills, short gradients), so 32 of them keep it (SSIM 0.9995 against the full-colour PNG)
 * at about a third of the bytes: 6 KB at 192 px instead of 16 KB, which Chromium fetches with the
 * first page a visitor opens.
 */
export async function renderAppIcon(
  size: number,
  town: { name: string; place: string },
  keptIn = keptIcons,
): Promise<Uint8Array> {
  const style = { category: '', color: themeColor, iconName: 'mountain' }
  const drawn = renderStoreImage({ name: town.name, place: town.place, slug: 'app-icon', style }, size)
  const key = createHash('sha256')
    .update(JSON.stringify({ encoding, versions: sharp.versions }))
    .update(drawn)
    .digest('hex')
  const file = path.join(keptIn, `${key}.png`)
  const kept = await readFile(file).catch(() => null)
  if (kept) return new Uint8Array(kept)
  const png = await sharp(drawn).removeAlpha().png(encoding).toBuffer()
  // Written whole under a name of its own, then renamed into place: builds running at once never read
  // half of one. A checkout whose node_modules cannot be written to encodes its icons at every build.
  const partial = `${file}.${process.pid}.partial`
  await mkdir(keptIn, { recursive: true })
    .then(() => writeFile(partial, png))
    .then(() => rename(partial, file))
    .catch(() => rm(partial, { force: true }).catch(() => {}))
  return new Uint8Array(png)
}
