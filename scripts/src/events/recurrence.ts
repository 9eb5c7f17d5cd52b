import ICAL from 'ical.js'
import { instantOf, wallClockOf, type WallClock } from '../time/zone.ts'

// Recurring events (issue 40): an RFC 5545 RRULE, read and expanded by ical.js. A series is kept
// as its first start (an instant) and the IANA zone its times belong to; it is expanded on the
// zone's wall clock (ical.js iterates floating times) and each occurrence is then read as an
// instant in that zone, so a 7 pm meeting stays at 7 pm across daylight-saving changes. Free of
// Node: the console's event editor shows the next dates with the same code the build uses.

/** How far ahead the site lists the occurrences of a series (at least 90 days, issue 40). */
export const recurrenceHorizonDays = 90

const ruleParts = new Set([
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
])
const frequencies = new Set(['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'])
/** The frequencies a rule may have without an end: the rest would fill the calendar. */
export const endlessFrequencies = ['WEEKLY', 'MONTHLY', 'YEARLY'] as const

/**
 * What is wrong with an RRULE value, in words an editor can act on, or null when ical.js reads it
 * and it has an end (UNTIL or COUNT) or repeats weekly, monthly or yearly.
 */
export function ruleProblem(rrule: string): string | null {
  const value = rrule.trim()
  const example = 'such as FREQ=MONTHLY;BYDAY=2TU or FREQ=WEEKLY;BYDAY=SA;UNTIL=20271031'
  if (!/^[A-Z0-9=;,+\-:]+$/i.test(value)) return `The rule is not an iCalendar RRULE value, ${example}`
  for (const part of value.split(';')) {
    const [name, given] = part.split('=')
    if (!name || given === undefined || given === '' || !ruleParts.has(name.toUpperCase())) {
      return `The rule has a part iCalendar does not know ("${part}"): write it ${example}`
    }
  }
  if (!/(^|;)FREQ=/i.test(value)) return `The rule needs a FREQ, ${example}`
  let recur: ICAL.Recur
  try {
    recur = ICAL.Recur.fromString(value)
    if (!recur.freq || !frequencies.has(recur.freq)) return `The rule's FREQ is not one iCalendar knows, ${example}`
    // Some values only fail when the rule is first used.
    const iterator = recur.iterator(ICAL.Time.fromData({ year: 2027, month: 1, day: 1, hour: 19 }))
    iterator.next()
  } catch (error) {
    return `The rule does not parse (${error instanceof Error ? error.message : String(error)}): write it ${example}`
  }
  if (recur.count !== null && recur.until !== null) return 'The rule may end with UNTIL or with COUNT, not both'
  if (!recur.isFinite() && !(endlessFrequencies as readonly string[]).includes(recur.freq)) {
    return `A rule that repeats ${recur.freq.toLowerCase()} needs an end: add UNTIL=YYYYMMDD or COUNT=N`
  }
  return null
}

/** What a series needs to be expanded: the columns of community_events. */
export interface Schedule {
  starts_at: string
  ends_at: string | null
  rrule?: string | null | undefined
  exdates?: readonly string[] | null | undefined
  /** The IANA zone of the event's times; null or absent means the town's. */
  time_zone?: string | null | undefined
  all_day?: boolean | undefined
}

const dayNumber = (wall: WallClock) => Date.UTC(wall.year, wall.month - 1, wall.day) / 86_400_000

/** The instants (ms) a series starts at, from its first start, while `keep` says go on (at most `limit`). */
function* seriesStarts(schedule: Schedule, zone: string): Generator<number> {
  const first = Date.parse(schedule.starts_at)
  if (!schedule.rrule) {
    yield first
    return
  }
  const recur = ICAL.Recur.fromString(schedule.rrule)
  const start = wallClockOf(first, zone)
  const dtstart = ICAL.Time.fromData({ ...start, isDate: schedule.all_day ?? false })
  if (recur.until && !recur.until.isDate && recur.until.zone === ICAL.Timezone.utcTimezone) {
    // The rule's UNTIL is an instant (RFC 5545 wants UTC); the iteration runs on the wall clock.
    const until = wallClockOf(recur.until.toJSDate().getTime(), zone)
    recur.until = ICAL.Time.fromData({ ...until, isDate: false })
  }
  const iterator = recur.iterator(dtstart)
  // A guard against a rule that never yields past its start (an impossible BYMONTHDAY and the like).
  for (let n = 0; n < 100_000; n++) {
    const next = iterator.next()
    if (!next) return
    const wall = {
      year: next.year,
      month: next.month,
      day: next.day,
      hour: next.hour,
      minute: next.minute,
      second: next.second,
    }
    yield instantOf(schedule.all_day ? { ...wall, hour: 0, minute: 0, second: 0 } : wall, zone)
  }
}

