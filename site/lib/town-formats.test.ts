import { describe, expect, test } from 'vitest'
import { townFormats } from './town-formats.ts'

describe('townFormats', () => {
  test('writes the town’s dates, its "Listing checked" line and its zone’s name', () => {
    const formats = townFormats({ time_zone: 'America/Chicago' })
    expect(formats.events.longDate('2026-12-29T01:00:00Z')).toBe('Monday, December 28, 2026')
    expect(formats.events.timeRange({ starts_at: '2026-12-29T01:00:00Z', ends_at: null, all_day: false })).toBe(
      '7:00 PM',
    )
    expect(formats.listingChecked('2026-12-01T03:00:00Z')).toBe('Listing checked November 2026')
    expect(formats.zoneName).toBe('Central Time')
  })

  test('makes them once per town the build read, and afresh for another read', () => {
    const town = { time_zone: 'America/Denver' }
    expect(townFormats(town)).toBe(townFormats(town))
    const reread = { time_zone: 'America/Denver' }
    expect(townFormats(reread)).not.toBe(townFormats(town))
    expect(townFormats(reread).zoneName).toBe('Mountain Time')
  })
})
