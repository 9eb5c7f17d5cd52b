import { TZDate } from '@date-fns/tz'

// The one home of time-zone arithmetic (issue 51): what a wall clock of an IANA zone reads at an
// instant, the instant a wall-clock time of a zone names, and which zone names are IANA's. Events
// repeat on their zone's wall clock (events/recurrence.ts), feeds write wall-clock times
// (feeds/parse.ts), the site's .ics files write them back (site/lib/ics.ts), the schemas check a
// town's zone (content/schema.ts) and forms read what people type (content/town-time.ts): all of
// them convert here, with @date-fns/tz. Free of Node: the console and the site's islands use it.

/** A time as a clock on the wall of a zone shows it (month 1–12). */
export interface WallClock {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

/** Reads the wall clock of a zone at an instant (milliseconds since the epoch). */
export function wallClockOf(instant: number, zone: string): WallClock {
  const t = new TZDate(instant, zone)
  return {
    year: t.getFullYear(),
    month: t.getMonth() + 1,
    day: t.getDate(),
    hour: t.getHours(),
    minute: t.getMinutes(),
    second: t.getSeconds(),
  }
}

/**
 * Finds the instant (ms) a wall-clock time of a zone names. A time the spring-forward skips is
 * read as the hour after; an hour the fall-back repeats, as its first occurrence. A day or month
 * out of range rolls over (February 30 is March 2), as Date does.
 */
export function instantOf(wall: WallClock, zone: string): number {
  return new TZDate(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, zone).getTime()
}

/** Adds whole days to an instant on a zone's wall clock: the same time of day, across daylight-saving changes. */
export function addWallDays(instant: number, days: number, zone: string): number {
  const wall = wallClockOf(instant, zone)
  return instantOf({ ...wall, day: wall.day + days }, zone)
}

/**
 * Says whether a name is an IANA time zone the runtime knows: an Area/Location name (canonical
 * or an alias, such as Europe/Kyiv or US/Pacific) or UTC. Abbreviations and offsets
 * (PST, EDT, +05:00), which Intl would also take, are not: they do not follow daylight saving.
 */
export function isIanaZone(zone: string): boolean {
  if (zone !== 'UTC' && !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){1,2}$/.test(zone)) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}
