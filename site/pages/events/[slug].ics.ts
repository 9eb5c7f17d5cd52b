import type { APIRoute, GetStaticPaths } from 'astro'
import type { CommunityEvent } from '@roland/scripts/catalog/types'
import { getCatalog } from '../../lib/catalog.ts'
import { calendarEvents, icsCalendar, icsContentType } from '../../lib/ics.ts'

/** /events/{slug}.ics: one event, or one series with its moved dates, for its "Add to calendar" link. */
export const getStaticPaths = (async () => {
  const { events } = await getCatalog()
  return events
    .filter((event) => !event.series_id)
    .map((event) => ({
      params: { slug: event.slug },
      props: { event, exceptions: events.filter((e) => e.series_id === event.id) },
    }))
}) satisfies GetStaticPaths

export const GET: APIRoute<{ event: CommunityEvent; exceptions: CommunityEvent[] }> = async ({ props, site }) => {
  if (!site) throw new Error('The event calendar files need the site URL: set `site` in astro.config.mjs (SITE_URL).')
  const { town } = await getCatalog()
  const body = icsCalendar({
    name: props.event.title,
    events: calendarEvents([props.event, ...props.exceptions], site, town),
    stamp: new Date(),
    town,
  })
  return new Response(body, { headers: { 'content-type': icsContentType } })
}
