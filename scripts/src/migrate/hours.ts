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

const ALL_DAYS: DayOfWeek[] = [0, 1, 2, 3, 4, 5, 6]

const DAY_NAMES: Record<string, DayOfWeek> = {}
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

const DAY_WORD =
  '(?:sun(?:days?)?|mon(?:days?)?|tue(?:s|sdays?)?|wed(?:s|nesdays?)?|thu(?:r|rs|rsdays?)?|fri(?:days?)?|sat(?:urdays?)?)'
// The shortest forms ('M-F', 'Tu-Th', 'M/W/F') are days only beside another day.
const SHORT_DAY = '(?:m|tu|w|th|f|sa|su)'
const SHORT_DAY_RANGE = new RegExp(
  `(?<![\\w'])(?:${SHORT_DAY}|${DAY_WORD})\\.?\\s*(?:[-/&,]|\\bthru\\b|\\bto\\b)\\s*(?:${SHORT_DAY}|${DAY_WORD})\\b\\.?`,
  'i',
)
const TIME_WORD =
  '(?:\\d{1,2}(?:[:.]\\d{2})?\\s*(?:[ap]\\.?\\s?m\\b\\.?|[ap]\\b)|\\d{1,2}:\\d{2}\\b|noon\\b|midnight\\b)'
const ALL_DAY_WORD = '(?:24\\s*\\/\\s*7|24\\s*-?\\s*(?:hours|hrs|hr|h)\\b)'

const HOURS_LABEL =
  /^(?:(?:business|store|shop|office|opening|open)\s+)?(?:hours|hrs)(?:\s+of\s+operation)?\s*(?::|\s[-–—]\s)\s*|^open\s*:\s*/i
const STARTS_LIKE_HOURS = new RegExp(
  `^(?:open\\s+)?(?:${DAY_WORD}\\b\\.?|daily\\b|every\\s*day\\b|everyday\\b|weekdays?\\b|weekends?\\b|(?:7|seven)\\s+days\\b|closed\\b|${ALL_DAY_WORD}|${TIME_WORD})`,
  'i',
)
// The days a line names: a day or day range, 'daily', 'weekdays', '7 days a week'.
const MENTIONS_DAYS = new RegExp(
  `\\b${DAY_WORD}\\b|\\b(?:daily|every\\s*day|everyday|weekdays?|weekends?|(?:7|seven)\\s+days)\\b`,
  'i',
)
// An opening and a closing time: '7:30am-2pm', 'noon to midnight', and a bare '9-5' or '9 to 6'
// after a day name, which is a time range even though it is too vague to parse.
const CLOCK = '(?:(?<!\\d)\\d{1,2}(?:[:.]\\d{2})?(?!\\d)\\s*(?:[ap]\\.?\\s?m\\b\\.?|[ap]\\b)?|noon\\b|midnight\\b)'
const TIME_RANGE = new RegExp(`${CLOCK}\\s*(?:-+|\\b(?:to|thru|through|till|til|until)\\b)\\s*${CLOCK}`, 'i')
const MENTIONS_CLOSED_OR_ALL_DAY = new RegExp(`\\bclosed\\b|${ALL_DAY_WORD}`, 'i')

