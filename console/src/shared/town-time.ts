import { townTimeZone } from '@roland/scripts/content/schema'

// Event times: operators type them in the town's wall-clock time (America/Chicago), whatever
// the time zone of their laptop, and the database keeps the instant (UTC).

const parts = new Intl.DateTimeFormat('en-US', {
  timeZone: townTimeZone,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
})

function wallClock(ms: number): { year: number; month: number; day: number; hour: number; minute: number } {
  const found = Object.fromEntries(parts.formatToParts(new Date(ms)).map((part) => [part.type, part.value]))
  return {
    year: Number(found.year),
    month: Number(found.month),
    day: Number(found.day),
    hour: Number(found.hour),
    minute: Number(found.minute),
  }
}

// How far the town's clock is from UTC at an instant, in milliseconds (negative: behind).
function offsetAt(ms: number): number {
  const c = wallClock(ms)
  return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute) - Math.floor(ms / 60_000) * 60_000
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** Shows an instant as the town's wall-clock time, in the form a datetime-local input takes (YYYY-MM-DDTHH:mm). */
export function toTownInput(iso: string): string {
  const c = wallClock(Date.parse(iso))
  return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)}T${pad(c.hour)}:${pad(c.minute)}`
}

/**
 * Reads the town's wall-clock time (YYYY-MM-DDTHH:mm) as an instant (ISO 8601, UTC), or null when
 * it is no time. A time the spring-forward skips is read as the hour after; an hour the fall-back
 * repeats, as its first occurrence.
 */
export function fromTownInput(local: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local.trim())
  if (!match) return null
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number]
  const asUtc = Date.UTC(year, month - 1, day, hour, minute)
  if (Number.isNaN(asUtc) || new Date(asUtc).getUTCDate() !== day) return null
  // The offset at the guess, then at the answer: they differ only around a change of clocks.
  let ms = asUtc - offsetAt(asUtc)
  const second = asUtc - offsetAt(ms)
  if (second !== ms && offsetAt(second) === asUtc - second) ms = Math.min(ms, second)
  return new Date(ms).toISOString()
}

/** Says an instant in the town's time for people: "Sat, Jul 4, 2027, 9:00 PM". */
export function formatTownTime(iso: string): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: townTimeZone,
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(iso))
}
