import type { APIRoute, GetStaticPaths } from 'astro'
import type { CommunityEvent } from '@roland/scripts/catalog/types'
import { getCatalog } from '../../lib/catalog.ts'
import { calendarEvent, icsCalendar, icsContentType } from '../../lib/ics.ts'

/** /events/{slug}.ics: one event, for its "Add to calendar" link. */
export const getStaticPaths = (async () =>
  (await getCatalog()).events.map((event) => ({
    params: { slug: event.slug },
    props: { event },
  }))) satisfies GetStaticPaths

export const GET: APIRoute<{ event: CommunityEvent }> = async ({ props, site }) => {
  if (!site) throw new Error('The event calendar files need the site URL: set `site` in astro.config.mjs (SITE_URL).')
  const { town } = await getCatalog()
  const body = icsCalendar({
    name: props.event.title,
    events: [calendarEvent(props.event, site, town)],
    stamp: new Date(),
    town,
  })
  return new Response(body, { headers: { 'content-type': icsContentType } })
}
