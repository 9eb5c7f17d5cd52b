import type { Town } from '@roland/scripts/catalog/types'

/** The site's theme colour: the browser's bar (BaseLayout's theme-color) and the installed app's. */
export const themeColor = '#23633b'

/** The page background behind the installed app's splash screen (the body's stone-50). */
export const backgroundColor = '#fafaf9'

/** The sizes the web app manifest offers its icon in (phones ask for 192 and 512). */
export const appIconSizes = [192, 512] as const

/** Where the icon of one size is served. */
export const appIconPath = (size: number) => `/app-icon-${size}.png`

/** Where the web app manifest is served. */
export const webAppManifestPath = '/manifest.webmanifest'

/** The web app manifest: the town's name, the theme colour and the icons, so phones offer "Add to Home Screen". */
export function webAppManifest(
  icons: ReadonlyArray<{ src: string; size: number }>,
  town: Pick<Town, 'name' | 'state' | 'tagline'>,
) {
  return {
    name: `${town.name}, ${town.state}`,
    short_name: town.name,
    description: `${town.name}, ${town.state} – ${town.tagline}: local businesses, events and emergency numbers, with or without a signal.`,
    lang: 'en',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: themeColor,
    background_color: backgroundColor,
    icons: icons.map(({ src, size }) => ({ src, sizes: `${size}x${size}`, type: 'image/png', purpose: 'any' })),
  }
}
