import { ALL_DAY_WORD, ALL_DAYS, DAY_NAMES, stripHoursLabel, type DayOfWeek, type HoursRow } from './vocabulary.ts'

// Reading an hours text into business_hours rows (the "open now" badge reads them): tokens, then
// groups of days with their times, then a row per day. Any part it cannot read means no rows at
// all, never a guess.

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

export function tokenize(text: string): Token[] | null {
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
