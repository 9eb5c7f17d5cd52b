import {
  DAY_NAMES,
  DAY_WORD,
  MENTIONS_CLOSED_OR_ALL_DAY,
  MENTIONS_DAYS,
  SCHEDULE_WORDS,
  SHORT_DAY_RANGE,
  STARTS_LIKE_HOURS,
  stripHoursLabel,
  TIME_RANGE,
} from './vocabulary.ts'
import { tokenize } from './rows.ts'

// Telling an hours line from the rest of an entry, and what its hours are: the label it may have
// (dropped when it says nothing, kept when it says something), how surely it gives opening hours
// (hoursScore), and the notes of when that may stand beside a schedule.

/**
 * Tells whether a line is an hours line: labelled 'Hours:', a day or day range with a time range
 * (or 'closed', or 'open 24 hours'), a line made of nothing but times ('Open 24 hours', '7am-5pm'),
 * or an appointment-only note. A tagline or a sentence that mentions a day or a time ('Open 24/7
 * for emergencies', 'Fridays open until 9pm for games') is not one.
 */
export function looksLikeHours(line: string): boolean {
  return readHoursLine(line) !== null
}

/** How an hours line was recognised, for the parser's line classifier: a label says so outright. */
export type HoursReading = {
  value: string
  labelled: boolean
  score: number
  /** The value keeps labels that say what each schedule is for ('Kitchen: …; Bar: …', 'Winter: …'). */
  keepsLabels?: true
}

// An appointment-only note: 'By appointment', 'Appointments only', 'By appt.', 'Call for an appointment'.
const APPOINTMENT =
  /^(?:(?:open\s+)?by\s+appo?i?n?t(?:ment)?s?\.?(?:\s+only)?|appo?i?n?t(?:ment)?s?\.?\s+only|call\s+(?:ahead\s+)?for\s+(?:an\s+)?appo?i?n?t(?:ment)?s?\.?)\b/i
// A label in front of the hours: one to three words and a colon ('Shop:', 'Winter hours:', 'Kitchen hours:').
const ANY_LABEL = /^([a-z][a-z'&]*(?:\s+[a-z'&]+){0,2})\s*:\s*/i
// A label that is a day or days ('Monday - Thursday:') is part of the hours.
const DAY_LABEL = new RegExp(`\\b${DAY_WORD}\\b`, 'i')
const OPEN_BEFORE_DAYS = new RegExp(
  `^open\\s+(?=${DAY_WORD}\\b|daily\\b|every\\s*day\\b|weekdays?\\b|weekends?\\b|(?:7|seven)\\s+days\\b)`,
  'i',
)
// Words a schedule may carry besides days and times ('dock open dawn to dusk', 'Memorial Day to Labor Day').
const MORE_SCHEDULE_WORDS = new Set([
  'dawn',
  'dusk',
  'sunrise',
  'sunset',
  'appointment',
  'appointments',
  'appt',
  'memorial',
  'labor',
  'day',
  'year',
  'round',
  'late',
  'early',
  'rest',
  'clock',
])

/**
 * Reads an hours line by its content, with or without a label, and returns the hours. A label that
 * says nothing but where the business is open goes ('Shop: Tue-Sat 10am-5pm' gives 'Tue-Sat
 * 10am-5pm', 'Open daily 6am-2pm' gives 'Daily 6am-2pm'); one that says something (a season, an
 * activity, a service) stays with its hours ('Winter hours: Sat-Sun 9am-3pm' gives 'Winter: Sat-Sun
 * 9am-3pm'); null when the line is not about opening hours. A seasonal note after the hours stays.
 */
