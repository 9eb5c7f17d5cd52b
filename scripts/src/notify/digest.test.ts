import { describe, expect, test } from 'vitest'
import { digestWeek, nextDigestAt } from './digest.ts'

describe('digestWeek', () => {
  test('is due Monday 07:00 in the town’s zone, the week it is in', () => {
    // Wednesday 2027-03-10, 15:00 in Chicago (CST, UTC-6).
    expect(digestWeek(new Date('2027-03-10T21:00:00Z'), 'America/Chicago')).toEqual({
      week: '2027-03-08',
      dueAt: new Date('2027-03-08T13:00:00Z'),
    })
  })

  test('before 07:00 on a Monday, this Monday’s digest is not due yet', () => {
    const { week, dueAt } = digestWeek(new Date('2027-03-08T12:30:00Z'), 'America/Chicago')
    expect(week).toBe('2027-03-08')
    expect(dueAt.getTime()).toBeGreaterThan(Date.parse('2027-03-08T12:30:00Z'))
  })

  test('a Sunday belongs to the week of the Monday before', () => {
    expect(digestWeek(new Date('2027-03-14T18:00:00Z'), 'America/Chicago').week).toBe('2027-03-08')
  })
})

describe('nextDigestAt', () => {
  test('after this Monday’s, the next is a week on, at 07:00 by the town’s clock across the change to summer time', () => {
    // DST starts Sunday 2027-03-14 in the US: 07:00 CDT is 12:00 UTC.
    expect(nextDigestAt(new Date('2027-03-10T21:00:00Z'), 'America/Chicago')).toEqual(new Date('2027-03-15T12:00:00Z'))
  })

  test('before 07:00 on a Monday, it is that morning', () => {
    expect(nextDigestAt(new Date('2027-03-08T06:00:00Z'), 'America/Chicago')).toEqual(new Date('2027-03-08T13:00:00Z'))
  })
})