// Words an hours line is made of; a line with several other long words is a sentence about
// the business ('Sunday brunch from 10am is a local favorite…'), so it stays a description.
const SCHEDULE_WORDS = new Set([
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
  /** The season a dropped label named ('Winter hours:' gives 'Winter'), to tell two seasons' lines apart. */
  season?: string
  /** The value keeps labels that say what each schedule is for ('Kitchen: …; Bar: …'). */
  keepsLabels?: true
}

const SEASON = /\b(summer|winter|spring|fall|autumn|off[- ]?season|peak[- ]?season)\b/i

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
 * Reads an hours line by its content, with or without a label, and returns the hours with the label
 * dropped ('Shop: Tue-Sat 10am-5pm' gives 'Tue-Sat 10am-5pm', 'Open daily 6am-2pm' gives 'Daily
 * 6am-2pm'); null when the line is not about opening hours. A seasonal note after the hours stays.
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
    const season = SEASON.exec(label[1] ?? '')?.[1]
    return {
      value: capitalise(withoutOpen(rest)),
      labelled: true,
      score,
      ...(season ? { season: capitalise(season.toLowerCase()) } : {}),
    }
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
    if (hoursScore(rest) === 1) return { value: capitalise(withoutOpen(rest)), labelled: true, score: 0.9 }
  }
  // What is open, named before it ('Office open daily 8am-8pm', 'Pool open weekends noon-6'): the
  // whole line is the hours, as it is behind 'Hours:', for it says what the times are for.
  if (namesWhatIsOpen(text)) return { value: capitalise(text), labelled: true, score: 0.9 }
  const score = hoursScore(text)
  return score >= 0.5 ? { value: capitalise(text), labelled: false, score } : null
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

type Meridiem = 'am' | 'pm'

type Time = { hour: number; minute: number; meridiem: Meridiem | null; twentyFourHour: boolean }

type Token =
  | { kind: 'day'; day: DayOfWeek }
  | { kind: 'days'; days: DayOfWeek[] }
  | { kind: 'time'; time: Time }
  | { kind: 'allDay' }
  | { kind: 'closed' }
  | { kind: 'range' }
  | { kind: 'list' }
  | { kind: 'colon' }

type Spec = { kind: 'closed' } | { kind: 'open'; opens: number; closes: number }

const RANGE_WORDS = new Set(['to', 'through', 'thru', 'till', 'til', 'until'])
// Filler that does not change the meaning: 'Open Daily', 'Hours Mon-Fri', 'from 7am to 5pm'.
const FILLER_WORDS = new Set(['open', 'hours', 'hrs', 'from', 'are'])

/** Reads an hours text into business_hours rows; an empty list when any part is unclear, never a guess. */
export function parseHours(text: string): HoursRow[] {
  const value = stripHoursLabel(text) ?? text
  const tokens = tokenize(value)
  if (tokens === null || tokens.length === 0) return []
  const groups = parseGroups(tokens)
  if (groups === null) return []
  return toRows(groups)
}

function tokenize(text: string): Token[] | null {
  const source = text.toLowerCase().replace(/[‐‑‒–—―]/g, '-')
  const tokens: Token[] = []
  const patterns: [RegExp, (match: RegExpExecArray) => Token | null | 'skip'][] = [
    [new RegExp(ALL_DAY_WORD + '(?:\\s+a\\s+day)?', 'y'), () => ({ kind: 'allDay' })],
    [/(?:(?:7|seven)\s+days(?:\s+a\s+week)?|every\s*day|daily)\b/y, () => ({ kind: 'days', days: ALL_DAYS })],
    [/weekdays?\b/y, () => ({ kind: 'days', days: [1, 2, 3, 4, 5] })],
    [/weekends?\b/y, () => ({ kind: 'days', days: [6, 0] })],
    [/(\d{1,2})(?![\d])(?:[:.](\d{2}))?\s*(?:([ap])\.?\s?m\b\.?|([ap])\b\.?)?/y, readTime],
    [/[a-z]+\.?/y, readWord],
    [/[,;|&/+]/y, () => ({ kind: 'list' })],
    [/-+/y, () => ({ kind: 'range' })],
    [/:/y, () => ({ kind: 'colon' })],
    [/\./y, () => 'skip'],
  ]
  let position = 0
  while (position < source.length) {
    const space = /\s+/y
    space.lastIndex = position
    if (space.test(source)) {
      position = space.lastIndex
      continue
    }
    let matched = false
    for (const [pattern, read] of patterns) {
      pattern.lastIndex = position
      const match = pattern.exec(source)
      if (!match) continue
      const token = read(match)
      if (token === null) return null
      if (token !== 'skip') tokens.push(token)
      position = pattern.lastIndex
      matched = true
      break
    }
    // Anything else (a parenthesis, 'by appointment', 'seasonal') means the line says more than
    // days and times, so reading only part of it would misstate the hours.
    if (!matched) return null
  }
  return tokens
}

function readTime(match: RegExpExecArray): Token | null {
  const [, hourText = '', minuteText, longMeridiem, shortMeridiem] = match
  const marker = longMeridiem ?? shortMeridiem
  const hour = Number(hourText)
  const minute = minuteText === undefined ? 0 : Number(minuteText)
  if (minute > 59) return null
  return {
    kind: 'time',
    time: {
      hour,
      minute,
      meridiem: marker === undefined ? null : marker === 'a' ? 'am' : 'pm',
      // '07:00', '0:30' and '21:00' can only be 24-hour times.
      twentyFourHour: hour > 12 || hour === 0 || (hourText.length === 2 && hourText.startsWith('0')),
    },
  }
}

function readWord(match: RegExpExecArray): Token | null | 'skip' {
  const word = match[0].replace(/\.$/, '')
  const day = DAY_NAMES[word]
  if (day !== undefined) return { kind: 'day', day }
  if (word === 'closed') return { kind: 'closed' }
  if (word === 'noon') return { kind: 'time', time: { hour: 12, minute: 0, meridiem: 'pm', twentyFourHour: false } }
  if (word === 'midnight') return { kind: 'time', time: { hour: 12, minute: 0, meridiem: 'am', twentyFourHour: false } }
  if (RANGE_WORDS.has(word)) return { kind: 'range' }
  if (word === 'and') return { kind: 'list' }
  if (FILLER_WORDS.has(word)) return 'skip'
  return null
}

type Group = { days: DayOfWeek[]; spec: Spec }

function parseGroups(tokens: Token[]): Group[] | null {
  const stream = new TokenStream(tokens)
  const groups: Group[] = []
  while (!stream.done) {
    while (stream.peek()?.kind === 'list') stream.index += 1
    if (stream.done) break
    let days = stream.days()
    if (stream.peek()?.kind === 'colon') stream.index += 1
    const read = stream.specs()
    if (read === null) return null
    if (days === null) {
      // The days may follow the times: '6am-10pm daily', 'Closed Sundays', '24 hours, 7 days a week'.
      days = stream.daysAfter()
      // 'Open 24 hours' on its own means every day; a bare '7am-5pm' does not say which days.
      if (days === null && read.allDay && groups.length === 0 && stream.done) days = ALL_DAYS
      if (days === null) return null
    }
    for (const spec of read.specs) groups.push({ days, spec })
  }
  return groups
}

/** A cursor over the tokens of an hours line, reading days and the times that go with them. */
class TokenStream {
  index = 0
  private readonly tokens: Token[]

  constructor(tokens: Token[]) {
    this.tokens = tokens
  }

  /** The token at the cursor, or offset past it. */
  peek(offset = 0): Token | undefined {
    return this.tokens[this.index + offset]
  }

  /** Tells whether every token is read. */
  get done(): boolean {
    return this.index >= this.tokens.length
  }

  /** Reads days: 'Mon-Fri', 'daily', 'Sat & Sun', 'Mon, Wed, Fri'; null when none come next. */
  days(): DayOfWeek[] | null {
    const days: DayOfWeek[] = []
    for (;;) {
      const token = this.peek()
      if (token?.kind === 'days') {
        days.push(...token.days)
        this.index += 1
      } else if (token?.kind === 'day') {
        const end = this.peek(2)
        const range = this.peek(1)?.kind === 'range' && end?.kind === 'day'
        days.push(...(range ? dayRange(token.day, end.day) : [token.day]))
        this.index += range ? 3 : 1
      } else {
        break
      }
      // 'Sat & Sun', 'Mon, Wed, Fri': a list separator continues the days only if a day follows.
      const next = this.peek(1)?.kind
      if (this.peek()?.kind === 'list' && (next === 'day' || next === 'days')) this.index += 1
    }
    return days.length > 0 ? days : null
  }

  /** Reads days after the times ('6am-10pm daily'), or moves nowhere and gives null. */
  daysAfter(): DayOfWeek[] | null {
    const save = this.index
    if (this.peek()?.kind === 'list') this.index += 1
    const days = this.days()
    if (days === null) this.index = save
    return days
  }

  /** Reads the times of one set of days: a range, 'closed' or '24 hours', and a split shift's second range. */
  specs(): { specs: Spec[]; allDay: boolean } | null {
    const specs: Spec[] = []
    let allDay = false
    for (;;) {
      const spec = this.spec()
      if (spec === null) return null
      allDay ||= spec === 'allDay'
      specs.push(spec === 'allDay' ? { kind: 'open', opens: 0, closes: 0 } : spec)
      // A split shift: 'Mon-Fri 11am-2pm, 5pm-9pm' gives the same days a second range.
      if (this.peek()?.kind !== 'list' || this.peek(1)?.kind !== 'time') return { specs, allDay }
      this.index += 1
    }
  }

  /** Reads 'closed', '24 hours' or a time range; null when none comes next. */
  private spec(): Spec | 'allDay' | null {
    const token = this.peek()
    if (token?.kind === 'closed' || token?.kind === 'allDay') {
      this.index += 1
      return token.kind === 'closed' ? { kind: 'closed' } : 'allDay'
    }
    const end = this.peek(2)
    if (token?.kind === 'time' && this.peek(1)?.kind === 'range' && end?.kind === 'time') {
      this.index += 3
      return resolveRange(token.time, end.time)
    }
    return null
  }
}

function dayRange(from: DayOfWeek, to: DayOfWeek): DayOfWeek[] {
  const days: DayOfWeek[] = []
  // 'Fri-Mon' wraps through the weekend.
  for (let day = from; ; day = ((day + 1) % 7) as DayOfWeek) {
    days.push(day)
    if (day === to) return days
  }
}

function resolveRange(opens: Time, closes: Time): Spec | null {
  let opensAt: number | null
  let closesAt: number | null
  if (opens.meridiem !== null && closes.meridiem !== null) {
    opensAt = twelveHour(opens, opens.meridiem)
    closesAt = twelveHour(closes, closes.meridiem)
  } else if (opens.meridiem !== null || closes.meridiem !== null) {
    // '5-9pm' shares the meridiem; '9-5pm' and '11-2pm' cannot, so the opening is in the morning.
    const known = (opens.meridiem ?? closes.meridiem) as Meridiem
    const other: Meridiem = known === 'am' ? 'pm' : 'am'
    const candidates: Meridiem[] = opens.meridiem === null ? [known, other] : [opens.meridiem]
    const closeCandidates: Meridiem[] = closes.meridiem === null ? [known, other] : [closes.meridiem]
    opensAt = null
    closesAt = null
    for (const [openMeridiem, closeMeridiem] of candidates.flatMap((o) =>
      closeCandidates.map((c) => [o, c] as const),
    )) {
      const o = twelveHour(opens, openMeridiem)
      const c = twelveHour(closes, closeMeridiem)
      if (o !== null && c !== null && o < c) {
        opensAt = o
        closesAt = c
        break
      }
    }
  } else if (opens.twentyFourHour || closes.twentyFourHour) {
    opensAt = twentyFourHour(opens)
    closesAt = twentyFourHour(closes)
  } else {
    // '9-5' or '9:00-5:00': most likely morning to evening, but a guess all the same.
    return null
  }
  if (opensAt === null || closesAt === null || opensAt >= 24 * 60) return null
  // '00:00-24:00' is the whole day, stored like 'Open 24 hours'.
  if (opensAt === 0 && closesAt === 24 * 60) return { kind: 'open', opens: 0, closes: 0 }
  closesAt %= 24 * 60
  if (opensAt === closesAt) return null
  return { kind: 'open', opens: opensAt, closes: closesAt }
}

function twelveHour(time: Time, meridiem: Meridiem): number | null {
  if (time.hour < 1 || time.hour > 12) return null
  const hour = (time.hour % 12) + (meridiem === 'pm' ? 12 : 0)
  return hour * 60 + time.minute
}

function twentyFourHour(time: Time): number | null {
  if (time.hour > 24 || (time.hour === 24 && time.minute > 0)) return null
  return time.hour * 60 + time.minute
}

function toRows(groups: Group[]): HoursRow[] {
  const byDay = new Map<DayOfWeek, Spec[]>()
  for (const { days, spec } of groups) {
    for (const day of new Set(days)) {
      const specs = byDay.get(day) ?? []
      specs.push(spec)
      byDay.set(day, specs)
    }
  }
  const rows: HoursRow[] = []
  for (const day of ALL_DAYS) {
    const specs = byDay.get(day)
    if (specs === undefined) continue
    if (specs.every((spec) => spec.kind === 'closed')) {
      rows.push({ day_of_week: day, is_closed: true })
      continue
    }
    const open = specs.filter((spec) => spec.kind === 'open')
    // A day both closed and open, or with overlapping ranges, contradicts itself.
    if (open.length !== specs.length || overlaps(open)) return []
    open.sort((a, b) => a.opens - b.opens)
    for (const spec of open) {
      rows.push({ day_of_week: day, opens_at: clock(spec.opens), closes_at: clock(spec.closes) })
    }
  }
  return rows
}

function overlaps(ranges: { opens: number; closes: number }[]): boolean {
  const spans = ranges.map(({ opens, closes }) => [opens, closes <= opens ? closes + 24 * 60 : closes] as const)
  return spans.some(([start, end], i) =>
    spans.some(([otherStart, otherEnd], j) => i < j && start < otherEnd && otherStart < end),
  )
}

function clock(minutes: number): string {
  const hour = Math.floor(minutes / 60)
  return `${String(hour).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
}
