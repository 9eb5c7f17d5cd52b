import type { CommunityEvent } from '@roland/scripts/catalog/types'
// Event times are shown in the town's time zone (town_settings.time_zone) whatever the build machine's zone.

/** The number of events the home page lists (SPEC §9). */
export const homeEventLimit = 3

const byStart = (a: CommunityEvent, b: CommunityEvent) => Date.parse(a.starts_at) - Date.parse(b.starts_at)
const endOf = (event: CommunityEvent) => Date.parse(event.ends_at ?? event.starts_at)

/** Lists the events that have not ended by `now`, soonest first. */
export function upcomingEvents(events: readonly CommunityEvent[], now: Date, limit = Infinity): CommunityEvent[] {
  return events
    .filter((event) => endOf(event) >= now.getTime())
    .sort(byStart)
    .slice(0, limit)
}

/** Lists the events that ended before `now`, latest first. */
export function pastEvents(events: readonly CommunityEvent[], now: Date): CommunityEvent[] {
  return events.filter((event) => endOf(event) < now.getTime()).sort((a, b) => byStart(b, a))
}

const format = (options: Intl.DateTimeFormatOptions) => {
  const formatters = new Map<string, Intl.DateTimeFormat>()
  return (iso: string, timeZone: string) => {
    let formatter = formatters.get(timeZone)
    if (!formatter) {
      formatter = new Intl.DateTimeFormat('en-US', { timeZone, ...options })
      formatters.set(timeZone, formatter)
    }
    // ICU puts a narrow no-break space before AM/PM; visitors (and searches) expect a plain one.
    return formatter.format(new Date(iso)).replace(/\u202f/g, ' ')
  }
}

/** "Dec 28" */
export const eventDay = format({ month: 'short', day: 'numeric' })
/** "7:00 PM" */
export const eventTime = format({ hour: 'numeric', minute: '2-digit' })
/** "Monday, December 28, 2099" */
export const eventLongDate = format({ weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' })
/** "Dec" */
export const eventMonth = format({ month: 'short' })
/** "28" */
export const eventDayOfMonth = format({ day: 'numeric' })

/** "7:00 PM – 8:30 PM", or the start time alone when there is no end. */
export function eventTimeRange(event: Pick<CommunityEvent, 'starts_at' | 'ends_at'>, timeZone: string): string {
  return event.ends_at
    ? `${eventTime(event.starts_at, timeZone)} – ${eventTime(event.ends_at, timeZone)}`
    : eventTime(event.starts_at, timeZone)
}
