import { createHash } from 'node:crypto'
import ICAL from 'ical.js'
import { findIana } from 'windows-iana'
import { slugify } from '../migrate/slug.ts'
import { addWallDays, instantOf, isIanaZone, type WallClock } from '../time/zone.ts'

// Calendar feeds (issue 40): one iCalendar file, as a feed serves it, read with ical.js into the
// rows of community_events that public.sync_calendar_feed writes. Real producers differ:
// - Google sends a VTIMEZONE per zone, IANA TZIDs, and a VEVENT with RECURRENCE-ID for each
//   changed date of a series (an exception row of that series here);
// - Outlook names zones the Windows way ("Central Standard Time"), mapped with windows-iana;
// - LibCal writes UTC times (a series of UTC times repeats in UTC, as RFC 5545 says);
// - Apple and others write floating times, which mean the town's time;
// - all-day and multi-day events are DATE values (midnights of the town, the end exclusive);
// - STATUS:CANCELLED cancels: a cancelled date of a series becomes an EXDATE of the series, a
//   cancelled event or series is left out.
// A series stays one row with its RRULE and EXDATEs, so the site and its .ics files repeat it with
// the recurrence code of scripts/src/events/recurrence.ts. RDATE is not followed.

/** How big a feed may be: 5 MB of text and 5,000 VEVENTs. */
export const feedLimits = { maxBytes: 5 * 1024 * 1024, maxEvents: 5000 } as const

/** A feed that cannot be read, with what is wrong and what to do. */
export class FeedError extends Error {
  override name = 'FeedError'
}

/** One VEVENT as a row of community_events (sync_calendar_feed's `events`). */
export interface FeedEventRow {
  uid: string
  /** RECURRENCE-ID (an instant, ISO) of an override of one date of a series; null otherwise. */
  recurrence_id: string | null
  slug: string
  title: string
  description: string | null
  location: string
  starts_at: string
  ends_at: string | null
  all_day: boolean
  /** The IANA zone the times repeat in ('UTC' for UTC times); null: the town's. */
  time_zone: string | null
  rrule: string | null
  exdates: string[]
}

/**
 * The IANA zone a TZID names: itself, its Windows name's ("Central Standard Time"), or the IANA
 * name at its end ("/mozilla.org/20050126_1/America/Denver"); null when none.
 */
export function ianaZoneOf(tzid: string): string | null {
  const text = tzid.trim().replace(/^"|"$/g, '')
  if (isIanaZone(text)) return text
  const windows = findIana(text)[0]
  if (windows && isIanaZone(windows)) return windows
  const parts = text.split('/')
  for (let n = Math.min(3, parts.length - 1); n >= 1; n--) {
    const tail = parts.slice(-n).join('/')
    if (isIanaZone(tail)) return tail
  }
  return null
}

interface ReadTime {
  instant: number
  /** The zone its wall clock is in ('UTC', an IANA zone), or null for the town's (floating, DATE). */
  zone: string | null
  allDay: boolean
}

/**
 * The zone lookups and wall-clock conversions of one feed's reading: a feed repeats the same
 * TZIDs, dates and hours many times, and converting one costs Intl's time. Made per parseFeed
 * call, so what it remembers lives as long as the reading.
 */
class FeedClock {
  private readonly zones = new Map<string, string | null>()
  private readonly instants = new Map<string, number>()

  readonly townZone: string

  constructor(townZone: string) {
    this.townZone = townZone
  }

  /** The IANA zone of a TZID (ianaZoneOf), remembered. */
  zone(tzid: string): string | null {
    let zone = this.zones.get(tzid)
    if (zone === undefined) {
      zone = ianaZoneOf(tzid)
      this.zones.set(tzid, zone)
    }
    return zone
  }

  /** The instant of a wall-clock time of a zone (time/zone.ts's instantOf), remembered. */
  instant(wall: WallClock, zone: string): number {
    const key = `${zone} ${wall.year} ${wall.month} ${wall.day} ${wall.hour} ${wall.minute} ${wall.second}`
    let instant = this.instants.get(key)
    if (instant === undefined) {
      instant = instantOf(wall, zone)
      this.instants.set(key, instant)
    }
    return instant
  }
}

/** An instant of a time as the feed wrote it, with the zone it repeats in. */
function readTime(time: ICAL.Time, tzid: string | null, clock: FeedClock): ReadTime {
  const { year, month, day, hour, minute, second } = time
  if (time.isDate) {
    return {
      instant: clock.instant({ year, month, day, hour: 0, minute: 0, second: 0 }, clock.townZone),
      zone: null,
      allDay: true,
    }
  }
  if (time.zone === ICAL.Timezone.utcTimezone) return { instant: time.toUnixTime() * 1000, zone: 'UTC', allDay: false }
  const wall = { year, month, day, hour, minute, second }
  if (tzid) {
    const zone = clock.zone(tzid)
    if (zone) return { instant: clock.instant(wall, zone), zone, allDay: false }
    // A zone known only by the feed's own VTIMEZONE: ical.js converts it; it repeats in the town's.
    if (time.zone && time.zone !== ICAL.Timezone.localTimezone && time.zone.tzid === tzid) {
      return { instant: time.toUnixTime() * 1000, zone: null, allDay: false }
    }
  }
  return { instant: clock.instant(wall, clock.townZone), zone: null, allDay: false }
}

function timeOf(vevent: ICAL.Component, name: string, clock: FeedClock): ReadTime | null {
  const property = vevent.getFirstProperty(name)
  const value = property?.getFirstValue()
  if (!property || !(value instanceof ICAL.Time)) return null
  return readTime(value, (property.getParameter('tzid') as string | undefined) ?? null, clock)
}