export function readHoursLine(line: string): HoursReading | null {
  const text = line.trim()
  const labelled = stripHoursLabel(text)
  if (labelled !== null) return { value: capitalise(withoutOpen(labelled)), labelled: true, score: 1 }
  const label = ANY_LABEL.exec(text)
  // 'Monday - Thursday: 8:00 AM - 5:00 PM' starts with days, not a label.
  if (label && !DAY_LABEL.test(label[1] ?? '')) {
    const rest = text.slice(label[0].length)
    const score = Math.max(hoursScore(rest), namesWhatIsOpen(rest) ? 0.9 : 0)
    // A label that says 'hours' vouches for a vaguer line ('Winter hours: by the season').
    if (score < 0.5 && !(/\bhours\b/i.test(label[1] ?? '') && score > 0)) return null
    // Several schedules, each behind a label of its own ('Taproom: Thu-Sun 3pm-10pm; Kitchen: Fri-Sat
    // 5pm-9pm'): the first label says as much as the others, so all of them stay.
    if (labelsAnotherSchedule(rest)) return { value: capitalise(text), labelled: true, score, keepsLabels: true }
    return withLabel(label[1] ?? '', rest, score, null)
  }
  const open = OPEN_BEFORE_DAYS.exec(text)
  if (open) {
    const rest = text.slice(open[0].length)
    const score = hoursScore(rest)
    if (score >= 0.5) return { value: capitalise(rest), labelled: false, score }
  }
  // A label without its colon ('Kitchen 6 a.m. to 2 p.m. Tue thru Sat'): only before nothing but hours.
  const bareLabel = BARE_LABEL.exec(text)
  if (bareLabel && !NOT_A_LABEL.test(bareLabel[1] ?? '')) {
    const rest = text.slice(bareLabel[0].length)
    if (hoursScore(rest) === 1) return withLabel(bareLabel[1] ?? '', rest, 0.9, text)
  }
  // What is open, named before it ('Office open daily 8am-8pm', 'Pool open weekends noon-6pm'): the
  // whole line is the hours, as it is behind 'Hours:', for it says what the times are for.
  if (namesWhatIsOpen(text)) return { value: capitalise(text), labelled: true, score: 0.9 }
  const score = hoursScore(text)
  return score >= 0.5 ? { value: capitalise(text), labelled: false, score } : null
}

// Labels that say only where the business itself is open, whose hours the line gives: the office of a
// storage yard, the kitchen of a diner, the tasting room of a winery. Any other label says something.
const PLACE_LABEL =
  /^(?:(?:main|front|business)\s+)?(?:office|lobby|store|shop|showroom|desk|front\s+desk|counter|kitchen|dining\s+room|tasting\s+room|pharmacy|clinic|location|building)$/i

/**
 * The hours behind a label: without it when it names only the business's own place ('Office:'),
 * else with it: a label without a colon as typed (`typed`, the whole line), one with a colon less a
 * closing 'hours', as the labels of several schedules are joined ('Winter hours: …' gives 'Winter: …').
 */
function withLabel(label: string, rest: string, score: number, typed: string | null): HoursReading {
  const hours = capitalise(withoutOpen(rest))
  const named = label.replace(/\s+(?:hours|hrs)$/i, '').trim()
  if (named === '' || PLACE_LABEL.test(named)) return { value: hours, labelled: true, score }
  const value = typed === null ? `${capitalise(named)}: ${hours}` : capitalise(typed)
  return { value, labelled: true, score, keepsLabels: true }
}

/**
 * Where the clauses of an hours line meet: ';', '|', '•', a comma, ' / ', and a full stop that ends a
 * sentence (not the dot of 'a.m.').
 */
export const CLAUSE_BREAK = /\s*[;|•,]\s*|\s+\/\s+|(?<![\s.]\p{L})\.\s+/u

/** Tells whether a clause after the first of a line is a schedule behind a label: '; Kitchen: Fri 5pm-9pm'. */
function labelsAnotherSchedule(rest: string): boolean {
  return rest
    .split(CLAUSE_BREAK)
    .slice(1)
    .some((clause) => {
      const label = ANY_LABEL.exec(clause)
      return label !== null && !DAY_LABEL.test(label[1] ?? '') && hoursScore(clause.slice(label[0].length)) >= 0.5
    })
}

/** Tells whether a line names what is open before its hours: 'Office open daily 8am-8pm'. */
function namesWhatIsOpen(text: string): boolean {
  const openAfter = BARE_OPEN.exec(text)
  return (
    openAfter !== null && !NOT_A_LABEL.test(openAfter[1] ?? '') && hoursScore(text.slice(openAfter[0].length)) === 1
  )
}

// One or two words, then 'open' and the hours: 'Office open daily 8am-8pm'.
const BARE_OPEN = /^([a-z][a-z'&]*(?:\s+[a-z'&]+)?)\s+open\s+/i

// One or two words in front of the hours, with no colon: 'Kitchen', 'Lobby', 'Gate access'.
const BARE_LABEL = /^([a-z][a-z'&]*(?:\s+[a-z'&]+)?)\s+(?=\d|noon\b|midnight\b|24)/i
// Words that begin hours themselves, so they are not a label in front of them.
const NOT_A_LABEL = new RegExp(
  `\\b(?:${DAY_WORD}|open|opens|daily|every|weekdays?|weekends?|from|closed|hours|hrs)\\b`,
  'i',
)

/** The hours without an 'Open' in front of the days ('Open daily 6am-2pm' gives 'daily 6am-2pm'). */
function withoutOpen(text: string): string {
  const open = OPEN_BEFORE_DAYS.exec(text)
  if (!open) return text
  const rest = text.slice(open[0].length)
  return hoursScore(rest) >= 0.5 ? rest : text
}