/** The length of an occurrence: a span of time, or for an all-day event a number of days. */
function lengthOf(schedule: Schedule, zone: string): { ms: number } | { days: number } | null {
  if (!schedule.ends_at) return null
  const start = Date.parse(schedule.starts_at)
  const end = Date.parse(schedule.ends_at)
  if (schedule.all_day) return { days: dayNumber(wallClockOf(end, zone)) - dayNumber(wallClockOf(start, zone)) }
  return { ms: end - start }
}

function endOf(start: number, length: ReturnType<typeof lengthOf>, zone: string): number | null {
  if (!length) return null
  if ('ms' in length) return start + length.ms
  const wall = wallClockOf(start, zone)
  const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + length.days))
  return instantOf(
    {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: 0,
      minute: 0,
      second: 0,
    },
    zone,
  )
}

/** One occurrence of a schedule: its start, its end, and the start its series gave it. */
export interface OccurrenceTime {
  starts_at: string
  ends_at: string | null
  /** The start the series gives this occurrence (its RECURRENCE-ID); the same as starts_at unless moved. */
  recurrence_id: string
}

/**
 * The occurrences of a schedule that have not ended by `from` and start before `to`, in order,
 * cancelled dates (exdates) left out. A single event is one occurrence.
 */
export function occurrencesOf(schedule: Schedule, from: Date, to: Date, townZone: string): OccurrenceTime[] {
  const zone = schedule.time_zone ?? townZone
  const length = lengthOf(schedule, zone)
  const skipped = new Set((schedule.exdates ?? []).map((d) => Date.parse(d)))
  const found: OccurrenceTime[] = []
  for (const start of seriesStarts(schedule, zone)) {
    if (start >= to.getTime()) break
    const end = endOf(start, length, zone)
    if ((end ?? start) < from.getTime() || skipped.has(start)) continue
    const iso = new Date(start).toISOString()
    found.push({ starts_at: iso, ends_at: end === null ? null : new Date(end).toISOString(), recurrence_id: iso })
  }
  return found
}

/** The next `count` starts of a schedule from `from` (the console's "next five dates"). */
export function nextStarts(schedule: Schedule, from: Date, count: number, townZone: string): string[] {
  const zone = schedule.time_zone ?? townZone
  const skipped = new Set((schedule.exdates ?? []).map((d) => Date.parse(d)))
  const starts: string[] = []
  for (const start of seriesStarts(schedule, zone)) {
    if (starts.length >= count) break
    if (start >= from.getTime() && !skipped.has(start)) starts.push(new Date(start).toISOString())
  }
  return starts
}

/** An event row as the expansion reads it: its schedule and, for an exception, its series. */
export interface SeriesEvent extends Schedule {
  id: string
  slug: string
  series_id?: string | null | undefined
  recurrence_id?: string | null | undefined
}

/** An occurrence of an event, listed on its own: the event with this occurrence's times. */
export type Occurrence<E extends SeriesEvent> = E & {
  /** The id of its list entry on /events: the slug, and for an occurrence of a series, its date. */
  anchor: string
  /** The start its series gave it, or null for a single event. */
  occurrence_of: string | null
}

/**
 * Every occurrence of the events that has not ended by `from`, soonest first: single events
 * whenever they are, the occurrences of a series up to `to`, a moved occurrence (an exception
 * row) in place of the one it replaces. An exception carries the slug of its series, so its
 * "Add to calendar" file is the series'.
 */
