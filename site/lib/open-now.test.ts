import { afterEach, describe, expect, test } from 'vitest'
import type { BusinessHours } from '@roland/scripts/catalog/types'
import { parseHours } from '@roland/scripts/migrate/hours'
import {
  badgeText,
  openState,
  showOpenNow,
  townClocks,
  weekHours,
  type BadgeElement,
  type TownClock,
  type WeekHours,
} from './open-now.ts'

const zone = 'America/Chicago'

const [sun, mon, tue, wed, thu, fri, sat] = [0, 1, 2, 3, 4, 5, 6]

const row = (day_of_week: number, opens_at: string | null, closes_at: string | null = null): BusinessHours => ({
  day_of_week,
  opens_at,
  closes_at,
  is_closed: opens_at === null,
})

/** A moment of Roland's week: day and "HH:MM". */
const at = (day: number, time: string): TownClock => {
  const [h, m] = time.split(':').map(Number)
  return { day, minute: h! * 60 + m! }
}

/** The badge a business shows at a moment of Roland's week, or null for none. */
const badge = (hours: WeekHours, clock: TownClock) => {
  const state = openState(hours, clock)
  return state && badgeText(state)
}

/** The week of rows given, read as the page ships it. */
const week = (...rows: BusinessHours[]) => weekHours(rows)!

const weekdays9to5 = week(
  ...[mon, tue, wed, thu, fri].map((d) => row(d, '09:00:00', '17:00:00')),
  row(sat, null),
  row(sun, null),
)

describe('weekHours', () => {
  test('gives nothing for a business without opening hours', () => {
    expect(weekHours([])).toBeNull()
  })

  test("treats 'Appointments only' and 'By appointment' as unknown: no rows, so no week and no badge", () => {
    for (const hours of ['Appointments only', 'By appointment', 'Mon-Fri 7:30am-5:30pm, Sat by appointment']) {
      const rows = parseHours(hours).map((parsed) => ({
        day_of_week: parsed.day_of_week,
        opens_at: 'opens_at' in parsed ? parsed.opens_at : null,
        closes_at: 'closes_at' in parsed ? parsed.closes_at : null,
        is_closed: 'is_closed' in parsed,
      }))
      expect(weekHours(rows), hours).toBeNull()
    }
  })

  test('keeps minutes after midnight per day, earliest opening first; a closed day has none, an unlisted day is unknown', () => {
    expect(
      weekHours([
        row(tue, '17:00:00', '21:30:00'),
        row(tue, '11:00:00', '14:00:00'),
        row(sun, null),
        row(fri, '18:00:00', '02:00:00'),
      ]),
    ).toEqual([
      [],
      null,
      [
        [660, 840],
        [1020, 1290],
      ],
      null,
      null,
      [[1080, 120]],
      null,
    ])
  })

  test('reads the database time format and the short one alike', () => {
    expect(weekHours([row(mon, '07:30', '16:45')])![mon]).toEqual([[450, 1005]])
  })
})

describe('townClocks', () => {
  const townClock = townClocks()
  const timeZone = process.env.TZ
  afterEach(() => {
    if (timeZone === undefined) delete process.env.TZ
    else process.env.TZ = timeZone
  })

  test('reads Central Standard Time in winter and Central Daylight Time in summer', () => {
    expect(townClock(new Date('2026-01-12T13:30:00Z'), zone)).toEqual(at(mon, '07:30'))
    expect(townClock(new Date('2026-07-13T12:30:00Z'), zone)).toEqual(at(mon, '07:30'))
  })

  test('turns the day at Roland’s midnight, not at UTC’s', () => {
    expect(townClock(new Date('2026-01-13T05:59:00Z'), zone)).toEqual(at(mon, '23:59'))
    expect(townClock(new Date('2026-01-13T06:00:00Z'), zone)).toEqual(at(tue, '00:00'))
    expect(townClock(new Date('2026-01-18T05:30:00Z'), zone)).toEqual(at(sat, '23:30'))
  })

  test('jumps from 1:59 to 3:00 when daylight saving starts, and repeats 1:00 to 2:00 when it ends', () => {
    expect(townClock(new Date('2026-03-08T07:59:00Z'), zone)).toEqual(at(sun, '01:59'))
    expect(townClock(new Date('2026-03-08T08:00:00Z'), zone)).toEqual(at(sun, '03:00'))
    expect(townClock(new Date('2026-11-01T06:30:00Z'), zone)).toEqual(at(sun, '01:30'))
    expect(townClock(new Date('2026-11-01T07:30:00Z'), zone)).toEqual(at(sun, '01:30'))
    expect(townClock(new Date('2026-11-01T08:30:00Z'), zone)).toEqual(at(sun, '02:30'))
  })

  test('reads the same time for a visitor in Tokyo, London or Honolulu', () => {
    const moment = new Date('2026-05-01T22:15:00Z')
    for (const zone of ['Asia/Tokyo', 'Europe/London', 'Pacific/Honolulu', 'America/Chicago']) {
      process.env.TZ = zone
      expect(townClock(moment, 'America/Chicago'), zone).toEqual(at(fri, '17:15'))
    }
  })
})

