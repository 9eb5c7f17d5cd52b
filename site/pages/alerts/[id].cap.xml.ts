import type { Alert } from '@roland/scripts/catalog/types'
import { capMessage } from '@roland/scripts/content/alert-xml'
import type { APIRoute, GetStaticPaths } from 'astro'
import { alertsWithPages } from '../../lib/alerts.ts'
import { pageCacheKey } from '../../lib/build-cache.ts'
import { getCatalog } from '../../lib/catalog.ts'

/** /alerts/{id}.cap.xml: each alert with a page, as its latest OASIS CAP 1.2 message. */
export const getStaticPaths = (async () => {
  const catalog = await getCatalog()
  return alertsWithPages(catalog, new Date()).map((alert) => ({
    params: { id: alert.id },
    props: { alert },
    cacheKey: pageCacheKey(alert, catalog.town),
  }))
}) satisfies GetStaticPaths

export const GET: APIRoute<{ alert: Alert }> = async ({ props, site }) => {
  if (!site) throw new Error('The CAP messages need the site URL: set `site` in astro.config.mjs (SITE_URL).')
  const { town } = await getCatalog()
  return new Response(capMessage(props.alert, town, site), {
    headers: { 'content-type': 'application/cap+xml; charset=utf-8' },
  })
}
