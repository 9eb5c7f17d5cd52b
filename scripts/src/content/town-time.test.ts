import { describe, expect, test } from 'vitest'
import { formatTownDate, formatTownTime, fromTownInput, toTownInput } from './town-time.ts'

const zone = 'America/Chicago'

describe('fromTownInput', () => {
  test('reads a summer evening in Roland as five hours behind UTC', () => {
    expect(fromTownInput('2027-07-04T21:00', zone)).toBe('2027-07-05T02:00:00.000Z')
  })

  test('reads a winter evening as six hours behind UTC', () => {
    expect(fromTownInput('2026-12-28T19:00', zone)).toBe('2026-12-29T01:00:00.000Z')
  })

  test('reads the repeated hour of the fall-back as its first occurrence', () => {
    expect(fromTownInput('2026-11-01T01:30', zone)).toBe('2026-11-01T06:30:00.000Z')
  })

  test('reads a time the spring-forward skips as an existing instant', () => {
    const read = fromTownInput('2027-03-14T02:30', zone)
    expect(read).not.toBeNull()
    expect(['2027-03-14T07:30:00.000Z', '2027-03-14T08:30:00.000Z']).toContain(read)
  })

  test('reads the time in the zone it is given: a summer evening in Mountain time is six hours behind UTC', () => {
    expect(fromTownInput('2027-07-04T21:00', 'America/Denver')).toBe('2027-07-05T03:00:00.000Z')
  })

  test('answers null for text that is no time, or a day that does not exist', () => {
    expect(fromTownInput('next Tuesday', zone)).toBeNull()
    expect(fromTownInput('2027-02-30T10:00', zone)).toBeNull()
    expect(fromTownInput('2027-13-01T10:00', zone)).toBeNull()
    expect(fromTownInput('2027-07-04T24:00', zone)).toBeNull()
  })
})

describe('toTownInput', () => {
  test('shows an instant as the town’s wall-clock time', () => {
    expect(toTownInput('2027-07-05T02:00:00Z', zone)).toBe('2027-07-04T21:00')
    expect(toTownInput('2026-12-29T01:00:00+00:00', zone)).toBe('2026-12-28T19:00')
  })

  test('round-trips with fromTownInput', () => {
    for (const local of ['2027-01-15T18:00', '2027-06-01T00:00', '2027-11-07T23:59']) {
      expect(toTownInput(fromTownInput(local, zone)!, zone)).toBe(local)
    }
  })
})

describe('formatTownTime', () => {
  test('says the time in Roland, not in the viewer’s zone', () => {
    expect(formatTownTime('2027-07-05T02:00:00Z', zone)).toBe('Sun, Jul 4, 2027, 9:00 PM')
  })
})

describe('formatTownDate', () => {
  test("says the town's day, not UTC's: 03:00 UTC is still the evening before in Roland", () => {
    expect(formatTownDate('2027-07-05T03:00:00Z', zone)).toBe('Jul 4, 2027')
  })
})