describe('openState', () => {
  test('is open from the opening minute up to, not including, the closing minute', () => {
    expect(badge(weekdays9to5, at(mon, '08:59'))).toBe('Closed · opens today 9:00 AM')
    expect(badge(weekdays9to5, at(mon, '09:00'))).toBe('Open now')
    expect(badge(weekdays9to5, at(mon, '16:59'))).toBe('Open now')
    expect(badge(weekdays9to5, at(mon, '17:00'))).toBe('Closed · opens tomorrow 9:00 AM')
  })

  test('skips closed days to the next opening, across the end of the week', () => {
    expect(badge(weekdays9to5, at(fri, '17:30'))).toBe('Closed · opens Monday 9:00 AM')
    expect(badge(weekdays9to5, at(sat, '12:00'))).toBe('Closed · opens Monday 9:00 AM')
    expect(badge(weekdays9to5, at(sun, '23:59'))).toBe('Closed · opens tomorrow 9:00 AM')
  })

  test('is closed between the two shifts of a split day, and opens again for the second', () => {
    const diner = week(row(tue, '11:00:00', '14:00:00'), row(tue, '17:00:00', '21:00:00'), row(wed, null))
    expect(badge(diner, at(tue, '13:59'))).toBe('Open now')
    expect(badge(diner, at(tue, '15:00'))).toBe('Closed · opens today 5:00 PM')
    expect(badge(diner, at(tue, '17:00'))).toBe('Open now')
    expect(badge(diner, at(tue, '21:00'))).toBe('Closed')
  })

  test('keeps a late opening open after midnight, into the next day', () => {
    const bar = week(row(fri, '17:00:00', '02:00:00'), row(sat, '17:00:00', '02:00:00'), row(sun, null), row(thu, null))
    expect(badge(bar, at(fri, '23:59'))).toBe('Open now')
    expect(badge(bar, at(sat, '00:00'))).toBe('Open now')
    expect(badge(bar, at(sat, '01:59'))).toBe('Open now')
    expect(badge(bar, at(sat, '02:00'))).toBe('Closed · opens today 5:00 PM')
    expect(badge(bar, at(thu, '12:00'))).toBe('Closed · opens tomorrow 5:00 PM')
  })

  test("carries Saturday night's opening into Sunday morning", () => {
    const bar = week(row(sat, '20:00:00', '01:00:00'), row(sun, null))
    expect(badge(bar, at(sun, '00:30'))).toBe('Open now')
    expect(badge(bar, at(sun, '01:00'))).toBe('Closed')
  })

  test('closes at midnight when the closing time is 00:00', () => {
    const grill = week(row(fri, '11:00:00', '00:00:00'), row(sat, null))
    expect(badge(grill, at(fri, '23:59'))).toBe('Open now')
    expect(badge(grill, at(sat, '00:00'))).toBe('Closed')
  })

  test("is always open where every day is 'Open 24 hours' (00:00 to 00:00)", () => {
    const market = week(...[sun, mon, tue, wed, thu, fri, sat].map((d) => row(d, '00:00:00', '00:00:00')))
    for (const clock of [at(sun, '00:00'), at(wed, '12:00'), at(sat, '23:59')])
      expect(badge(market, clock)).toBe('Open now')
  })

  test('says nothing on a day whose hours are unknown, unless a known opening covers the moment', () => {
    const cafe = week(row(mon, '07:00:00', '17:00:00'), row(fri, '18:00:00', '01:00:00'))
    expect(openState(cafe, at(tue, '10:00'))).toBeNull()
    expect(openState(cafe, at(sun, '10:00'))).toBeNull()
    expect(badge(cafe, at(sat, '00:30'))).toBe('Open now')
    expect(openState(cafe, at(sat, '01:00'))).toBeNull()
  })

  test("says only 'Closed' when an unknown day comes before the next opening", () => {
    const cafe = week(row(mon, '07:00:00', '17:00:00'), row(wed, '07:00:00', '17:00:00'))
    expect(badge(cafe, at(mon, '18:00'))).toBe('Closed')
    expect(badge(cafe, at(mon, '06:00'))).toBe('Closed · opens today 7:00 AM')
  })

  test("says 'Closed' without a next opening for a business closed every day", () => {
    const shut = week(...[sun, mon, tue, wed, thu, fri, sat].map((d) => row(d, null)))
    expect(openState(shut, at(wed, '12:00'))).toEqual({ open: false, next: null })
  })

  test('looks a whole week ahead for a business open one day a week', () => {
    const market = week(...[sun, mon, tue, wed, thu, fri].map((d) => row(d, null)), row(sat, '07:00:00', '12:00:00'))
    expect(badge(market, at(sat, '06:00'))).toBe('Closed · opens today 7:00 AM')
    expect(badge(market, at(sat, '13:00'))).toBe('Closed · opens next Saturday 7:00 AM')
    expect(badge(market, at(thu, '13:00'))).toBe('Closed · opens Saturday 7:00 AM')
    expect(openState(market, at(sat, '13:00'))).toEqual({ open: false, next: { inDays: 7, day: sat, minute: 420 } })
  })
})

