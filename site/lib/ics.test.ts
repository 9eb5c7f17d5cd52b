import { describe, expect, test } from 'vitest'
import type { CommunityEvent } from '@roland/scripts/catalog/types'
import {
  calendarEvent,
  escapeText,
  eventIcsPath,
  foldLine,
  icsCalendar,
  icsDateTime,
  readIcs,
  type IcsEvent,
} from './ics.ts'
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

describe('escapeText', () => {
  test('escapes backslashes, semicolons, commas and line breaks', () => {
    expect(escapeText('Potluck; bring a dish, a chair\\stool\nand a friend\r\nor two')).toBe(
      'Potluck\\; bring a dish\\, a chair\\\\stool\\nand a friend\\nor two',
    )
  })

  test('leaves colons and quotes as they are', () => {
    expect(escapeText('Agenda: "the water line"')).toBe('Agenda: "the water line"')
  })
})

describe('foldLine', () => {
  test('leaves a line of 75 octets whole', () => {
    const line = `SUMMARY:${'x'.repeat(67)}`
    expect(octets(line)).toBe(75)
    expect(foldLine(line)).toBe(line)
  })

  test('folds a longer line into lines of at most 75 octets, each continuation starting with a space', () => {
    const line = `DESCRIPTION:${'abcdefghij'.repeat(20)}`
    const folded = foldLine(line).split('\r\n')
    expect(folded.length).toBe(3)
    expect(folded.map(octets)).toEqual([75, 75, 64])
    expect(folded.slice(1).every((l) => l.startsWith(' '))).toBe(true)
    expect(
      folded[0] +
        folded
          .slice(1)
          .map((l) => l.slice(1))
          .join(''),
    ).toBe(line)
  })

  test('never splits a multi-octet character', () => {
    // "é" is two octets and "🌱" four: a fold at 75 octets would cut them in the middle.
    const line = `SUMMARY:${'é🌱'.repeat(30)}`
    const folded = foldLine(line).split('\r\n')
    for (const part of folded) {
      expect(octets(part)).toBeLessThanOrEqual(75)
      expect(part).not.toContain('\uFFFD')
    }
    expect(folded.map((l, i) => (i === 0 ? l : l.slice(1))).join('')).toBe(line)
  })
})

describe('icsDateTime', () => {
  test('writes a moment in UTC', () => {
    expect(icsDateTime(new Date('2026-12-28T19:00:00-06:00'))).toBe('20261229T010000Z')
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
    const values = (event: (typeof read.events)[number]) => Object.fromEntries(event.map((p) => [p.name, p.value]))
    expect(values(read.events[1]!)).toEqual({
      UID: tricky.uid,
      DTSTAMP: '20261121T120000Z',
      DTSTART: '20270116T000000Z',
      SUMMARY: tricky.summary,
      DESCRIPTION: tricky.description,
      LOCATION: tricky.location,
      CATEGORIES: 'Social',
      URL: tricky.url,
    })
    expect(values(read.events[0]!)).toMatchObject({
      SUMMARY: garden.title,
      DESCRIPTION: garden.description,
      DTEND: '20261229T023000Z',
    })
    expect(read.calendar.find((p) => p.name === 'NAME')?.value).toBe('Events')
  })
})

describe('readIcs', () => {
  test('reads parameters, and a colon inside a quoted parameter value', () => {
    const { calendar } = readIcs(
      'BEGIN:VCALENDAR\r\nX-NOTE;LANGUAGE=en;ALTREP="https://a.example/x":Hello\\, world\r\nEND:VCALENDAR\r\n',
    )
    expect(calendar[1]).toEqual({
      name: 'X-NOTE',
      params: { LANGUAGE: 'en', ALTREP: '"https://a.example/x"' },
      value: 'Hello, world',
    })
  })
})
