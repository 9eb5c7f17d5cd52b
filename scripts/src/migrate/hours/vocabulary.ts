// The words of opening hours, shared by the line reader (line.ts) and the rows reader (rows.ts):
// the row types, the days' names, and the patterns of days, times and the 'Hours:' label.

/** A day of the week as the business_hours table stores it: 0 is Sunday, 6 is Saturday. */
export type DayOfWeek = 0 | 1 | 2 | 3 | 4 | 5 | 6

/** Opening hours on one day; a closes_at at or before opens_at means closing after midnight. */
export type OpenHoursRow = { day_of_week: DayOfWeek; opens_at: string; closes_at: string }

/** A day the business says it is closed. */
export type ClosedHoursRow = { day_of_week: DayOfWeek; is_closed: true }

/** One business_hours row read from an hours line. */
export type HoursRow = OpenHoursRow | ClosedHoursRow

/** The hours text must be shorter than this (SPEC §5); longer lines are dropped. */
export const MAX_HOURS_LENGTH = 100

export const ALL_DAYS: DayOfWeek[] = [0, 1, 2, 3, 4, 5, 6]

export const DAY_NAMES: Record<string, DayOfWeek> = {}
for (const [day, names] of [
  [0, ['su', 'sun', 'sunday']],
  [1, ['m', 'mon', 'monday']],
  [2, ['tu', 'tue', 'tues', 'tuesday']],
  [3, ['w', 'wed', 'weds', 'wednesday']],
  [4, ['th', 'thu', 'thur', 'thurs', 'thursday']],
  [5, ['f', 'fri', 'friday']],
  [6, ['sa', 'sat', 'saturday']],
] as const) {
  for (const name of names) {
    DAY_NAMES[name] = day
    // 'Closed Sundays' means the same as 'Closed Sunday'.
    if (name.endsWith('day')) DAY_NAMES[`${name}s`] = day
  }
}

export const DAY_WORD =
  '(?:sun(?:days?)?|mon(?:days?)?|tue(?:s|sdays?)?|wed(?:s|nesdays?)?|thu(?:r|rs|rsdays?)?|fri(?:days?)?|sat(?:urdays?)?)'
// The shortest forms ('M-F', 'Tu-Th', 'M/W/F') are days only beside another day.
const SHORT_DAY = '(?:m|tu|w|th|f|sa|su)'
export const SHORT_DAY_RANGE = new RegExp(
  `(?<![\\w'])(?:${SHORT_DAY}|${DAY_WORD})\\.?\\s*(?:[-/&,]|\\bthru\\b|\\bto\\b)\\s*(?:${SHORT_DAY}|${DAY_WORD})\\b\\.?`,
  'i',
)
const TIME_WORD =
  '(?:\\d{1,2}(?:[:.]\\d{2})?\\s*(?:[ap]\\.?\\s?m\\b\\.?|[ap]\\b)|\\d{1,2}:\\d{2}\\b|noon\\b|midnight\\b)'
export const ALL_DAY_WORD = '(?:24\\s*\\/\\s*7|24\\s*-?\\s*(?:hours|hrs|hr|h)\\b)'

const HOURS_LABEL =
  /^(?:(?:business|store|shop|office|opening|open)\s+)?(?:hours|hrs)(?:\s+of\s+operation)?\s*(?::|\s[-–—]\s)\s*|^open\s*:\s*/i
export const STARTS_LIKE_HOURS = new RegExp(
  `^(?:open\\s+)?(?:${DAY_WORD}\\b\\.?|daily\\b|every\\s*day\\b|everyday\\b|weekdays?\\b|weekends?\\b|(?:7|seven)\\s+days\\b|closed\\b|${ALL_DAY_WORD}|${TIME_WORD})`,
  'i',
)
// The days a line names: a day or day range, 'daily', 'weekdays', '7 days a week'.
export const MENTIONS_DAYS = new RegExp(
  `\\b${DAY_WORD}\\b|\\b(?:daily|every\\s*day|everyday|weekdays?|weekends?|(?:7|seven)\\s+days)\\b`,
  'i',
)
// An opening and a closing time: '7:30am-2pm', 'noon to midnight', and a bare '9-5' or '9 to 6'
// after a day name, which is a time range even though it is too vague to parse.
const CLOCK = '(?:(?<!\\d)\\d{1,2}(?:[:.]\\d{2})?(?!\\d)\\s*(?:[ap]\\.?\\s?m\\b\\.?|[ap]\\b)?|noon\\b|midnight\\b)'
export const TIME_RANGE = new RegExp(`${CLOCK}\\s*(?:-+|\\b(?:to|thru|through|till|til|until)\\b)\\s*${CLOCK}`, 'i')
export const MENTIONS_CLOSED_OR_ALL_DAY = new RegExp(`\\bclosed\\b|${ALL_DAY_WORD}`, 'i')

// Words an hours line is made of; a line with several other long words is a sentence about
// the business ('Sunday brunch from 10am is a local favorite…'), so it stays a description.
export const SCHEDULE_WORDS = new Set([
  'open',
  'opens',
  'closed',
  'closes',
  'hours',
  'daily',
  'every',
  'week',
  'weekdays',
  'weekday',
  'weekends',
  'weekend',
  'through',
  'thru',
  'till',
  'until',
  'from',
  'noon',
  'midnight',
  'except',
  'holidays',
  'holiday',
  'days',
  'only',
  'appointment',
  'seasonal',
  'season',
  'summer',
  'winter',
  'spring',
  'fall',
  // Seasonal hours name months: 'Saturdays 7am-noon, April through October'.
  'january',
  'february',
  'march',
  'april',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
])

/** Returns the text after an 'Hours:' label, or null when the line has no such label. */
export function stripHoursLabel(line: string): string | null {
  const match = HOURS_LABEL.exec(line)
  return match ? line.slice(match[0].length).trim() : null
}
