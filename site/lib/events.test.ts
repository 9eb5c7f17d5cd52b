import { describe, expect, test } from 'vitest'
import type { CommunityEvent } from '@roland/scripts/catalog/types'
import { eventFormats, pastEvents, upcomingEvents } from './events.ts'

const zone = 'America/Chicago'

const event = (slug: string, starts_at: string, ends_at: string | null = null): CommunityEvent => ({
  id: '00000000-0000-4000-8000-000000000001',
  slug,
  title: slug,
  description: null,
  starts_at,
  ends_at,
  location: 'Roland Community Center',
  event_type: 'Social',
})

// Times as the database gives them: UTC. 01:00 UTC on Dec 29 is 7:00 PM on Dec 28 in Roland.
const garden = event('garden', '2026-12-29T01:00:00+00:00', '2026-12-29T02:30:00+00:00')
const potluck = event('potluck', '2027-01-16T00:00:00+00:00')
const meetup = event('meetup', '2027-02-10T20:00:00+00:00')
const cleanup = event('cleanup', '2020-10-17T14:00:00+00:00')
const now = new Date('2026-11-21T12:00:00Z')

describe('upcomingEvents', () => {
  test('lists the events that have not ended, soonest first, up to a limit', () => {
    expect(upcomingEvents([meetup, cleanup, garden, potluck], now, zone, 3).map((e) => e.slug)).toEqual([
      'garden',
      'potluck',
      'meetup',
    ])
    expect(upcomingEvents([meetup, garden], now, zone, 1).map((e) => e.slug)).toEqual(['garden'])
  })

  test('keeps an event that has started but not ended', () => {
    expect(upcomingEvents([garden], new Date('2026-12-29T02:00:00Z'), zone).map((e) => e.slug)).toEqual(['garden'])
  })
})

describe('pastEvents', () => {
  test('lists the events that have ended, latest first', () => {
    expect(pastEvents([cleanup, garden, potluck], new Date('2027-01-20T00:00:00Z')).map((e) => e.slug)).toEqual([
      'potluck',
      'garden',
      'cleanup',
    ])
  })
})

describe('event formatting', () => {
  test('shows dates and times in Roland time', () => {
    expect(eventFormats(zone).day(garden.starts_at)).toBe('Dec 28')
    expect(eventFormats(zone).time(garden.starts_at)).toBe('7:00 PM')
    expect(eventFormats(zone).longDate(garden.starts_at)).toBe('Monday, December 28, 2026')
    expect(eventFormats(zone).time(potluck.starts_at)).toBe('6:00 PM')
    expect(eventFormats(zone).day(meetup.starts_at)).toBe('Feb 10')
    expect(eventFormats(zone).time(meetup.starts_at)).toBe('2:00 PM')
  })

  test('shows a time range when the event has an end', () => {
    expect(eventFormats(zone).timeRange(garden)).toBe('7:00 PM – 8:30 PM')
    expect(eventFormats(zone).timeRange(potluck)).toBe('6:00 PM')
  })
})
