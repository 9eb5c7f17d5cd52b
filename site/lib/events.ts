import type { CommunityEvent } from '@roland/scripts/catalog/types'
// Event times are shown in the town's time zone (town_settings.time_zone) whatever the build machine's zone.
import { describeRule, expandEvents, recurrenceHorizonDays, type Occurrence } from '@roland/scripts/events/recurrence'
import { profiled } from './build-profile.ts'

/** An event as a list shows it: a single event, or one occurrence of a series. */
export type EventOccurrence = Occurrence<CommunityEvent>

/** The number of events the home page lists (SPEC §9). */
export const homeEventLimit = 3

const byStart = (a: CommunityEvent, b: CommunityEvent) => Date.parse(a.starts_at) - Date.parse(b.starts_at)
const endOf = (event: CommunityEvent) => Date.parse(event.ends_at ?? event.starts_at)

/**
 * Lists the events that have not ended by `now`, soonest first: each single event, and each
 * occurrence of a series in the next 90 days (recurrenceHorizonDays), cancelled dates left out.
 */
export function upcomingEvents(
  events: readonly CommunityEvent[],
  now: Date,
  timeZone: string,
  limit = Infinity,
): EventOccurrence[] {
  const horizon = new Date(now.getTime() + recurrenceHorizonDays * 86_400_000)
  return profiled('recurring-event expansion', () => expandEvents(events, now, horizon, timeZone)).slice(0, limit)
}

/**
 * Lists what is coming, one entry an event: each single event and the next date of each series,
 * soonest first (the home and community pages, where a weekly supper should not fill the list).
 */
export function nextEvents(
  events: readonly CommunityEvent[],
  now: Date,
  timeZone: string,
  limit = Infinity,
): EventOccurrence[] {
  const seen = new Set<string>()
  return upcomingEvents(events, now, timeZone)
    .filter((event) => !seen.has(event.slug) && seen.add(event.slug) !== undefined)
    .slice(0, limit)
}

/** Lists the single events that ended before `now`, latest first (a series lists its dates ahead only). */
export function pastEvents(events: readonly CommunityEvent[], now: Date): CommunityEvent[] {
  return events
    .filter((event) => !event.rrule && !event.series_id && endOf(event) < now.getTime())
    .sort((a, b) => byStart(b, a))
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

/** "7:00 PM – 8:30 PM", the start time alone when there is no end, or "All day". */
export function eventTimeRange(
  event: Pick<CommunityEvent, 'starts_at' | 'ends_at' | 'all_day'>,
  timeZone: string,
): string {
  if (event.all_day) return 'All day'
  return event.ends_at
    ? `${eventTime(event.starts_at, timeZone)} – ${eventTime(event.ends_at, timeZone)}`
    : eventTime(event.starts_at, timeZone)
}

/** How a series repeats, in words: "Every month on the second Tuesday, 7:00 PM" (in its own zone, else the town's). */
export function seriesWords(
  event: Pick<CommunityEvent, 'rrule' | 'starts_at' | 'time_zone' | 'all_day'>,
  townZone: string,
): string {
  return event.rrule ? describeRule(event.rrule, event.starts_at, event.time_zone ?? townZone, event.all_day) : ''
}