/** Tells whether a text gives a time range, 'closed' or 'open 24 hours': the least an hours line says. */
export function mentionsTimes(text: string): boolean {
  const source = text.replace(/[‐‑‒–—―]/g, '-')
  return TIME_RANGE.test(source) || MENTIONS_CLOSED_OR_ALL_DAY.test(source)
}

// The months, for notes of when a schedule holds ('May–September', 'Nov-Mar').
const MONTHS = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)$/
// Small words a note of when may carry besides those of a schedule: 'closed on all major holidays'.
const NOTE_WORDS = new Set([
  'autumn',
  'to',
  'and',
  'the',
  'of',
  'on',
  'all',
  'major',
  'by',
  'in',
  'for',
  'only',
  'call',
  'ahead',
])

/**
 * Tells whether a clause says only when a schedule holds, not what is open: months ('May–September'),
 * seasons, 'year-round', 'closed holidays', 'by appointment'.
 */
export function isScheduleNote(clause: string): boolean {
  const words = clause.toLowerCase().match(/[a-z]+/g) ?? []
  const when = (word: string) =>
    SCHEDULE_WORDS.has(word) || MORE_SCHEDULE_WORDS.has(word) || word in DAY_NAMES || MONTHS.test(word)
  return words.some(when) && words.every((word) => when(word) || NOTE_WORDS.has(word))
}

/** Scores from 0 to 1 how surely a line, without its label, gives opening hours. */
export function hoursScore(line: string): number {
  const source = line.trim().replace(/[‐‑‒–—―]/g, '-')
  if (source === '') return 0
  const words = source.toLowerCase().match(/[a-z]+/g) ?? []
  if (APPOINTMENT.test(source)) {
    // 'By appointment only', 'By appointment, March through November'; not a sentence that goes on.
    const others = words.filter(
      (word) =>
        !SCHEDULE_WORDS.has(word) &&
        !MORE_SCHEDULE_WORDS.has(word) &&
        !(word in DAY_NAMES) &&
        !['by', 'call', 'ahead', 'for', 'an', 'a', 'the', 'only', 'to', 'and'].includes(word),
    )
    return others.length <= 1 ? 0.9 : 0.2
  }
  const startsLikeHours = STARTS_LIKE_HOURS.test(source) || SHORT_DAY_RANGE.test(source.slice(0, 12))
  if (!startsLikeHours) return 0
  const range = TIME_RANGE.test(source)
  const closedOrAllDay = MENTIONS_CLOSED_OR_ALL_DAY.test(source)
  if (!range && !closedOrAllDay) return 0
  // Nothing but days, times and the words of a schedule: an hours line whether or not it names days.
  if (tokenize(source) !== null) return 1
  if (!MENTIONS_DAYS.test(source) && !SHORT_DAY_RANGE.test(source)) return 0
  const otherWords = (source.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter(
    (word) => !SCHEDULE_WORDS.has(word) && !MORE_SCHEDULE_WORDS.has(word) && !(word in DAY_NAMES),
  )
  // A sentence about the business that names a day ('Sunday brunch from 10am is a local favorite…').
  const byWords = otherWords.length === 0 ? 0.9 : otherWords.length < 3 ? 0.7 : 0.2
  return Math.max(byWords, clausesScore(source))
}

/**
 * Scores hours of several clauses joined by ';' or ',': the first reads as hours by itself, each other
 * one gives a time, a day or 'closed' behind at most three words ('Mon-Fri 9am-5pm; gate access
 * 6am-10pm daily; pool noon-8pm weekends'). 0 when the line has one clause or another is a sentence.
 */
function clausesScore(source: string): number {
  const [first, ...others] = source.split(/\s*[;,]\s*/).filter((clause) => clause !== '')
  if (first === undefined || others.length === 0 || hoursScore(first) < 0.9) return 0
  const isClause = (clause: string) => {
    const words = clause.match(/[a-z]{3,}/gi) ?? []
    const scheduleWords = words.filter(
      (word) =>
        SCHEDULE_WORDS.has(word.toLowerCase()) ||
        MORE_SCHEDULE_WORDS.has(word.toLowerCase()) ||
        word.toLowerCase() in DAY_NAMES,
    )
    const said =
      TIME_RANGE.test(clause) ||
      MENTIONS_CLOSED_OR_ALL_DAY.test(clause) ||
      MENTIONS_DAYS.test(clause) ||
      APPOINTMENT.test(clause)
    return said && words.length - scheduleWords.length <= 3
  }
  return others.every(isClause) ? 0.9 : 0
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
