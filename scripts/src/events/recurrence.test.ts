import { describe, expect, test } from 'vitest'
import {
  describeRule,
  expandEvents,
  nextStarts,
  occurrencesOf,
  patternOfRule,
  ruleOfPattern,
  ruleProblem,
  type SeriesEvent,
} from './recurrence.ts'

const zone = 'America/Chicago'
/** An instant as Roland's wall clock: "2027-03-16 19:00". */
const local = (iso: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso))

describe('occurrencesOf', () => {
  test('keeps a weekly 7 pm meeting at 7 pm across the changes of March and November', () => {
    // Tuesdays from February 2027: daylight time begins March 14 and ends November 7.
    const weekly = {
      starts_at: '2027-02-23T19:00:00-06:00',
      ends_at: '2027-02-23T20:30:00-06:00',
      rrule: 'FREQ=WEEKLY;BYDAY=TU',
    }
    const found = occurrencesOf(weekly, new Date('2027-03-01T00:00:00Z'), new Date('2027-11-20T00:00:00Z'), zone)
    expect(found.map((o) => local(o.starts_at)).every((t) => t.endsWith(' 19:00'))).toBe(true)
    expect(found.map((o) => local(o.ends_at!)).every((t) => t.endsWith(' 20:30'))).toBe(true)
    const byDay = new Map(found.map((o) => [local(o.starts_at).slice(0, 10), o.starts_at]))
    // Before and after each change, the same 7 pm is another hour in UTC.
    expect(byDay.get('2027-03-09')).toBe('2027-03-10T01:00:00.000Z')
    expect(byDay.get('2027-03-16')).toBe('2027-03-17T00:00:00.000Z')
    expect(byDay.get('2027-11-02')).toBe('2027-11-03T00:00:00.000Z')
    expect(byDay.get('2027-11-09')).toBe('2027-11-10T01:00:00.000Z')
    expect(found).toHaveLength(38)
  })

  test('leaves out the cancelled dates, and what ended before the window or starts after it', () => {
    const weekly = {
      starts_at: '2027-02-23T19:00:00-06:00',
      ends_at: null,
      rrule: 'FREQ=WEEKLY;BYDAY=TU',
      exdates: ['2027-03-16T19:00:00-05:00'],
    }
    const found = occurrencesOf(weekly, new Date('2027-03-01T00:00:00Z'), new Date('2027-04-01T00:00:00Z'), zone)
    expect(found.map((o) => local(o.starts_at).slice(0, 10))).toEqual([
      '2027-03-02',
      '2027-03-09',
      '2027-03-23',
      '2027-03-30',
    ])
  })

  test('ends a rule at its UNTIL and its COUNT', () => {
    const from = new Date('2027-01-01T00:00:00Z')
    const to = new Date('2028-01-01T00:00:00Z')
    const until = {
      starts_at: '2027-05-01T08:00:00-05:00',
      ends_at: null,
      rrule: 'FREQ=WEEKLY;BYDAY=SA;UNTIL=20270530T045959Z',
    }
    expect(occurrencesOf(until, from, to, zone).map((o) => local(o.starts_at))).toEqual([
      '2027-05-01 08:00',
      '2027-05-08 08:00',
      '2027-05-15 08:00',
      '2027-05-22 08:00',
      '2027-05-29 08:00',
    ])
    const count = { starts_at: '2027-01-12T19:00:00-06:00', ends_at: null, rrule: 'FREQ=MONTHLY;BYDAY=2TU;COUNT=3' }
    expect(occurrencesOf(count, from, to, zone).map((o) => local(o.starts_at))).toEqual([
      '2027-01-12 19:00',
      '2027-02-09 19:00',
      '2027-03-09 19:00',
    ])
  })

  test('repeats an all-day event on its dates, from midnight to midnight', () => {
    const fair = {
      starts_at: '2027-10-02T00:00:00-05:00',
      ends_at: '2027-10-04T00:00:00-05:00',
      all_day: true,
      rrule: 'FREQ=YEARLY',
    }
    const [first, second] = occurrencesOf(fair, new Date('2027-01-01'), new Date('2029-01-01'), zone)
    expect([local(first!.starts_at), local(first!.ends_at!)]).toEqual(['2027-10-02 00:00', '2027-10-04 00:00'])
    expect([local(second!.starts_at), local(second!.ends_at!)]).toEqual(['2028-10-02 00:00', '2028-10-04 00:00'])
  })

  test("keeps a feed's event in its own zone", () => {
    const utc = { starts_at: '2027-03-02T15:00:00Z', ends_at: null, rrule: 'FREQ=WEEKLY;COUNT=3', time_zone: 'UTC' }
    expect(occurrencesOf(utc, new Date('2027-01-01'), new Date('2028-01-01'), zone).map((o) => o.starts_at)).toEqual([
      '2027-03-02T15:00:00.000Z',
      '2027-03-09T15:00:00.000Z',
      '2027-03-16T15:00:00.000Z',
    ])
  })
})

