import type { CommunityEvent, Town } from '@roland/scripts/catalog/types'
import { addressNamesTown } from '@roland/scripts/text/index'
import { wallClockOf } from '@roland/scripts/time/zone'
import { getVtimezoneComponent } from '@touch4it/ical-timezones'
import ICAL from 'ical.js'

// iCalendar (RFC 5545) for the events feed (/events.ics) and each event's "Add to calendar"
// file (/events/{slug}.ics), written with ical.js. A single event's times are written in UTC; a
// series is written on its zone's wall clock (TZID) with that zone's VTIMEZONE, so calendar apps
// repeat it at the same local time across daylight-saving changes, with its RRULE, its cancelled
// dates (EXDATE) and its moved dates (a VEVENT with the series' UID and a RECURRENCE-ID).

// The calendar's name properties (RFC 7986's NAME, Apple's X-WR-CALNAME) are TEXT, escaped as such:
// ical.js's design does not list them, and writes what it does not know as it is. They are added
// to a design of our own, which writing passes to ical.js: its shared design stays as it is.
const icalendarDesign = ICAL.design.icalendar
const calendarDesign: typeof icalendarDesign = {
  ...icalendarDesign,
  property: {
    ...(icalendarDesign.property as Record<string, object>),
    name: { defaultType: 'text' },
    'x-wr-calname': { defaultType: 'text' },
  },
}

/** Adds a TEXT property (NAME, X-WR-CALNAME) that ical.js's design does not list. */
function addText(component: ICAL.Component, name: string, value: string): void {
  const property = new ICAL.Property(name, component)
  property.resetType('text')
  property.setValue(value)
  component.addProperty(property)
}

/** Folds a content line (RFC 5545 §3.1): at most 75 octets a line, the continuation's space counted, never inside a character. */
function fold(line: string): string {
  const lines: string[] = []
  let current = ''
  let octets = 0
  for (const char of line) {
    const point = char.codePointAt(0)!
    const size = point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4
    if (octets + size > 75) {
      lines.push(current)
      current = ' '
      octets = 1
    }
    current += char
    octets += size
  }
  lines.push(current)
  return lines.join('\r\n')
}

/** A component's content lines, written by ical.js (unfolded, with our design) and folded here. */
function contentLines(jcal: unknown[]): string[] {
  const [name, properties, components] = jcal as [string, unknown[][], unknown[][]]
  return [
    `BEGIN:${name.toUpperCase()}`,
    ...properties.map((property) => fold(ICAL.stringify.property(property, calendarDesign, true))),
    ...components.flatMap(contentLines),
    `END:${name.toUpperCase()}`,
  ]
}

/** What a calendar file is served as. */
export const icsContentType = 'text/calendar; charset=utf-8'

/** One VEVENT. */
export interface IcsEvent {
  uid: string
  start: Date
  end: Date | null
  summary: string
  description: string | null
  location: string | null
  url: string
  categories: string | null
  /** Called off: calendars that subscribed show it cancelled rather than silently dropping it. */
  cancelled?: boolean
  /** The IANA zone to write the times in (with its VTIMEZONE); UTC when absent. */
  timeZone?: string | null
  /** A day (or days) long: DATE values. */
  allDay?: boolean
  /** How it repeats (RRULE), and the starts it skips (EXDATE). */
  rrule?: string | null
  exdates?: readonly Date[]
  /** For a moved occurrence: the start its series gave it (RECURRENCE-ID). */
  recurrenceId?: Date | null
}

/** A time as the event is written: a DATE, a wall-clock time of its zone, or UTC. */
function icalTime(date: Date, event: IcsEvent, zones: Set<string>): { time: ICAL.Time; tzid: string | null } {
  const zone = event.timeZone && zones.has(event.timeZone) ? event.timeZone : null
  if (event.allDay) {
    const wall = wallClockOf(date.getTime(), event.timeZone ?? 'UTC')
    return { time: ICAL.Time.fromData({ year: wall.year, month: wall.month, day: wall.day, isDate: true }), tzid: null }
  }
  if (!zone) return { time: ICAL.Time.fromJSDate(date, true), tzid: null }
  return { time: ICAL.Time.fromData({ ...wallClockOf(date.getTime(), zone), isDate: false }), tzid: zone }
}

function addTime(vevent: ICAL.Component, name: string, dates: readonly Date[], event: IcsEvent, zones: Set<string>) {
  if (dates.length === 0) return
  const times = dates.map((date) => icalTime(date, event, zones))
  const property = new ICAL.Property(name, vevent)
  property.resetType(event.allDay ? 'date' : 'date-time')
  if (dates.length === 1) property.setValue(times[0]!.time)
  else property.setValues(times.map((t) => t.time))
  if (times[0]!.tzid) property.setParameter('tzid', times[0]!.tzid)
  vevent.addProperty(property)
}

/** The VTIMEZONE of an IANA zone, or null when there is none for it (its times are then written in UTC). */
function vtimezone(zone: string): ICAL.Component | null {
  const text = getVtimezoneComponent(zone)
  return text ? new ICAL.Component(ICAL.parse(text) as unknown[]) : null
}