function text(vevent: ICAL.Component, name: string, max: number): string | null {
  const value = vevent.getFirstPropertyValue(name)
  if (typeof value !== 'string') return null
  const trimmed = value.replace(/\r\n?/g, '\n').trim()
  return trimmed ? trimmed.slice(0, max) : null
}

const iso = (ms: number) => new Date(ms).toISOString()

/** A slug that stays the same for a feed's VEVENT from sync to sync: its title and a hash of its key. */
function slugOf(feedKey: string, uid: string, recurrenceId: string | null, title: string): string {
  const hash = createHash('sha256')
    .update(`${feedKey}\n${uid}\n${recurrenceId ?? ''}`)
    .digest('hex')
    .slice(0, 10)
  const words = slugify(title).slice(0, 60).replace(/-+$/, '')
  return words ? `${words}-${hash}` : `event-${hash}`
}

/**
 * Reads a feed's text into rows (`feedKey` keeps the slugs of one feed apart from another's);
 * throws FeedError when it is not iCalendar or has more than 5,000 VEVENTs.
 */
export function parseFeed(source: string, options: { townZone: string; feedKey: string }): FeedEventRow[] {
  const { townZone, feedKey } = options
  const clock = new FeedClock(townZone)
  const start = source.replace(/^\uFEFF/, '').trimStart()
  if (!/^BEGIN:VCALENDAR/i.test(start)) {
    const opening = start.slice(0, 40).replace(/\s+/g, ' ')
    throw new FeedError(
      `it is not an iCalendar file (it starts with "${opening}"): use the calendar's iCal/.ics address, not its web page`,
    )
  }
  const veventCount = start.match(/^BEGIN:VEVENT\r?$/gim)?.length ?? 0
  if (veventCount > feedLimits.maxEvents) {
    throw new FeedError(
      `it has ${veventCount} events, more than ${feedLimits.maxEvents}: ask for a calendar of upcoming events only`,
    )
  }
  let calendar: ICAL.Component
  try {
    calendar = new ICAL.Component(ICAL.parse(start) as unknown[])
  } catch (error) {
    throw new FeedError(`it is not valid iCalendar (${(error as Error).message}): check the address`)
  }
  if (calendar.name !== 'vcalendar') calendar = calendar.getFirstSubcomponent('vcalendar') ?? calendar

  const rows = new Map<string, FeedEventRow>()
  const cancelledDates = new Map<string, number[]>()
  for (const vevent of calendar.getAllSubcomponents('vevent')) {
    const begins = timeOf(vevent, 'dtstart', clock)
    if (!begins) continue
    const summary = text(vevent, 'summary', 500) ?? '(No title)'
    const rawUid = text(vevent, 'uid', 1000)
    const uid =
      rawUid ?? `no-uid-${createHash('sha256').update(`${summary}\n${begins.instant}`).digest('hex').slice(0, 16)}`
    const recurrence = timeOf(vevent, 'recurrence-id', clock)
    const recurrenceId = recurrence ? iso(recurrence.instant) : null
    const cancelled = String(vevent.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED'
    if (cancelled) {
      if (recurrence) cancelledDates.set(uid, [...(cancelledDates.get(uid) ?? []), recurrence.instant])
      else rows.delete(`${uid}\n`)
      continue
    }
    let ends: number | null = null
    const endTime = timeOf(vevent, 'dtend', clock)
    if (endTime) ends = endTime.instant
    else {
      const duration = vevent.getFirstPropertyValue('duration')
      if (duration instanceof ICAL.Duration) {
        const property = vevent.getFirstProperty('dtstart')!
        const time = (property.getFirstValue() as ICAL.Time).clone()
        time.addDuration(duration)
        ends = readTime(time, (property.getParameter('tzid') as string | undefined) ?? null, clock).instant
      } else if (begins.allDay) {
        ends = addWallDays(begins.instant, 1, townZone)
      }
    }
    if (ends !== null && ends < begins.instant) ends = null

    const rule = recurrence ? null : vevent.getFirstPropertyValue('rrule')
    const rrule = rule instanceof ICAL.Recur ? rule.toString() : null
    const exdates: string[] = []
    if (rrule) {
      for (const property of vevent.getAllProperties('exdate')) {
        const tzid = (property.getParameter('tzid') as string | undefined) ?? null
        for (const value of property.getValues()) {
          if (value instanceof ICAL.Time) exdates.push(iso(readTime(value, tzid, clock).instant))
        }
      }
    }
    const row: FeedEventRow = {
      uid,
      recurrence_id: recurrenceId,
      slug: slugOf(feedKey, uid, recurrenceId, summary),
      title: summary,
      description: text(vevent, 'description', 10_000),
      location: text(vevent, 'location', 500) ?? '',
      starts_at: iso(begins.instant),
      ends_at: ends === null ? null : iso(ends),
      all_day: begins.allDay,
      time_zone: rrule || begins.allDay ? begins.zone : begins.zone === 'UTC' ? null : begins.zone,
      rrule: rrule && rrule.length <= 500 ? rrule : null,
      exdates,
    }
    // A VEVENT given twice (the same UID and RECURRENCE-ID): the last one counts.
    rows.set(`${uid}\n${recurrenceId ?? ''}`, row)
  }
  // A cancelled date of a series is an EXDATE of it; a cancelled date of no series is nothing.
  for (const [uid, instants] of cancelledDates) {
    const series = rows.get(`${uid}\n`)
    if (series?.rrule) {
      series.exdates = [...new Set([...series.exdates, ...instants.map(iso)])]
      for (const instant of instants) rows.delete(`${uid}\n${iso(instant)}`)
    }
  }
  for (const row of rows.values()) {
    if (row.exdates.length > 1000) row.exdates = row.exdates.sort().slice(-1000)
  }
  return [...rows.values()]
}
