import { nextStarts, type Schedule } from '@roland/scripts/events/recurrence'

// The order of the Events screen: what comes next at the top, where an operator looks for it, and
// what is over below. A series counts by its next occurrence, not its first start, which may be
// years ago; a series with no occurrence left is over.

/** The start of the event's next occurrence that has not ended by `now` (ms), or null when it is over. */
export function nextOccurrence(event: Schedule, now: number, townZone: string): number | null {
  if (!event.rrule) return Date.parse(event.ends_at ?? event.starts_at) >= now ? Date.parse(event.starts_at) : null
  // An occurrence under way has started less than its length ago.
  const length = event.ends_at ? Date.parse(event.ends_at) - Date.parse(event.starts_at) : 0
  const [next] = nextStarts(event, new Date(now - length), 1, townZone)
  return next === undefined ? null : Date.parse(next)
}

/** Puts events in the screen's order: coming ones soonest first, then past ones latest first. */
export function inEventOrder<E extends Schedule>(events: readonly E[], now: number, townZone: string): E[] {
  const keyed = events.map((event) => ({ event, next: nextOccurrence(event, now, townZone) }))
  const coming = keyed.filter((row) => row.next !== null).sort((a, b) => a.next! - b.next!)
  const past = keyed
    .filter((row) => row.next === null)
    .sort((a, b) => Date.parse(b.event.starts_at) - Date.parse(a.event.starts_at))
  return [...coming, ...past].map((row) => row.event)
}
