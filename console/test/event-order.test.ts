import { describe, expect, test } from 'vitest'
import { inEventOrder, nextOccurrence } from '../src/app/event-order.ts'

// The Events screen's order, over plain rows: what comes next first, then what is over.

const zone = 'America/Chicago'
const now = Date.parse('2027-03-10T18:00:00Z')

const single = (slug: string, starts_at: string, ends_at: string | null = null) => ({
  slug,
  starts_at,
  ends_at,
  rrule: null as string | null,
  exdates: [] as string[],
})

describe('nextOccurrence', () => {
  test('is a single event’s start while it has not ended, and null once it has', () => {
    expect(nextOccurrence(single('later', '2027-03-11T15:00:00Z'), now, zone)).toBe(Date.parse('2027-03-11T15:00:00Z'))
    const underWay = single('under-way', '2027-03-10T17:00:00Z', '2027-03-10T19:00:00Z')
    expect(nextOccurrence(underWay, now, zone)).toBe(Date.parse('2027-03-10T17:00:00Z'))
    expect(nextOccurrence(single('over', '2027-03-10T16:00:00Z', '2027-03-10T17:00:00Z'), now, zone)).toBeNull()
  })

  test('is a series’ next occurrence, not its first start, and null when the series has ended', () => {
    // Every Wednesday at noon in Roland, from 2026: 18:00 UTC until daylight time starts on 14 March 2027, then 17:00.
    const weekly = { ...single('weekly', '2026-01-07T18:00:00Z', '2026-01-07T19:00:00Z'), rrule: 'FREQ=WEEKLY' }
    // 2027-03-10 is a Wednesday: that occurrence is under way at 18:00 UTC.
    expect(new Date(nextOccurrence(weekly, now, zone)!).toISOString()).toBe('2027-03-10T18:00:00.000Z')
    expect(new Date(nextOccurrence(weekly, now + 2 * 3_600_000, zone)!).toISOString()).toBe('2027-03-17T17:00:00.000Z')
    const ended = { ...weekly, slug: 'ended', rrule: 'FREQ=WEEKLY;COUNT=3' }
    expect(nextOccurrence(ended, now, zone)).toBeNull()
  })

  test('skips a cancelled date of a series', () => {
    const weekly = { ...single('weekly', '2027-03-03T18:00:00Z', '2027-03-03T19:00:00Z'), rrule: 'FREQ=WEEKLY' }
    const skipped = { ...weekly, exdates: ['2027-03-10T18:00:00Z'] }
    expect(new Date(nextOccurrence(skipped, now, zone)!).toISOString()).toBe('2027-03-17T17:00:00.000Z')
  })
})

describe('inEventOrder', () => {
  test('lists the next event first, then the rest coming, then past events latest first', () => {
    const events = [
      single('next-year', '2028-01-01T15:00:00Z'),
      single('last-week', '2027-03-03T15:00:00Z'),
      single('tomorrow', '2027-03-11T15:00:00Z'),
      single('last-year', '2026-03-01T15:00:00Z'),
      { ...single('weekly-from-2026', '2026-01-01T20:00:00Z'), rrule: 'FREQ=WEEKLY' },
      single('yesterday', '2027-03-09T15:00:00Z'),
    ]
    expect(inEventOrder(events, now, zone).map((event) => event.slug)).toEqual([
      'tomorrow',
      // Its next occurrence is Thursday 11 March, after tomorrow's morning event.
      'weekly-from-2026',
      'next-year',
      'yesterday',
      'last-week',
      'last-year',
    ])
  })
})
