import type { APIRoute } from 'astro'
import { getCatalog } from '../lib/catalog.ts'
import { calendarEvents, icsCalendar, icsContentType } from '../lib/ics.ts'

/** /events.ics: every community event, past and upcoming, each series as one VEVENT, for calendar apps to subscribe to. */
export const GET: APIRoute = async ({ site }) => {
  if (!site) throw new Error('The events feed needs the site URL: set `site` in astro.config.mjs (SITE_URL).')
  const { events, town } = await getCatalog()
  const body = icsCalendar({
    name: `${town.name}, ${town.state} community events`,
    events: calendarEvents(events, site, town),
    stamp: new Date(),
    town,
  })
  return new Response(body, { headers: { 'content-type': icsContentType } })
}
