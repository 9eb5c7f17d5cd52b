import { renderStoreImage } from '@roland/scripts/images/render-store'
import { themeColor } from './web-app-manifest.ts'

/**
 * The site's app icon ("Add to Home Screen"), `size` pixels square: a storefront drawn by the
 * store-image renderer the generated business images use, with the town's name on its sign and the
 * theme colour on its awning (`town`: the town settings' name, and "{town}, {state}" under it). Drawn by integrations/service-worker.ts (the renderer is native code,
 * which the pages' bundle cannot hold).
 */
export function renderAppIcon(size: number, town: { name: string; place: string }): Uint8Array {
  const style = { category: '', color: themeColor, iconName: 'mountain' }
  return renderStoreImage({ name: town.name, place: town.place, slug: 'app-icon', style }, size)
}
