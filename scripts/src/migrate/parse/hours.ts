import {
  CLAUSE_BREAK,
  hoursScore,
  isScheduleNote,
  MAX_HOURS_LENGTH,
  mentionsTimes,
  type HoursReading,
} from '../hours.ts'
import type { Draft, LineState } from './draft.ts'
import type { LineKind } from './kinds.ts'

// Stage: hours. Finds hours by what they are, whatever label stands before them, and keeps an
// entry's hours lines together (the days and times themselves are read by ../hours.ts).

// A label in front of a schedule: a season, a service, an activity ('Drive-thru', 'Winter (Nov-Mar)',
// 'Fish fry every'), with no digit, sentence mark, web or e-mail address in it.
const LABEL = /^[\p{L}'’&()-]+(?:\s+[\p{L}'’&()-]+){0,5}$/u
// What stands between a label and its schedule: a colon or a dash ('Kitchen:', 'Pharmacy counter -').
const LABEL_END = /\s*(?::|\s[-–—]|[-–—])\s*$|\s+$/

// A day, a clock time with am or pm, 'noon', 'closed' or '24': most lines with none are spared the reading.
const NAMES_WHEN =
  /\b(?:mon|tue|wed|thu|fri|sat|sun|daily|every\s*day|weekdays?|weekends?|noon|midnight|closed|24)|\d\s*[ap]\.?\s?m\b|\b(?:m|tu|w|th|f|sa|su)\s*[-/&]\s*(?:m|tu|w|th|f|sa|su)\b/i

/** What a clause of a line is: a schedule (maybe behind a label), a note of when, a label alone, or other text. */
type Clause = 'schedule' | 'note' | 'label' | 'other'

/**
 * Reads a line whose clauses are schedules behind labels ('Drive-thru Mon-Fri 6am-10pm', 'Lunch
 * Mon-Fri 11am-2pm; dinner Thu-Sat 5pm-9pm', 'Summer hours: May–September, 7am–9pm') as hours, kept
 * whole, for each label says what its times are for; null when any clause is something else.
 */
export function readLabelledHours(line: string): HoursReading | null {
  const text = line.trim()
  if (!NAMES_WHEN.test(text) || !mentionsTimes(text)) return null
  const clauses: Clause[] = []
  // Most lines with a time in them are sentences: the first clause that is other text ends the reading.
  for (const part of text.replace(/\.$/, '').split(CLAUSE_BREAK)) {
    const clause = readClause(part)
    if (clause === 'other') return null
    clauses.push(clause)
  }
  if (!clauses.includes('schedule')) return null
  // A label on its own labels the schedule or note after it ('Open for breakfast and lunch, Tue-Sun 7am-2pm').
  if (clauses.some((clause, i) => clause === 'label' && (clauses[i + 1] ?? 'label') === 'label')) return null
  return { value: text.charAt(0).toUpperCase() + text.slice(1), labelled: true, score: 0.9, keepsLabels: true }
}

/** Reads one clause: where a schedule or a note of when starts in it, after at most a label's words. */
function readClause(clause: string): Clause {
  const starts = [0, ...[...clause.matchAll(/\s+/g)].map((space) => space.index + space[0].length)].slice(0, 7)
  for (const at of starts) {
    const label = clause.slice(0, at).replace(LABEL_END, '')
    if (label !== '' && !LABEL.test(label)) continue
    const rest = clause.slice(at)
    if (mentionsTimes(rest) && hoursScore(rest) >= 0.9) return 'schedule'
    if (isScheduleNote(rest)) return 'note'
  }
  return LABEL.test(clause) ? 'label' : 'other'
}

/**
 * Adds an hours line to the draft. Hours spread over consecutive lines belong together ('Mon-Fri
 * 7am-5pm' / 'Sat 8am-noon'); lines of two seasons keep their seasons ('Summer: Daily 6am-8pm;
 * Winter: Sat-Sun 9am-3pm'). A schedule behind a label of its own further down ('Happy hour daily
 * 4pm-6pm') joins them too; another hours line is left out, with a warning.
 */
export function readHoursField(kind: HoursKind, draft: Draft, state: LineState): void {
  if (draft.hours !== null && (state.previous === 'hours' || kind.keepsLabels === true)) {
    addHoursLine(kind, draft, draft.hours)
  } else if (state.hoursSeen && state.previous !== 'hours') {
    draft.hoursWarnings.push('more than one hours line: kept the first')
  } else {
    draft.hours = kind.value === '' ? null : kind.value
    draft.hoursLabelled = kind.keepsLabels === true
  }
  state.hoursSeen = true
}

/** A line read as hours. */
type HoursKind = Extract<LineKind, { kind: 'hours' }>

/** Joins the next line of hours to those read so far, unless that makes them too long. */
function addHoursLine(kind: HoursKind, draft: Draft, hours: string): void {
  // Labels (a season's, a service's) mark where each schedule starts, so a semicolon, not a comma, runs between them.
  const joined =
    draft.hoursLabelled || kind.keepsLabels === true ? `${hours}; ${kind.value}` : `${hours}, ${kind.value}`
  // Cut at the line's boundary rather than lose all the hours for being too long (SPEC §5).
  if (joined.length >= MAX_HOURS_LENGTH) {
    draft.hoursWarnings.push(
      `hours "${kind.value}" left out: with them the hours would be ${MAX_HOURS_LENGTH} characters or more`,
    )
  } else {
    draft.hours = joined
    // The line joined says where its own schedule starts; a plain line after it belongs with it.
    draft.hoursLabelled = false
  }
}
