import type { APIRoute } from 'astro'
import { alertsAtomFeed } from '@roland/scripts/content/alert-xml'
import { alertsWithPages } from '../lib/alerts.ts'
import { getCatalog } from '../lib/catalog.ts'

/** /alerts.xml: the Atom feed of the alerts /alerts lists (showing now, then the last 90 days). */
export const GET: APIRoute = async ({ site }) => {
  if (!site) throw new Error('The alerts feed needs the site URL: set `site` in astro.config.mjs (SITE_URL).')
  const catalog = await getCatalog()
  const now = new Date()
  return new Response(alertsAtomFeed(alertsWithPages(catalog, now), catalog.town, site, now), {
    headers: { 'content-type': 'application/atom+xml; charset=utf-8' },
  })
}
