import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { MAX_HOURS_LENGTH } from '../hours.ts'
import { parseRolandText } from './index.ts'

// Issue 51: hours found by what they are. A line of one to three schedules, each behind a label drawn
// at random (a season, a service, an activity, or none), with the separators people type between a
// label and its times and between two schedules, in any order, must leave no schedule in the
// description. A fixed seed in CI (so a run can be repeated there); a new one each local run.
const seed = process.env['CI'] ? 51 : undefined
const settings = (numRuns: number) => (seed === undefined ? { numRuns } : { numRuns, seed })

const LABELS = [
  // Seasons.
  'Summer',
  'Winter hours',
  'Spring and fall',
  'Off-season',
  'Christmas season (Nov-Dec)',
  // Services.
  'Kitchen',
  'Drive-thru',
  'Pharmacy counter',
  'Gift shop',
  'Service bay',
  'Taproom',
  'Lending desk',
  'Bait shop',
  // Activities.
  'Fish fry',
  'Story time',
  'Open bowling',
  'League nights',
  'Trail rides',
  'Live music',
  'Happy hour',
]
const DAYS = [
  'Mon-Fri',
  'Tue-Sat',
  'Sat-Sun',
  'Thu–Sun',
  'Fridays',
  'Saturdays',
  'daily',
  'weekends',
  'Tues thru Sat',
  'M-F',
]
const TIMES = [
  (open: number, close: number) => `${open}am-${close}pm`,
  (open: number, close: number) => `${open}:30am–${close}pm`,
  (open: number, close: number) => `${open} a.m. to ${close} p.m.`,
  (open: number, close: number) => `${open}am - ${close}:30pm`,
]
// Between a label and its times.
const LABEL_ENDS = [': ', ' - ', ' – ', ' ', ' — ', ' : ']
// Between two schedules.
const CLAUSE_BREAKS = ['; ', ' | ', ', ', ' / ', '. ', ' • ']

/** One schedule: its days and times in either order, and the label before it (maybe none). */
const schedule = fc
  .record({
    label: fc.option(fc.constantFrom(...LABELS), { nil: undefined, freq: 4 }),
    lowerCase: fc.boolean(),
    labelEnd: fc.constantFrom(...LABEL_ENDS),
    days: fc.constantFrom(...DAYS),
    time: fc.constantFrom(...TIMES),
    opens: fc.integer({ min: 5, max: 11 }),
    closes: fc.integer({ min: 1, max: 11 }),
    timesFirst: fc.boolean(),
  })
  .map(({ label, lowerCase, labelEnd, days, time, opens, closes, timesFirst }) => {
    const times = time(opens, closes)
    const when = timesFirst ? `${times} ${days}` : `${days} ${times}`
    const named = label === undefined ? '' : `${lowerCase ? label.toLowerCase() : label}${labelEnd}`
    return { when, label, clause: `${named}${when}` }
  })

// Labels that name only the business's own place, which the hours may leave out ('Kitchen: …' of a diner).
const PLACES = new Set(['kitchen'])

/** A line of one to three schedules, in the order drawn, and where it stands in the entry. */
const hoursLine = fc.record({
  schedules: fc.array(schedule, { minLength: 1, maxLength: 3 }),
  breaks: fc.array(fc.constantFrom(...CLAUSE_BREAKS), { minLength: 2, maxLength: 2 }),
  belowDescription: fc.boolean(),
})

describe('hours behind any label', () => {
  test.prop([hoursLine], settings(1_000))(
    'leaves no generated schedule in the description, and keeps each in the hours with its label',
    ({ schedules, breaks, belowDescription }) => {
      const line = schedules.map(({ clause }, i) => (i === 0 ? clause : `${breaks[i - 1]}${clause}`)).join('')
      const description = 'A family business on the square since the old days.'
      const fields = belowDescription ? [description, line] : [line, description]
      const [business] = parseRolandText(['Oak Hollow Outfitters', '(573) 555-0190', ...fields].join('\n'))
      for (const { when } of schedules) {
        expect(business?.full_description ?? '').not.toContain(when)
        if (line.length < MAX_HOURS_LENGTH) expect(business?.hours?.toLowerCase()).toContain(when.toLowerCase())
      }
      // A label that says something stays with its hours (less a closing 'hours': 'Winter: …').
      for (const { label } of schedules) {
        const named = label?.replace(/\s+hours$/i, '').toLowerCase()
        if (named !== undefined && !PLACES.has(named) && line.length < MAX_HOURS_LENGTH) {
          expect(business?.hours?.toLowerCase()).toContain(named)
        }
      }
      expect(business?.full_description).toBe(description)
    },
  )
})
