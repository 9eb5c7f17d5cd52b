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

/** The ways the pages write an event's date and time, in one time zone (formatters made once, with this). */
export interface EventFormats {
  /** "Dec 28" */
  day(iso: string): string
  /** "7:00 PM" */
  time(iso: string): string
  /** "Monday, December 28, 2099" */
  longDate(iso: string): string
  /** "Dec" */
  month(iso: string): string
  /** "28" */
  dayOfMonth(iso: string): string
  /** "7:00 PM – 8:30 PM", the start time alone when there is no end, or "All day". */
  timeRange(event: Pick<CommunityEvent, 'starts_at' | 'ends_at' | 'all_day'>): string
}

/**
 * Makes the event formats of a time zone (the town's). A build makes them once per town
 * (town-formats.ts), not once per page: an Intl formatter costs more than the text it writes.
 */
export function eventFormats(timeZone: string): EventFormats {
  const format = (options: Intl.DateTimeFormatOptions) => {
    const formatter = new Intl.DateTimeFormat('en-US', { timeZone, ...options })
    // ICU puts a narrow no-break space before AM/PM; visitors (and searches) expect a plain one.
    return (iso: string) => formatter.format(new Date(iso)).replace(/\u202f/g, ' ')
  }
  const time = format({ hour: 'numeric', minute: '2-digit' })
  return {
    day: format({ month: 'short', day: 'numeric' }),
    time,
    longDate: format({ weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' }),
    month: format({ month: 'short' }),
    dayOfMonth: format({ day: 'numeric' }),
    timeRange(event) {
      if (event.all_day) return 'All day'
      return event.ends_at ? `${time(event.starts_at)} – ${time(event.ends_at)}` : time(event.starts_at)
    },
  }
}

/** How a series repeats, in words: "Every month on the second Tuesday, 7:00 PM" (in its own zone, else the town's). */
export function seriesWords(
  event: Pick<CommunityEvent, 'rrule' | 'starts_at' | 'time_zone' | 'all_day'>,
  townZone: string,
): string {
  return event.rrule ? describeRule(event.rrule, event.starts_at, event.time_zone ?? townZone, event.all_day) : ''
}