describe('the badge at real moments', () => {
  const bakery = week(row(sun, '08:00:00', '12:00:00'), ...[mon, tue, wed, thu, fri, sat].map((d) => row(d, null)))
  const townClock = townClocks()
  const badgeAt = (iso: string) => badge(bakery, townClock(new Date(iso), zone))

  test('opens at 8:00 local time on the Sunday daylight saving starts (13:00 UTC, not 14:00)', () => {
    expect(badgeAt('2026-03-08T12:59:00Z')).toBe('Closed · opens today 8:00 AM')
    expect(badgeAt('2026-03-08T13:00:00Z')).toBe('Open now')
    expect(badgeAt('2026-03-08T16:59:00Z')).toBe('Open now')
    expect(badgeAt('2026-03-08T17:00:00Z')).toBe('Closed · opens next Sunday 8:00 AM')
  })

  test('opens at 8:00 local time on the Sunday daylight saving ends (14:00 UTC, not 13:00)', () => {
    expect(badgeAt('2026-11-01T13:30:00Z')).toBe('Closed · opens today 8:00 AM')
    expect(badgeAt('2026-11-01T14:00:00Z')).toBe('Open now')
  })
})

describe('badgeText', () => {
  test('names the next opening today, tomorrow, by weekday, or next week', () => {
    expect(badgeText({ open: true })).toBe('Open now')
    expect(badgeText({ open: false, next: null })).toBe('Closed')
    expect(badgeText({ open: false, next: { inDays: 0, day: mon, minute: 17 * 60 + 30 } })).toBe(
      'Closed · opens today 5:30 PM',
    )
    expect(badgeText({ open: false, next: { inDays: 1, day: tue, minute: 0 } })).toBe(
      'Closed · opens tomorrow 12:00 AM',
    )
    expect(badgeText({ open: false, next: { inDays: 3, day: thu, minute: 12 * 60 + 5 } })).toBe(
      'Closed · opens Thursday 12:05 PM',
    )
    expect(badgeText({ open: false, next: { inDays: 7, day: mon, minute: 7 * 60 } })).toBe(
      'Closed · opens next Monday 7:00 AM',
    )
  })
})

describe('showOpenNow', () => {
  const element = (hours: WeekHours): BadgeElement => ({
    dataset: { openNow: JSON.stringify(hours), timeZone: zone },
    hidden: true,
    textContent: '',
  })

  test('fills in and reveals each badge whose state is known, and leaves the others hidden', () => {
    const known = element(weekdays9to5)
    const unknown = element(week(row(sat, '09:00:00', '12:00:00')))
    // Monday 12 January 2026, 10:00 in Roland.
    showOpenNow([known, unknown], new Date('2026-01-12T16:00:00Z'))
    expect(known).toMatchObject({ hidden: false, textContent: 'Open now', dataset: { state: 'open' } })
    expect(unknown).toMatchObject({ hidden: true, textContent: '' })
  })

  test('hides a badge again when its state becomes unknown', () => {
    const cafe = element(week(row(mon, '07:00:00', '17:00:00')))
    showOpenNow([cafe], new Date('2026-01-12T23:30:00Z'))
    expect(cafe).toMatchObject({ hidden: false, textContent: 'Closed', dataset: { state: 'closed' } })
    showOpenNow([cafe], new Date('2026-01-13T16:00:00Z'))
    expect(cafe.hidden).toBe(true)
  })
})
