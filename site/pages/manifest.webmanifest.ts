import type { APIRoute } from 'astro'
import { getCatalog } from '../lib/catalog.ts'
import { appIconPath, appIconSizes, webAppManifest } from '../lib/web-app-manifest.ts'

/** /manifest.webmanifest: what a phone installs when a visitor adds the site to their home screen. */
export const GET: APIRoute = async () => {
  const { town } = await getCatalog()
  const icons = appIconSizes.map((size) => ({ src: appIconPath(size), size }))
  return new Response(JSON.stringify(webAppManifest(icons, town)), {
    headers: { 'content-type': 'application/manifest+json' },
  })
}
