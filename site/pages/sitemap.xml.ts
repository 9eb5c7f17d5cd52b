import type { APIRoute } from 'astro'
import { getCatalog } from '../lib/catalog.ts'
import { sitePaths } from '../lib/site-paths.ts'
import { profiled } from '../lib/build-profile.ts'

/** sitemap.xml: every page of the site, by its canonical URL. */
export const GET: APIRoute = async ({ site }) => {
  const catalog = await getCatalog()
  return profiled('sitemap', () => sitemap(catalog, site))
}

function sitemap(catalog: Awaited<ReturnType<typeof getCatalog>>, site: URL | undefined): Response {
  const urls = sitePaths(catalog).map((path) => `  <url><loc>${new URL(path, site).href}</loc></url>`)
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
  return new Response(xml, { headers: { 'content-type': 'application/xml; charset=utf-8' } })
}