/** A calendar with its events, as the text of an .ics file: CRLF line endings, folded lines. */
export function icsCalendar(options: {
  name: string
  events: readonly IcsEvent[]
  stamp: Date
  town: Pick<Town, 'name' | 'state'>
}): string {
  const { town } = options
  const calendar = new ICAL.Component('vcalendar')
  calendar.addPropertyWithValue('version', '2.0')
  calendar.addPropertyWithValue('prodid', `-//${town.name} ${town.state}//Community events//EN`)
  calendar.addPropertyWithValue('calscale', 'GREGORIAN')
  calendar.addPropertyWithValue('method', 'PUBLISH')
  addText(calendar, 'name', options.name)
  addText(calendar, 'x-wr-calname', options.name)
  const zones = new Set<string>()
  for (const zone of new Set(options.events.flatMap((e) => (e.timeZone && !e.allDay ? [e.timeZone] : [])))) {
    const component = vtimezone(zone)
    if (!component) continue
    zones.add(zone)
    calendar.addSubcomponent(component)
  }
  const stamp = ICAL.Time.fromJSDate(options.stamp, true)
  for (const event of options.events) {
    const vevent = new ICAL.Component('vevent', calendar)
    vevent.addPropertyWithValue('uid', event.uid)
    vevent.addPropertyWithValue('dtstamp', stamp)
    if (event.recurrenceId) addTime(vevent, 'recurrence-id', [event.recurrenceId], event, zones)
    addTime(vevent, 'dtstart', [event.start], event, zones)
    if (event.end) addTime(vevent, 'dtend', [event.end], event, zones)
    if (event.rrule) vevent.addPropertyWithValue('rrule', ICAL.Recur.fromString(event.rrule))
    // One EXDATE a date: every calendar app reads that form.
    for (const date of event.exdates ?? []) addTime(vevent, 'exdate', [date], event, zones)
    vevent.addPropertyWithValue('summary', event.summary)
    if (event.description) vevent.addPropertyWithValue('description', event.description)
    if (event.location) vevent.addPropertyWithValue('location', event.location)
    if (event.categories) vevent.addPropertyWithValue('categories', event.categories)
    vevent.addPropertyWithValue('url', event.url)
    if (event.cancelled) vevent.addPropertyWithValue('status', 'CANCELLED')
    calendar.addSubcomponent(vevent)
  }
  // ical.js folds by its global foldLength and counts a continuation without its space (76 octets):
  // the lines are folded here instead, and no setting of ical.js is changed.
  return contentLines(calendar.toJSON() as unknown[]).join('\r\n') + '\r\n'
}

/** Where an event's own calendar file is: /events/{slug}.ics. */
export function eventIcsPath(event: Pick<CommunityEvent, 'slug'>): string {
  return `/events/${event.slug}.ics`
}

/**
 * A community event as a VEVENT. Its UID is made of its slug and the site's host, so it stays the
 * same from build to build and a calendar updates the event rather than adding it twice. A series
 * carries its rule and cancelled dates; a moved occurrence (`series` given) its series' UID and
 * the start it replaces.
 */
export function calendarEvent(event: CommunityEvent, site: URL, town: Town, series?: CommunityEvent): IcsEvent {
  // A place name ("Community Center") gets the town, state and ZIP so a maps app finds it; an
  // address that says where it is (addressNamesTown) already has them.
  const hasTown = addressNamesTown(event.location, town)
  const root = series ?? event
  const repeats = Boolean(root.rrule)
  return {
    uid: `${root.slug}@${site.hostname}`,
    start: new Date(event.starts_at),
    end: event.ends_at ? new Date(event.ends_at) : null,
    summary: event.title,
    description: event.description,
    location: event.location.trim()
      ? hasTown
        ? event.location
        : `${event.location}, ${town.name}, ${town.state_code} ${town.zip}`
      : null,
    url: new URL(`/events#${root.slug}`, site).href,
    categories: event.event_type,
    cancelled: event.is_cancelled ?? false,
    ...(repeats || event.all_day ? { timeZone: root.time_zone ?? town.time_zone } : {}),
    ...(event.all_day ? { allDay: true } : {}),
    ...(event.rrule ? { rrule: event.rrule, exdates: (event.exdates ?? []).map((d) => new Date(d)) } : {}),
    ...(series && event.recurrence_id ? { recurrenceId: new Date(event.recurrence_id) } : {}),
  }
}

/**
 * The VEVENTs of events: each single event and series, and each moved occurrence after its series
 * (an occurrence whose series is not among them is left out).
 */
export function calendarEvents(events: readonly CommunityEvent[], site: URL, town: Town): IcsEvent[] {
  const byId = new Map(events.map((event) => [event.id, event]))
  return events.flatMap((event) => {
    if (!event.series_id) return [calendarEvent(event, site, town)]
    const series = byId.get(event.series_id)
    return series ? [calendarEvent(event, site, town, series)] : []
  })
}
