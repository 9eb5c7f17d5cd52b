import { describe, expect, test } from 'vitest'
import type { CommunityEvent } from '@roland/scripts/catalog/types'
import ICAL from 'ical.js'
import { occurrencesOf } from '@roland/scripts/events/recurrence'
import { calendarEvent, calendarEvents, eventIcsPath, icsCalendar, type IcsEvent } from './ics.ts'
import { readIcs } from '../../test/support/read-ics.ts'
import { fixtureTown } from '../../scripts/test/fixtures/catalog.ts'

const town = fixtureTown()

const octets = (line: string) => new TextEncoder().encode(line).length

const site = new URL('https://roland-ar.example')
const stamp = new Date('2026-11-21T12:00:00Z')

const garden: CommunityEvent = {
  id: '00000000-0000-4000-8000-000000000001',
  slug: 'community-garden-planning-meeting',
  title: 'Community Garden Planning Meeting',
  description:
    'Help plan the Roland Community Garden: plot layout, the water line and who grows what in the first season. Bring ideas and a neighbour.',
  // 7:00 PM to 8:30 PM in Roland (CST, UTC−6).
  starts_at: '2026-12-29T01:00:00+00:00',
  ends_at: '2026-12-29T02:30:00+00:00',
  location: 'Roland Community Center',
  event_type: 'Planning',
}

describe('icsCalendar text', () => {
  const write = (summary: string) =>
    icsCalendar({ name: 'Roland', events: [{ ...calendarEvent(garden, site, town), summary }], stamp, town })
  const lines = (text: string) => text.split('\r\n')

  test('escapes backslashes, semicolons, commas and line breaks, and leaves colons and quotes', () => {
    const text = write('Potluck; bring a dish, a chair\\stool\nand: "friends"')
    expect(text.replace(/\r\n /g, '')).toContain(
      'SUMMARY:Potluck\\; bring a dish\\, a chair\\\\stool\\nand: "friends"\r\n',
    )
  })

  test('folds a long line into lines of at most 75 octets, never inside a character', () => {
    const summary = 'é🌱'.repeat(40)
    const text = write(summary)
    for (const line of lines(text)) {
      expect(octets(line), line).toBeLessThanOrEqual(75)
      expect(line).not.toContain('\uFFFD')
    }
    expect(text.replace(/\r\n /g, '')).toContain(`SUMMARY:${summary}\r\n`)
  })

  test('writes a single event in UTC', () => {
    expect(write('Garden')).toContain('DTSTART:20261229T010000Z\r\n')
  })
})

describe('a series', () => {
  // Every Tuesday at 7:00 PM in Roland from February 2027: across the change to daylight time
  // on March 14; March 16 cancelled, March 23 moved to Wednesday March 24 at 6:30 PM.
  const series: CommunityEvent = {
    ...garden,
    id: '00000000-0000-4000-8000-000000000002',
    slug: 'council',
    title: 'Council meeting',
    starts_at: '2027-02-23T19:00:00-06:00',
    ends_at: '2027-02-23T20:00:00-06:00',
    rrule: 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20270406T050000Z',
    exdates: ['2027-03-16T19:00:00-05:00'],
  }
  const moved: CommunityEvent = {
    ...series,
    id: '00000000-0000-4000-8000-000000000003',
    slug: 'council-moved',
    rrule: null,
    exdates: [],
    series_id: series.id,
    recurrence_id: '2027-03-23T19:00:00-05:00',
    starts_at: '2027-03-24T18:30:00-05:00',
    ends_at: '2027-03-24T19:30:00-05:00',
  }
  const text = icsCalendar({ name: 'Roland', events: calendarEvents([series, moved], site, town), stamp, town })
  const unfolded = text.replace(/\r\n /g, '')

  test("is one VEVENT with Roland's wall-clock times, its RRULE, its EXDATE and the zone's VTIMEZONE", () => {
    expect(unfolded).toContain('BEGIN:VTIMEZONE\r\nTZID:America/Chicago\r\n')
    expect(unfolded).toContain('DTSTART;TZID=America/Chicago:20270223T190000\r\n')
    expect(unfolded).toContain('RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270406T050000Z\r\n')
    expect(unfolded).toContain('EXDATE;TZID=America/Chicago:20270316T190000\r\n')
    expect(unfolded).toContain('RECURRENCE-ID;TZID=America/Chicago:20270323T190000\r\n')
    expect(unfolded.match(/UID:council@roland-ar\.example/g)).toHaveLength(2)
  })

  test('reads back in ical.js to the same occurrences as the expansion the site lists', () => {
    const calendar = new ICAL.Component(ICAL.parse(text))
    for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone)
    const vevents = calendar.getAllSubcomponents('vevent')
    const event = new ICAL.Event(vevents.find((v) => !v.hasProperty('recurrence-id')))
    for (const exception of vevents.filter((v) => v.hasProperty('recurrence-id'))) {
      event.relateException(new ICAL.Event(exception))
    }
    const read: string[] = []
    const iterator = event.iterator()
    for (let next = iterator.next(); next; next = iterator.next()) {
      read.push(event.getOccurrenceDetails(next).startDate.toJSDate().toISOString())
    }
    const expanded = occurrencesOf(series, new Date('2027-01-01'), new Date('2028-01-01'), 'America/Chicago')
      .map((o) => o.starts_at)
      .map((start) =>
        start === new Date(moved.recurrence_id!).toISOString() ? new Date(moved.starts_at).toISOString() : start,
      )
    expect(read).toEqual(expanded)
    // 7:00 PM before and after the change: 01:00 UTC in February, 00:00 UTC in late March.
    expect(read[0]).toBe('2027-02-24T01:00:00.000Z')
    expect(read).toContain('2027-03-31T00:00:00.000Z')
    expect(read).not.toContain('2027-03-17T00:00:00.000Z')
    ICAL.TimezoneService.reset()
  })
})

