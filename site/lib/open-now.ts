import type { BusinessHours } from '@roland/scripts/catalog/types'
import { dayNames, formatClock } from './hours.ts'

// "Open now" on a business page (issue 8). The page carries the week's hours and the town's time
// zone; the browser works out the badge from the visitor's clock, read as the town's wall-clock
// time whatever the visitor's own time zone. This module is also the script the page ships: keep
// it small and free of anything with side effects at import time.

const day = 1440
const week = 7 * day

/** One opening: minutes after midnight it opens and closes; a close at or before the opening is after midnight. */
export type Opening = [opens: number, closes: number]

/**
 * The opening hours of a week, Sunday first: the openings of each day (none on a closed day),
 * or null for a day the business has not said anything about.
 */
export type WeekHours = Array<Opening[] | null>

/** The town's wall-clock time: the day of the week (0 is Sunday) and the minutes since midnight. */
export interface TownClock {
  day: number
  minute: number
}

/** Where a business stands at a moment: open, or closed with its next opening when that is known. */
export type OpenState = { open: true } | { open: false; next: NextOpening | null }

/** The next opening: in how many days (0 is today), on which day of the week, at which minute. */
export interface NextOpening {
  inDays: number
  day: number
  minute: number
}

const minutes = (time: string) => {
  const [h, m] = time.split(':')
  return Number(h) * 60 + Number(m)
}

/**
 * Reads business_hours rows into a week. A day is known when it has an opening or a closed row;
 * a business without any row gets null (no badge, no table).
 */
export function weekHours(detail: readonly BusinessHours[]): WeekHours | null {
  const hours: WeekHours = [null, null, null, null, null, null, null]
  let known = false
  for (const row of detail) {
    const open = !row.is_closed && row.opens_at && row.closes_at
    if (!row.is_closed && !open) continue
    const openings = (hours[row.day_of_week] ??= [])
    known = true
    if (open) openings.push([minutes(row.opens_at!), minutes(row.closes_at!)])
  }
  for (const openings of hours) openings?.sort((a, b) => a[0] - b[0])
  return known ? hours : null
}

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
/**
 * Makes a reader of moments as the wall-clock time of a time zone (the town's, daylight saving
 * included). Its formatter per zone lives as long as the reader: a page's badges keep one.
 */
export function townClocks(): (now: Date, timeZone: string) => TownClock {
  const formats = new Map<string, Intl.DateTimeFormat>()
  return (now, timeZone) => {
    let format = formats.get(timeZone)
    if (!format) {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        weekday: 'short',
        hour: 'numeric',
        minute: 'numeric',
        hourCycle: 'h23',
      })
      formats.set(timeZone, format)
    }
    const part: Record<string, string> = {}
    for (const { type, value } of format.formatToParts(now)) part[type] = value
    return { day: weekdays.indexOf(part.weekday!), minute: (Number(part.hour) % 24) * 60 + Number(part.minute) }
  }
}

/**
 * Says whether a business is open at a moment of the town's week. Openings that run past midnight
 * count on the next day, Saturday night's into Sunday. Null when the day is one whose hours are
 * unknown and no known opening covers the moment; the next opening is left out when an unknown
 * day comes before it.
 */
export function openState(hours: WeekHours, clock: TownClock): OpenState | null {
  const now = clock.day * day + clock.minute
  for (const [d, openings] of hours.entries()) {
    for (const [opens, closes] of openings ?? []) {
      const start = d * day + opens
      const end = d * day + closes + (closes <= opens ? day : 0)
      // A Saturday-night opening runs into the next week's Sunday.
      if ((now >= start && now < end) || now + week < end) return { open: true }
    }
  }
  if (!hours[clock.day]) return null
  for (let inDays = 0; inDays <= 7; inDays++) {
    const d = (clock.day + inDays) % 7
    const openings = hours[d]
    if (!openings) break
    const next = openings.find(([opens]) => inDays > 0 || opens > clock.minute)
    if (next) return { open: false, next: { inDays, day: d, minute: next[0] } }
  }
  return { open: false, next: null }
}

/** "Open now", "Closed · opens tomorrow 7:00 AM", or "Closed" when the next opening is unknown. */
export function badgeText(state: OpenState): string {
  if (state.open) return 'Open now'
  if (!state.next) return 'Closed'
  const { inDays, day: d, minute } = state.next
  const when = inDays === 0 ? 'today' : inDays === 1 ? 'tomorrow' : `${inDays === 7 ? 'next ' : ''}${dayNames[d]}`
  return `Closed · opens ${when} ${formatClock(`${Math.floor(minute / 60)}:${minute % 60}`)}`
}

/** What a page needs of an element: the badge is a <span data-open-now="[week hours JSON]" data-time-zone="…" hidden>. */
export type BadgeElement = Pick<HTMLElement, 'dataset' | 'hidden' | 'textContent'>

/**
 * Fills in the open-now badges of a page for a moment. A badge whose state is unknown stays
 * hidden, so a visitor never reads a guess.
 */
export function showOpenNow(badges: Iterable<BadgeElement>, now: Date, townClock = townClocks()): void {
  for (const badge of badges) {
    const state = openState(JSON.parse(badge.dataset.openNow!) as WeekHours, townClock(now, badge.dataset.timeZone!))
    if (state) {
      badge.textContent = badgeText(state)
      badge.dataset.state = state.open ? 'open' : 'closed'
    }
    badge.hidden = !state
  }
}

/** Shows the open-now badges of the page in the browser, and keeps them right as the minutes pass. */
export function startOpenNow(): void {
  const townClock = townClocks()
  const update = () => showOpenNow(document.querySelectorAll<HTMLElement>('[data-open-now]'), new Date(), townClock)
  update()
  setInterval(update, 60_000)
}