export function expandEvents<E extends SeriesEvent>(
  events: readonly E[],
  from: Date,
  to: Date,
  townZone: string,
): Occurrence<E>[] {
  const bySeries = new Map<string, Map<number, E>>()
  for (const event of events) {
    if (!event.series_id || !event.recurrence_id) continue
    const exceptions = bySeries.get(event.series_id) ?? bySeries.set(event.series_id, new Map()).get(event.series_id)!
    exceptions.set(Date.parse(event.recurrence_id), event)
  }
  const listed: Occurrence<E>[] = []
  for (const event of events) {
    if (event.series_id) continue
    const zone = event.time_zone ?? townZone
    if (!event.rrule) {
      if (Date.parse(event.ends_at ?? event.starts_at) >= from.getTime()) {
        listed.push({ ...event, anchor: event.slug, occurrence_of: null })
      }
      continue
    }
    const exceptions = bySeries.get(event.id)
    for (const time of occurrencesOf(event, from, to, townZone)) {
      if (exceptions?.has(Date.parse(time.recurrence_id))) continue
      listed.push({
        ...event,
        ...time,
        anchor: `${event.slug}-${dateKey(time.starts_at, zone)}`,
        occurrence_of: time.recurrence_id,
      })
    }
    for (const [recurrence, exception] of exceptions ?? []) {
      // A moved occurrence is listed where it went, if its series still has the date it replaced.
      if ((event.exdates ?? []).some((d) => Date.parse(d) === recurrence)) continue
      if (Date.parse(exception.ends_at ?? exception.starts_at) < from.getTime()) continue
      if (Date.parse(exception.starts_at) >= to.getTime()) continue
      listed.push({
        ...exception,
        slug: event.slug,
        anchor: `${event.slug}-${dateKey(new Date(recurrence).toISOString(), zone)}`,
        occurrence_of: new Date(recurrence).toISOString(),
      })
    }
  }
  return listed.sort((a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at) || a.anchor.localeCompare(b.anchor))
}

/** "20270309": an instant's date in a zone. */
function dateKey(iso: string, zone: string): string {
  const wall = wallClockOf(Date.parse(iso), zone)
  return `${wall.year}${String(wall.month).padStart(2, '0')}${String(wall.day).padStart(2, '0')}`
}

// The patterns the console's editor offers, and the rule each one is.

/** iCalendar's two-letter weekdays, Sunday first (as Date.getDay counts). */
export const weekdayCodes = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const
export type WeekdayCode = (typeof weekdayCodes)[number]
const weekdayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const ordinals = ['last', 'first', 'second', 'third', 'fourth', 'fifth']
const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** A pattern of the editor: how an event repeats, in the terms the form offers. */
export type RepeatKind = 'none' | 'weekly' | 'monthly-weekday' | 'monthly-date' | 'yearly'
export interface RepeatPattern {
  kind: RepeatKind
  /** For weekly: the days it happens on (its start's day when none). */
  days: WeekdayCode[]
  /** The last day it may happen on (YYYY-MM-DD, the town's date), or '' for no end. */
  until: string
}

/** The Nth weekday of its month a day is (1-5), or -1 when it is the last one of a fifth week. */
function weekOfMonth(wall: WallClock): number {
  return Math.ceil(wall.day / 7)
}

/** The rule a pattern makes for an event starting at `startsAt`, or null for "does not repeat". */
export function ruleOfPattern(pattern: RepeatPattern, startsAt: string, zone: string): string | null {
  if (pattern.kind === 'none') return null
  const wall = wallClockOf(Date.parse(startsAt), zone)
  const weekday = weekdayCodes[new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay()]!
  const parts: string[] = []
  switch (pattern.kind) {
    case 'weekly': {
      const days = pattern.days.length > 0 ? pattern.days : [weekday]
      parts.push('FREQ=WEEKLY', `BYDAY=${weekdayCodes.filter((d) => days.includes(d)).join(',')}`)
      break
    }
    case 'monthly-weekday': {
      const nth = weekOfMonth(wall)
      parts.push('FREQ=MONTHLY', `BYDAY=${nth === 5 ? -1 : nth}${weekday}`)
      break
    }
    case 'monthly-date':
      parts.push('FREQ=MONTHLY', `BYMONTHDAY=${wall.day}`)
      break
    case 'yearly':
      parts.push('FREQ=YEARLY', `BYMONTH=${wall.month}`, `BYMONTHDAY=${wall.day}`)
      break
  }
  if (pattern.until) {
    // The end of that day in the zone, as UTC (RFC 5545 §3.3.10 with a zoned DTSTART).
    const [year, month, day] = pattern.until.split('-').map(Number) as [number, number, number]
    const end = instantOf({ year, month, day, hour: 23, minute: 59, second: 59 }, zone)
    parts.push(`UNTIL=${new Date(end).toISOString().replace(/[-:]|\.\d{3}/g, '')}`)
  }
  return parts.join(';')
}

