import type { BusinessHours } from '@roland/scripts/catalog/types'

const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
// The week as people read it: Monday first.
const weekOrder = [1, 2, 3, 4, 5, 6, 0]

/** "07:00:00" → "7:00 AM", "17:30" → "5:30 PM", "00:00" → "12:00 AM". */
export function formatClock(time: string): string {
  const [h = '0', m = '00'] = time.split(':')
  const hour = Number(h)
  const suffix = hour < 12 ? 'AM' : 'PM'
  return `${hour % 12 === 0 ? 12 : hour % 12}:${m.padStart(2, '0')} ${suffix}`
}

/** One line of an opening-hours table. */
export interface HoursRow {
  day: string
  hours: string
}

/**
 * The opening-hours table of a business, Monday first. A day without hours is "Closed" once the
 * business has any; a business without any gets no table (its hours line is shown instead).
 */
export function hoursRows(detail: readonly BusinessHours[]): HoursRow[] {
  if (detail.length === 0) return []
  return weekOrder.map((day) => {
    const open = detail
      .filter((h) => h.day_of_week === day && !h.is_closed && h.opens_at && h.closes_at)
      .sort((a, b) => a.opens_at!.localeCompare(b.opens_at!))
    return {
      day: dayNames[day]!,
      hours: open.length === 0 ? 'Closed' : open.map((h) => `${formatClock(h.opens_at!)} – ${formatClock(h.closes_at!)}`).join(', '),
    }
  })
}
