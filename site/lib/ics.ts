import type { CommunityEvent, Town } from '@roland/scripts/catalog/types'

// iCalendar (RFC 5545) for the events feed (/events.ics) and each event's "Add to calendar"
// file (/events/{slug}.ics). Times are written in UTC, so no VTIMEZONE is needed.

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
}

/** Escapes a TEXT value (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks. */
export function escapeText(value: string): string {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n')
}

const encoder = new TextEncoder()

/**
 * Folds a content line (RFC 5545 §3.1): no line longer than 75 octets, continuations starting
 * with one space, and never inside a UTF-8 character.
 */
export function foldLine(line: string): string {
  const lines: string[] = []
  let current = ''
  let octets = 0
  for (const char of line) {
    const size = encoder.encode(char).length
    // The first line holds 75 octets; a continuation holds 74 after its leading space.
    if (octets + size > (lines.length === 0 ? 75 : 74)) {
      lines.push(current)
      current = ''
      octets = 0
    }
    current += char
    octets += size
  }
  lines.push(current)
  return lines.join('\r\n ')
}

/** A UTC DATE-TIME: 2099-12-29T01:00:00Z → "20991229T010000Z". */
export function icsDateTime(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '')
}

/** A calendar with its events, as the text of an .ics file: CRLF line endings, folded lines. */
export function icsCalendar(options: {
  name: string
  events: readonly IcsEvent[]
  stamp: Date
  town: Pick<Town, 'name' | 'state'>
}): string {
  const { town } = options
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${town.name} ${town.state}//Community events//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `NAME:${escapeText(options.name)}`,
    `X-WR-CALNAME:${escapeText(options.name)}`,
    ...options.events.flatMap((event) => [
      'BEGIN:VEVENT',
      `UID:${event.uid}`,
      `DTSTAMP:${icsDateTime(options.stamp)}`,
      `DTSTART:${icsDateTime(event.start)}`,
      ...(event.end ? [`DTEND:${icsDateTime(event.end)}`] : []),
      `SUMMARY:${escapeText(event.summary)}`,
      ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
      ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
      ...(event.categories ? [`CATEGORIES:${escapeText(event.categories)}`] : []),
      `URL:${event.url}`,
      ...(event.cancelled ? ['STATUS:CANCELLED'] : []),
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
  ]
  return lines.map(foldLine).join('\r\n') + '\r\n'
}

/** Where an event's own calendar file is: /events/{slug}.ics. */
export function eventIcsPath(event: Pick<CommunityEvent, 'slug'>): string {
  return `/events/${event.slug}.ics`
}

/**
 * A community event as a VEVENT. Its UID is made of its slug and the site's host, so it stays the
 * same from build to build and a calendar updates the event rather than adding it twice.
 */
export function calendarEvent(event: CommunityEvent, site: URL, town: Town): IcsEvent {
  // A place name ("Community Center") gets the town, state and ZIP so a maps app finds it; an
  // address that names the state or ends in a ZIP already has them.
  const state = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const hasTown = new RegExp(`\\b(${state(town.state_code)}|${state(town.state)})\\b|\\b\\d{5}\\s*$`).test(
    event.location,
  )
  return {
    uid: `${event.slug}@${site.hostname}`,
    start: new Date(event.starts_at),
    end: event.ends_at ? new Date(event.ends_at) : null,
    summary: event.title,
    description: event.description,
    location: event.location.trim()
      ? hasTown
        ? event.location
        : `${event.location}, ${town.name}, ${town.state_code} ${town.zip}`
      : null,
    url: new URL(`/events#${event.slug}`, site).href,
    categories: event.event_type,
    cancelled: event.is_cancelled ?? false,
  }
}

/** Where the name and parameters of a content line end: its first colon outside a quoted parameter value. */
function nameEnd(line: string): number {
  let quoted = false
  for (let index = 0; index < line.length; index++) {
    if (line[index] === '"') quoted = !quoted
    else if (line[index] === ':' && !quoted) return index
  }
  throw new Error(`Not an iCalendar content line: ${line}`)
}

/** A content line read back: its name, parameters and unescaped value. */
export interface IcsProperty {
  name: string
  params: Record<string, string>
  value: string
}

/**
 * Reads the content lines of an .ics text (unfolding continuations, unescaping TEXT values),
 * grouped into the VEVENTs it holds and the calendar's own properties. The counterpart of
 * icsCalendar, for checking a feed.
 */
export function readIcs(text: string): { calendar: IcsProperty[]; events: IcsProperty[][] } {
  const calendar: IcsProperty[] = []
  const events: IcsProperty[][] = []
  let event: IcsProperty[] | null = null
  for (const line of text.replace(/\r\n[ \t]/g, '').split('\r\n')) {
    if (line === '') continue
    const colon = nameEnd(line)
    const [name = '', ...params] = line.slice(0, colon).split(';')
    const raw = line.slice(colon + 1)
    const value =
      name === 'URL' ? raw : raw.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c))
    const property = { name, params: Object.fromEntries(params.map((p) => p.split('=') as [string, string])), value }
    if (name === 'BEGIN' && value === 'VEVENT') event = []
    else if (name === 'END' && value === 'VEVENT') {
      events.push(event!)
      event = null
    } else (event ?? calendar).push(property)
  }
  return { calendar, events }
}
