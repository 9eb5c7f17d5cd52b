import { MAX_HOURS_LENGTH } from '../hours.ts'
import type { Draft, LineState } from './draft.ts'
import type { LineKind } from './kinds.ts'

// Stage: hours. Keeps an entry's hours lines together (the days and times themselves are read by
// ../hours.ts).

/**
 * Adds an hours line to the draft. Hours spread over consecutive lines belong together ('Mon-Fri
 * 7am-5pm' / 'Sat 8am-noon'); lines of two seasons keep their seasons ('Summer: Daily 6am-8pm;
 * Winter: Sat-Sun 9am-3pm'). A second hours line further down is left out, with a warning.
 */
export function readHoursField(kind: Extract<LineKind, { kind: 'hours' }>, draft: Draft, state: LineState): void {
  if (state.previous === 'hours' && draft.hours !== null) {
    addHoursLine(kind, draft, draft.hours)
  } else if (state.hoursSeen && state.previous !== 'hours') {
    draft.hoursWarnings.push('more than one hours line: kept the first')
  } else {
    draft.hours = kind.value === '' ? null : kind.value
    draft.hoursSeason = kind.season ?? null
  }
  state.hoursSeen = true
}

/** Joins the next line of hours to those read so far, unless that makes them too long. */
function addHoursLine(kind: Extract<LineKind, { kind: 'hours' }>, draft: Draft, hours: string): void {
  const seasons = draft.hoursSeason !== null || kind.season !== undefined
  const first = draft.hoursSeason === null ? hours : `${draft.hoursSeason}: ${hours}`
  const joined = seasons
    ? `${first}; ${kind.season === undefined ? '' : `${kind.season}: `}${kind.value}`
    : `${hours}, ${kind.value}`
  // Cut at the line's boundary rather than lose all the hours for being too long (SPEC §5).
  if (joined.length >= MAX_HOURS_LENGTH) {
    draft.hoursWarnings.push(
      `hours "${kind.value}" left out: with them the hours would be ${MAX_HOURS_LENGTH} characters or more`,
    )
  } else {
    draft.hours = joined
    draft.hoursSeason = null
  }
}
