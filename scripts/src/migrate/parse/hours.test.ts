import { describe, expect, test } from 'vitest'
import { loadList, scoreList } from '../accuracy.ts'
import { parseRolandText, type ParsedBusiness } from './index.ts'
import { readLabelledHours } from './hours.ts'

/** Parses one entry with the given line among its fields. */
function entryWith(line: string): ParsedBusiness {
  const [business] = parseRolandText(
    `Oak Hollow Outfitters\n(573) 555-0190\n${line}\nA family business on the square since the old days.`,
  )
  if (business === undefined) throw new Error('no business parsed')
  return business
}

describe('readLabelledHours', () => {
  test.each([
    // A service's name, with a dash, a colon or nothing between it and the times.
    'Pharmacy counter - Mon-Fri 9am-6pm',
    'Drive-thru: Mon-Fri 6am-10pm',
    'Drive-thru Mon-Fri 6am-10pm',
    // A season, with the months in brackets or in a clause of their own.
    'Winter (Nov-Mar): Sat-Sun 10am-4pm',
    'Summer hours: May–September, 7am–9pm',
    // An activity.
    'Boat rentals daily 8am-6pm',
    'Fish fry every Friday 5-8pm',
    // Several schedules on one line, each behind its own label, whatever runs between them.
    'Lunch buffet Mon-Fri 11am-2pm; dinner Thu-Sat 5pm-9pm',
    'Taproom: Thu-Sun 3pm-10pm | Kitchen: Fri-Sat 5pm-9pm',
    'Youth league practice Tuesdays 6:00-7:30pm, games Saturdays 9am-1pm',
    'Grooming by appointment; walk-in baths Sat 9am-1pm',
    // A label of its own clause, then the times.
    'Open for breakfast and lunch, Tue-Sun 7am-2pm',
    'Breakfast and lunch, Mon-Sat 6am-2pm. Fish fry every Friday 4pm-8pm.',
  ])('reads %s as hours, labels and all', (line) => {
    expect(readLabelledHours(line)?.value).toBe(line)
    const business = entryWith(line)
    expect(business.hours).toBe(line)
    expect(business.full_description).toBe('A family business on the square since the old days.')
  })

  test.each([
    'Sunday brunch from 10am is a local favorite with the church crowd.',
    'Saturdays at 10am the kids story hour fills up fast.',
    'Family owned since 1952, open Mon-Sat 8am-6pm',
    'Fridays open until 9pm for games',
    'We carry feed, seed, fencing and tools for the whole county.',
  ])('leaves %s to the description', (line) => {
    expect(readLabelledHours(line)).toBeNull()
  })

  test.each([
    // A label that says something stays with its hours, behind a colon or none; a closing 'hours' goes.
    ['Fish fry: Fridays 4pm-8pm', 'Fish fry: Fridays 4pm-8pm'],
    ['Winter hours: Thu-Sun 10am-4pm', 'Winter: Thu-Sun 10am-4pm'],
    ['Spring and fall: weekends 9am-5pm', 'Spring and fall: Weekends 9am-5pm'],
    ['Bingo night: Thursdays 6:30pm-9pm', 'Bingo night: Thursdays 6:30pm-9pm'],
    ['hunting season: Sat-Sun 5am-7pm', 'Hunting season: Sat-Sun 5am-7pm'],
    ['Farmers market : Saturdays 7am-noon', 'Farmers market: Saturdays 7am-noon'],
    ['Car wash 7am-9pm daily', 'Car wash 7am-9pm daily'],
    ['Deer processing (Nov-Jan): daily 6am-8pm', 'Deer processing (Nov-Jan): daily 6am-8pm'],
    ['Quilting circle: Tue 1pm-3pm; open sew Thu 6pm-8pm', 'Quilting circle: Tue 1pm-3pm; open sew Thu 6pm-8pm'],
    // One that names only the business's own place says nothing the hours do not.
    ['Office: Mon-Fri 8am-5pm', 'Mon-Fri 8am-5pm'],
    ['Kitchen hours: Tue-Sun 11am-9pm', 'Tue-Sun 11am-9pm'],
  ])('puts the colon-labelled line %s in the hours as %s', (line, hours) => {
    const business = entryWith(line)
    expect(business.hours).toBe(hours)
    expect(business.full_description).toBe('A family business on the square since the old days.')
  })

  test('keeps the seasons of two seasonal lines, each with its schedule', () => {
    expect(entryWith('Summer hours: Mon-Sat 7am-9pm\nWinter hours: Sat 9am-3pm').hours).toBe(
      'Summer: Mon-Sat 7am-9pm; Winter: Sat 9am-3pm',
    )
  })

  test('keeps the first label of a line with several labelled schedules', () => {
    expect(entryWith('Story time: Wednesdays 10am-11am; Lending desk: Mon-Sat 9am-6pm').hours).toBe(
      'Story time: Wednesdays 10am-11am; Lending desk: Mon-Sat 9am-6pm',
    )
  })
})

describe('readHoursField', () => {
  test('joins labelled schedules on consecutive lines with a semicolon, keeping each label', () => {
    expect(entryWith('Open bowling Fri-Sat 6pm-midnight\nLeague nights Tue-Thu 6:30pm-10pm').hours).toBe(
      'Open bowling Fri-Sat 6pm-midnight; League nights Tue-Thu 6:30pm-10pm',
    )
  })

  test('adds a labelled schedule further down to the hours rather than to the description', () => {
    const business = entryWith('Hours: Mon-Sat 9am-6pm\n12 Main St, Oak Hollow, MO 65401\nCanoe rentals daily 8am-5pm')
    expect(business.hours).toBe('Mon-Sat 9am-6pm; Canoe rentals daily 8am-5pm')
    expect(business.warnings).not.toContain('more than one hours line: kept the first')
  })

  test('still leaves out a second plain hours line further down, and says so', () => {
    const business = entryWith('Hours: Mon-Sat 9am-6pm\n12 Main St, Oak Hollow, MO 65401\nHours: Daily 8am-5pm')
    expect(business.hours).toBe('Mon-Sat 9am-6pm')
    expect(business.warnings).toContain('more than one hours line: kept the first')
  })
})

describe('a held-out list of labelled schedules', () => {
  // Written before the labelled hours were read (the parser of main read none of its hours); one
  // shape, '24/7' behind a label with words after it, is still left to the description.
  const list = loadList(new URL('../../../test/fixtures/held-out/', import.meta.url), 'maple-junction.txt')

  test('reads the hours of 11 of its 12 businesses, and loses or merges none', () => {
    const right = list.expected.filter(
      (want) => list.parsed.find((business) => business.name === want.name)?.hours === want.hours,
    )
    expect(right.length).toBeGreaterThanOrEqual(11)
    expect(list.parsed.map((business) => business.name)).toEqual(list.expected.map((business) => business.name))
  })

  test('reads at least 97% of its fields right', () => {
    const score = scoreList(list.parsed, list.expected)
    expect(score.correct / score.total).toBeGreaterThanOrEqual(0.97)
  })
})
