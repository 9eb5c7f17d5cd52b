import type { BusinessHours } from '@roland/scripts/catalog/types'
import { remembered } from './remembered.ts'

/** The days of the week as business_hours numbers them: 0 is Sunday. */
export const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
// The week as people read it: Monday first.
const weekOrder = [1, 2, 3, 4, 5, 6, 0]

/** "07:00:00" → "7:00 AM", "17:30" → "5:30 PM", "00:00" → "12:00 AM". */
export const formatClock = remembered(
  (time: string): string => {
    const [h = '0', m = '00'] = time.split(':')
    const hour = Number(h)
    const suffix = hour < 12 ? 'AM' : 'PM'
    return `${hour % 12 === 0 ? 12 : hour % 12}:${m.padStart(2, '0')} ${suffix}`
  },
  // Each time of day is formatted once: a catalog's opening hours share a few dozen of them (a
  // build's directory formats 14 per business, 140,000 at 10,000 businesses).
  (time) => time,
  100_000,
)

/** The text of a day the business has said nothing about: its hours are unknown, not closed. */
export const unknownHoursText = 'Hours not listed'

/** One line of an opening-hours table. */
export interface HoursRow {
  day: string
  hours: string
}

const opening = (h: BusinessHours) =>
  h.opens_at!.slice(0, 5) === '00:00' && h.closes_at!.slice(0, 5) === '00:00'
    ? 'Open 24 hours'
    : `${formatClock(h.opens_at!)} – ${formatClock(h.closes_at!)}`

/**
 * The opening-hours table of a business, Monday first: each day's openings (a closing time
 * after midnight reads as it is: "5:00 PM – 2:00 AM"), "Closed" on a day it says it is closed,
 * and "Hours not listed" on a day without any row. A business without any row gets no table
 * (its hours line is shown instead).
 */
export function hoursRows(detail: readonly BusinessHours[]): HoursRow[] {
  if (detail.length === 0) return []
  return weekOrder.map((day) => {
    const rows = detail.filter((h) => h.day_of_week === day)
    const open = rows
      .filter((h) => !h.is_closed && h.opens_at && h.closes_at)
      .sort((a, b) => a.opens_at!.localeCompare(b.opens_at!))
    const hours =
      open.length > 0 ? open.map(opening).join(', ') : rows.some((h) => h.is_closed) ? 'Closed' : unknownHoursText
    return { day: dayNames[day]!, hours }
  })
}

/** A time zone's everyday name, as a visitor reads it: 'Mountain Time' for America/Denver, 'United Kingdom Time' for Europe/London. */
export function timeZoneName(timeZone: string): string {
  // A build asks once per town (town-formats.ts), not once per business page.
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longGeneric' }).formatToParts(0)
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? timeZone
}
