import type { APIRoute } from 'astro'
import { appIconPath, appIconSizes, webAppManifest } from '../lib/web-app-manifest.ts'

/** /manifest.webmanifest: what a phone installs when a visitor adds the site to their home screen. */
export const GET: APIRoute = () =>
  new Response(JSON.stringify(webAppManifest(appIconSizes.map((size) => ({ src: appIconPath(size), size })))), {
    headers: { 'content-type': 'application/manifest+json' },
  })
