import { instantOf, wallClockOf } from '../time/zone.ts'

// Event times: operators and visitors type them in the town's wall-clock time (the time_zone of
// the town settings), whatever the time zone of their computer, and the database keeps the instant
// (UTC). The console's event editor and Inbox and the site's event form read and show times with
// these, given the town's zone.
// Every time the console shows goes through formatTownTime or formatTownDate: never the browser's zone.

/** Shows an instant as the town's wall-clock time, in the form a datetime-local input takes (YYYY-MM-DDTHH:mm). */
export function toTownInput(iso: string, timeZone: string): string {
  const { year, month, day, hour, minute } = wallClockOf(Date.parse(iso), timeZone)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}`
}

/**
 * Reads the town's wall-clock time (YYYY-MM-DDTHH:mm) as an instant (ISO 8601, UTC), or null when
 * it is no time. A time the spring-forward skips is read as the hour after; an hour the fall-back
 * repeats, as its first occurrence.
 */
export function fromTownInput(local: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local.trim())
  if (!match) return null
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number]
  if (hour > 23 || minute > 59) return null
  // A day or month that does not exist (February 30, month 13) rolls over into the next: no such time.
  const rolled = new Date(Date.UTC(year, month - 1, day))
  if (rolled.getUTCMonth() !== month - 1 || rolled.getUTCDate() !== day) return null
  return new Date(instantOf({ year, month, day, hour, minute, second: 0 }, timeZone)).toISOString()
}

/** Says an instant in the town's time for people: "Sat, Jul 4, 2027, 9:00 PM". */
export function formatTownTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(iso))
}

/** Says the day of an instant in the town's time: "Jul 4, 2027" (the town's day, not the browser's). */
export function formatTownDate(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  }).format(new Date(iso))
}