/** The editor's pattern of a rule, or null when the rule is not one the editor offers (kept as written). */
export function patternOfRule(rrule: string | null | undefined, zone: string): RepeatPattern | null {
  if (!rrule) return { kind: 'none', days: [], until: '' }
  let recur: ICAL.Recur
  try {
    recur = ICAL.Recur.fromString(rrule)
  } catch {
    return null
  }
  const parts = recur.parts as Record<string, Array<string | number> | undefined>
  const keys = Object.keys(parts).filter((k) => (parts[k] ?? []).length > 0)
  if (recur.count !== null || recur.interval !== 1) return null
  let until = ''
  if (recur.until) {
    const wall = recur.until.isDate
      ? { year: recur.until.year, month: recur.until.month, day: recur.until.day }
      : wallClockOf(recur.until.toJSDate().getTime(), zone)
    until = `${wall.year}-${String(wall.month).padStart(2, '0')}-${String(wall.day).padStart(2, '0')}`
  }
  const byday = (parts.BYDAY ?? []).map(String)
  if (recur.freq === 'WEEKLY' && keys.every((k) => k === 'BYDAY')) {
    return {
      kind: 'weekly',
      days: byday.filter((d): d is WeekdayCode => (weekdayCodes as readonly string[]).includes(d)),
      until,
    }
  }
  if (recur.freq === 'MONTHLY' && keys.length === 1 && byday.length === 1 && /^-?\d/.test(byday[0]!)) {
    return { kind: 'monthly-weekday', days: [], until }
  }
  if (recur.freq === 'MONTHLY' && keys.length === 1 && (parts.BYMONTHDAY ?? []).length === 1) {
    return { kind: 'monthly-date', days: [], until }
  }
  if (recur.freq === 'YEARLY' && keys.every((k) => k === 'BYMONTH' || k === 'BYMONTHDAY')) {
    return { kind: 'yearly', days: [], until }
  }
  return null
}

const timeOfDay = (instant: number, zone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit' })
    .format(new Date(instant))
    .replace(/\u202f/g, ' ')

const listed = (words: string[]) =>
  words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`

/**
 * A rule in plain words for the editor: "Every month on the second Tuesday, 7:00 PM",
 * "Every week on Saturday, 8:00 AM, until October 31, 2027". A rule the words do not cover is
 * shown as written.
 */
export function describeRule(rrule: string, startsAt: string, zone: string, allDay = false): string {
  let recur: ICAL.Recur
  try {
    recur = ICAL.Recur.fromString(rrule)
  } catch {
    return rrule
  }
  const start = Date.parse(startsAt)
  const wall = wallClockOf(start, zone)
  const parts = recur.parts as Record<string, Array<string | number> | undefined>
  const every = (unit: string) => (recur.interval > 1 ? `Every ${recur.interval} ${unit}s` : `Every ${unit}`)
  const byday = (parts.BYDAY ?? []).map(String)
  const dayName = (code: string) => weekdayNames[weekdayCodes.indexOf(code.slice(-2) as WeekdayCode)] ?? code
  let words: string
  switch (recur.freq) {
    case 'DAILY':
      words = every('day')
      break
    case 'WEEKLY': {
      const days =
        byday.length > 0 ? byday : [weekdayCodes[new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay()]!]
      words = `${every('week')} on ${listed(days.map(dayName))}`
      break
    }
    case 'MONTHLY': {
      const nth = /^([+-]?\d)([A-Z]{2})$/.exec(byday[0] ?? '')
      const monthDay = parts.BYMONTHDAY?.[0]
      if (nth)
        words = `${every('month')} on the ${ordinals[Number(nth[1]) < 0 ? 0 : Number(nth[1])] ?? nth[1]} ${dayName(nth[2]!)}`
      else words = `${every('month')} on day ${monthDay ?? wall.day}`
      break
    }
    case 'YEARLY': {
      const month = Number(parts.BYMONTH?.[0] ?? wall.month)
      words = `${every('year')} on ${monthNames[month - 1]} ${parts.BYMONTHDAY?.[0] ?? wall.day}`
      break
    }
    default:
      return rrule
  }
  words += allDay ? ', all day' : `, ${timeOfDay(start, zone)}`
  if (recur.count !== null) words += `, ${recur.count} times`
  if (recur.until) {
    const until = recur.until.isDate
      ? new Date(Date.UTC(recur.until.year, recur.until.month - 1, recur.until.day, 12))
      : recur.until.toJSDate()
    words += `, until ${new Intl.DateTimeFormat('en-US', { timeZone: recur.until.isDate ? 'UTC' : zone, month: 'long', day: 'numeric', year: 'numeric' }).format(until)}`
  }
  return words
}
