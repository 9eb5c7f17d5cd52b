import { describe, expect, test } from 'vitest'
import type { BusinessHours } from '@roland/scripts/catalog/types'
import { formatClock, hoursRows, timeZoneName } from './hours.ts'

const hours = (day_of_week: number, opens_at: string | null, closes_at: string | null): BusinessHours => ({
  day_of_week,
  opens_at,
  closes_at,
  is_closed: opens_at === null,
})

describe('formatClock', () => {
  test('writes times on a twelve-hour clock', () => {
    expect(formatClock('07:00:00')).toBe('7:00 AM')
    expect(formatClock('17:30')).toBe('5:30 PM')
    expect(formatClock('00:00:00')).toBe('12:00 AM')
    expect(formatClock('12:15:00')).toBe('12:15 PM')
  })
})

describe('hoursRows', () => {
  test('lists the week from Monday: closed where the business says so, not listed where it says nothing', () => {
    const rows = hoursRows([hours(1, '07:00:00', '17:00:00'), hours(0, null, null), hours(6, '08:00:00', '12:00:00')])
    expect(rows).toEqual([
      { day: 'Monday', hours: '7:00 AM – 5:00 PM' },
      { day: 'Tuesday', hours: 'Hours not listed' },
      { day: 'Wednesday', hours: 'Hours not listed' },
      { day: 'Thursday', hours: 'Hours not listed' },
      { day: 'Friday', hours: 'Hours not listed' },
      { day: 'Saturday', hours: '8:00 AM – 12:00 PM' },
      { day: 'Sunday', hours: 'Closed' },
    ])
  })

  test('joins two openings on one day, earliest first', () => {
    const rows = hoursRows([hours(2, '17:00:00', '21:00:00'), hours(2, '11:00:00', '14:00:00')])
    expect(rows[1]).toEqual({ day: 'Tuesday', hours: '11:00 AM – 2:00 PM, 5:00 PM – 9:00 PM' })
  })

  test('writes a closing after midnight as the clock reads it', () => {
    expect(hoursRows([hours(5, '17:00:00', '02:00:00')])[4]).toEqual({ day: 'Friday', hours: '5:00 PM – 2:00 AM' })
    expect(hoursRows([hours(5, '11:00:00', '00:00:00')])[4]).toEqual({ day: 'Friday', hours: '11:00 AM – 12:00 AM' })
  })

  test("says 'Open 24 hours' for a day that opens and closes at midnight", () => {
    expect(hoursRows([hours(3, '00:00:00', '00:00:00')])[2]).toEqual({ day: 'Wednesday', hours: 'Open 24 hours' })
  })

  test('gives no table for a business without opening hours', () => {
    expect(hoursRows([])).toEqual([])
  })
})

describe('timeZoneName', () => {
  test("names a zone as people say it, whatever the season: the town's zone is a setting", () => {
    expect(timeZoneName('America/Chicago')).toBe('Central Time')
    expect(timeZoneName('America/Denver')).toBe('Mountain Time')
    expect(timeZoneName('America/Phoenix')).toBe('Mountain Standard Time')
  })
})
