import { renderStoreImage } from '@roland/scripts/images/render-store'
import sharp from 'sharp'
import { themeColor } from './web-app-manifest.ts'

/**
 * The site's app icon ("Add to Home Screen"), `size` pixels square: a storefront drawn by the
 * store-image renderer the generated business images use, with the town's name on its sign and the
 * theme colour on its awning (`town`: the town settings' name, and "{town}, {state}" under it). Drawn by integrations/service-worker.ts (the renderer is native code,
 * which the pages' bundle cannot hold). Kept as a palette PNG, opaque: the drawing has few colours
 * (flat fills, short gradients), so 32 of them keep it (SSIM 0.9995 against the full-colour PNG)
 * at about a third of the bytes: 6 KB at 192 px instead of 16 KB, which Chromium fetches with the
 * first page a visitor opens.
 */
export async function renderAppIcon(size: number, town: { name: string; place: string }): Promise<Uint8Array> {
  const style = { category: '', color: themeColor, iconName: 'mountain' }
  const drawn = renderStoreImage({ name: town.name, place: town.place, slug: 'app-icon', style }, size)
  const png = await sharp(drawn)
    .removeAlpha()
    .png({ palette: true, colours: 32, dither: 0, compressionLevel: 9, effort: 10 })
    .toBuffer()
  return new Uint8Array(png)
}