describe('calendarEvent', () => {
  test('gives an event a UID from its slug and the site host, and its page on the site', () => {
    const event = calendarEvent(garden, new URL('https://roland-ar.example:8443/any/path'), town)
    expect(event.uid).toBe('community-garden-planning-meeting@roland-ar.example')
    expect(event.url).toBe('https://roland-ar.example:8443/events#community-garden-planning-meeting')
  })

  test('marks a cancelled event STATUS:CANCELLED, so subscribed calendars show it called off', () => {
    const cancelled = calendarEvent({ ...garden, is_cancelled: true }, site, town)
    expect(icsCalendar({ name: 'Roland', events: [cancelled], stamp: new Date(0), town })).toContain(
      'STATUS:CANCELLED\r\n',
    )
    expect(
      icsCalendar({ name: 'Roland', events: [calendarEvent(garden, site, town)], stamp: new Date(0), town }),
    ).not.toContain('STATUS:')
  })

  test('keeps the same UID from one build to the next', () => {
    expect(calendarEvent(garden, site, town).uid).toBe(calendarEvent({ ...garden, title: 'Renamed' }, site, town).uid)
  })

  test('places the event in Roland, AR 72135 unless its location gives a state or ZIP already', () => {
    expect(calendarEvent(garden, site, town).location).toBe('Roland Community Center, Roland, AR 72135')
    expect(calendarEvent({ ...garden, location: 'Lake Maumelle boat ramp' }, site, town).location).toBe(
      'Lake Maumelle boat ramp, Roland, AR 72135',
    )
    expect(
      calendarEvent({ ...garden, location: '11901 Pinnacle Valley Rd, Little Rock, AR 72223' }, site, town).location,
    ).toBe('11901 Pinnacle Valley Rd, Little Rock, AR 72223')
  })

  test('has no end when the event has none', () => {
    expect(calendarEvent({ ...garden, ends_at: null }, site, town).end).toBeNull()
  })
})

describe('eventIcsPath', () => {
  test("is the event's own file under /events", () => {
    expect(eventIcsPath(garden)).toBe('/events/community-garden-planning-meeting.ics')
  })
})

describe('icsCalendar', () => {
  const text = icsCalendar({
    name: 'Roland, Arkansas community events',
    events: [calendarEvent(garden, site, town)],
    stamp,
    town,
  })

  test('ends every line with CRLF and keeps every line within 75 octets', () => {
    expect(text.endsWith('\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    for (const line of text.split('\r\n')) expect(octets(line), line).toBeLessThanOrEqual(75)
  })

  test('writes the calendar and the event as RFC 5545 asks', () => {
    const lines = text.replace(/\r\n /g, '').split('\r\n')
    expect(lines.slice(0, 3)).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Roland Arkansas//Community events//EN',
    ])
    expect(lines).toContain('X-WR-CALNAME:Roland\\, Arkansas community events')
    const event = lines.slice(lines.indexOf('BEGIN:VEVENT'), lines.indexOf('END:VEVENT') + 1)
    expect(event).toEqual([
      'BEGIN:VEVENT',
      'UID:community-garden-planning-meeting@roland-ar.example',
      'DTSTAMP:20261121T120000Z',
      'DTSTART:20261229T010000Z',
      'DTEND:20261229T023000Z',
      'SUMMARY:Community Garden Planning Meeting',
      'DESCRIPTION:Help plan the Roland Community Garden: plot layout\\, the water line and who grows what in the first season. Bring ideas and a neighbour.',
      'LOCATION:Roland Community Center\\, Roland\\, AR 72135',
      'CATEGORIES:Planning',
      'URL:https://roland-ar.example/events#community-garden-planning-meeting',
      'END:VEVENT',
    ])
    expect(lines.at(-2)).toBe('END:VCALENDAR')
  })

  test('reads back to the events it was written from', () => {
    const tricky: IcsEvent = {
      uid: 'potluck@roland-ar.example',
      start: new Date('2027-01-16T00:00:00Z'),
      end: null,
      summary: 'Potluck; covered dishes, drinks & "the usual"',
      description: 'Line one\nLine two, with a backslash \\ and a seedling 🌱 — '.repeat(4),
      location: 'Roland Community Center',
      url: 'https://roland-ar.example/events#potluck',
      categories: 'Social',
    }
    const read = readIcs(
      icsCalendar({ name: 'Events', events: [calendarEvent(garden, site, town), tricky], stamp, town }),
    )
    expect(read.events).toHaveLength(2)
    expect(read.events[1]).toEqual({
      UID: tricky.uid,
      DTSTAMP: '20261121T120000Z',
      DTSTART: '20270116T000000Z',
      SUMMARY: tricky.summary,
      DESCRIPTION: tricky.description,
      LOCATION: tricky.location,
      CATEGORIES: 'Social',
      URL: tricky.url,
    })
    expect(read.events[0]).toMatchObject({
      SUMMARY: garden.title,
      DESCRIPTION: garden.description,
      DTEND: '20261229T023000Z',
    })
    expect(read.calendar.NAME).toBe('Events')
    expect(read.calendar['X-WR-CALNAME']).toBe('Events')
  })
})