describe('expandEvents', () => {
  const series: SeriesEvent = {
    id: 'a',
    slug: 'council',
    starts_at: '2027-02-23T19:00:00-06:00',
    ends_at: null,
    rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=4',
  }
  const moved: SeriesEvent = {
    id: 'b',
    slug: 'council-2',
    starts_at: '2027-03-10T18:00:00-06:00',
    ends_at: null,
    series_id: 'a',
    recurrence_id: '2027-03-09T19:00:00-06:00',
  }
  const single: SeriesEvent = { id: 'c', slug: 'potluck', starts_at: '2099-01-01T18:00:00-06:00', ends_at: null }

  test('lists the occurrences of a series with the single events, a moved date where it went, soonest first', () => {
    const listed = expandEvents([single, series, moved], new Date('2027-01-01'), new Date('2027-06-01'), zone)
    expect(listed.map((o) => [o.anchor, local(o.starts_at)])).toEqual([
      ['council-20270223', '2027-02-23 19:00'],
      ['council-20270302', '2027-03-02 19:00'],
      ['council-20270309', '2027-03-10 18:00'],
      ['council-20270316', '2027-03-16 19:00'],
      ['potluck', '2099-01-01 18:00'],
    ])
    // A moved date carries its series' slug, so "Add to calendar" gives the series.
    expect(listed[2]!.slug).toBe('council')
  })
})

describe('nextStarts', () => {
  test('gives the next dates from now, cancelled ones left out', () => {
    const monthly = {
      starts_at: '2027-01-12T19:00:00-06:00',
      ends_at: null,
      rrule: 'FREQ=MONTHLY;BYDAY=2TU',
      exdates: ['2027-04-13T19:00:00-05:00'],
    }
    expect(nextStarts(monthly, new Date('2027-03-01'), 3, zone).map(local)).toEqual([
      '2027-03-09 19:00',
      '2027-05-11 19:00',
      '2027-06-08 19:00',
    ])
  })
})

describe('ruleProblem', () => {
  test('accepts the rules of issue 40', () => {
    for (const rule of [
      'FREQ=MONTHLY;BYDAY=2TU',
      'FREQ=WEEKLY;BYDAY=SA;UNTIL=20271031T045959Z',
      'FREQ=DAILY;COUNT=5',
      'FREQ=WEEKLY;INTERVAL=2',
    ])
      expect(ruleProblem(rule), rule).toBeNull()
  })

  test('refuses what does not parse, and a rule with no end that repeats more often than weekly', () => {
    expect(ruleProblem('every tuesday')).toMatch(/not an iCalendar RRULE/)
    expect(ruleProblem('FREQ=WEEKLY;BYDAY=XX')).toMatch(/does not parse/)
    expect(ruleProblem('FREQ=WEEKLY;BYDAZE=TU')).toMatch(/does not know/)
    expect(ruleProblem('BYDAY=TU')).toMatch(/needs a FREQ/)
    expect(ruleProblem('FREQ=DAILY')).toMatch(/daily needs an end/)
    expect(ruleProblem('FREQ=HOURLY;INTERVAL=2')).toMatch(/hourly needs an end/)
    expect(ruleProblem('FREQ=WEEKLY;COUNT=2;UNTIL=20270101')).toMatch(/not both/)
  })
})

describe('describeRule', () => {
  test('says a rule in plain words with its local time', () => {
    expect(describeRule('FREQ=MONTHLY;BYDAY=2TU', '2027-01-12T19:00:00-06:00', zone)).toBe(
      'Every month on the second Tuesday, 7:00 PM',
    )
    expect(describeRule('FREQ=WEEKLY;BYDAY=SA;UNTIL=20271101T045959Z', '2027-05-01T08:00:00-05:00', zone)).toBe(
      'Every week on Saturday, 8:00 AM, until October 31, 2027',
    )
    expect(describeRule('FREQ=WEEKLY;BYDAY=MO,WE,FR', '2027-05-03T06:30:00-05:00', zone)).toBe(
      'Every week on Monday, Wednesday and Friday, 6:30 AM',
    )
    expect(describeRule('FREQ=MONTHLY;BYDAY=-1FR', '2027-01-29T18:00:00-06:00', zone)).toBe(
      'Every month on the last Friday, 6:00 PM',
    )
    expect(describeRule('FREQ=YEARLY;BYMONTH=7;BYMONTHDAY=4', '2027-07-04T21:00:00-05:00', zone)).toBe(
      'Every year on July 4, 9:00 PM',
    )
  })
})

describe('ruleOfPattern and patternOfRule', () => {
  const start = '2027-03-09T19:00:00-06:00' // the second Tuesday of March
  test('make the rules of the editor, and read them back', () => {
    expect(ruleOfPattern({ kind: 'weekly', days: ['TU', 'TH'], until: '' }, start, zone)).toBe(
      'FREQ=WEEKLY;BYDAY=TU,TH',
    )
    expect(ruleOfPattern({ kind: 'monthly-weekday', days: [], until: '' }, start, zone)).toBe('FREQ=MONTHLY;BYDAY=2TU')
    expect(ruleOfPattern({ kind: 'monthly-date', days: [], until: '' }, start, zone)).toBe('FREQ=MONTHLY;BYMONTHDAY=9')
    expect(ruleOfPattern({ kind: 'yearly', days: [], until: '2030-12-31' }, start, zone)).toBe(
      'FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=9;UNTIL=20310101T055959Z',
    )
    expect(ruleOfPattern({ kind: 'none', days: [], until: '' }, start, zone)).toBeNull()
    expect(patternOfRule('FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=9;UNTIL=20310101T055959Z', zone)).toEqual({
      kind: 'yearly',
      days: [],
      until: '2030-12-31',
    })
    expect(patternOfRule('FREQ=WEEKLY;BYDAY=TU,TH', zone)).toEqual({ kind: 'weekly', days: ['TU', 'TH'], until: '' })
    expect(patternOfRule('FREQ=DAILY;COUNT=3', zone)).toBeNull()
  })
})
