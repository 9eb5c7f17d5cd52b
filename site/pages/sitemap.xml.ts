import type { APIRoute } from 'astro'
import { getCatalog } from '../lib/catalog.ts'
import { sitePaths } from '../lib/site-paths.ts'
import { profiled } from '../lib/build-profile.ts'
import { processSlot } from '@roland/scripts/process-slot'
import { sameElements } from '@roland/scripts/same-elements'

/** sitemap.xml: every page of the site, by its canonical URL. */
export const GET: APIRoute = async ({ site }) => {
  const catalog = await getCatalog()
  return profiled('sitemap', () => sitemap(catalog, site))
}

// A path of plain letters, digits, -, _, ~ and slashes is its URL as it is, after the site's origin
// (at 100,000 businesses, a URL parsed for each of 110,000 pages took a seventh of a second).
const plainPath = /^\/[A-Za-z0-9_~/-]*$/

// The last sitemap this process made, with the paths and address it was made of: a process that
// builds again (the console's rebuilds) takes it as it is while they are the same (a business's
// edit seldom adds or removes a page; at 100,000 businesses, writing 110,000 URLs out again took a
// seventh of a second of a rebuild).
const lastSitemap = processSlot<{ paths: readonly string[]; site: string | undefined; xml: string }>(
  'roland.site.sitemap',
)

function sitemap(catalog: Awaited<ReturnType<typeof getCatalog>>, site: URL | undefined): Response {
  const paths = sitePaths(catalog)
  const last = lastSitemap.get()
  const same = last !== undefined && last.site === site?.href && sameElements(last.paths, paths)
  const xml = same ? last.xml : sitemapXml(paths, site)
  if (!same) lastSitemap.set({ paths, site: site?.href, xml })
  return new Response(xml, { headers: { 'content-type': 'application/xml; charset=utf-8' } })
}

function sitemapXml(paths: readonly string[], site: URL | undefined): string {
  const urlOf = (path: string) =>
    site && plainPath.test(path) && !path.includes('//') ? `${site.origin}${path}` : new URL(path, site).href
  const urls = paths.map((path) => `  <url><loc>${urlOf(path)}</loc></url>`)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}
