import { describe, expect, test } from 'vitest'
import { looksLikeHours, parseHours, readHoursLine, stripHoursLabel, type HoursRow } from './hours.ts'

const open = (day_of_week: HoursRow['day_of_week'], opens_at: string, closes_at: string): HoursRow => ({
  day_of_week,
  opens_at,
  closes_at,
})
const closed = (day_of_week: HoursRow['day_of_week']): HoursRow => ({ day_of_week, is_closed: true })
const everyDay = (opens_at: string, closes_at: string) =>
  ([0, 1, 2, 3, 4, 5, 6] as const).map((day) => open(day, opens_at, closes_at))

describe('parseHours', () => {
  test("reads 'Mon-Fri 7am-5pm, Sat 8am-12pm, Sun Closed' into a row per day, Sunday first", () => {
    expect(parseHours('Mon-Fri 7am-5pm, Sat 8am-12pm, Sun Closed')).toEqual([
      closed(0),
      open(1, '07:00', '17:00'),
      open(2, '07:00', '17:00'),
      open(3, '07:00', '17:00'),
      open(4, '07:00', '17:00'),
      open(5, '07:00', '17:00'),
      open(6, '08:00', '12:00'),
    ])
  })

  test("reads full day names with a colon: 'Monday - Saturday: 6:00 AM - 9:00 PM'", () => {
    expect(parseHours('Monday - Saturday: 6:00 AM - 9:00 PM')).toEqual(
      ([1, 2, 3, 4, 5, 6] as const).map((day) => open(day, '06:00', '21:00')),
    )
  })

  test("reads 'Daily 5am-10pm' as every day of the week", () => {
    expect(parseHours('Daily 5am-10pm')).toEqual(everyDay('05:00', '22:00'))
  })

  test("reads 'Open 24 hours' as midnight to midnight every day", () => {
    expect(parseHours('Open 24 hours')).toEqual(everyDay('00:00', '00:00'))
    expect(parseHours('24/7')).toEqual(everyDay('00:00', '00:00'))
    expect(parseHours('24 hours a day, 7 days a week')).toEqual(everyDay('00:00', '00:00'))
  })

  test("reads 24-hour times such as 'Tue-Sun 11:00-21:00'", () => {
    expect(parseHours('Tue-Sun 11:00-21:00')).toEqual(
      ([0, 2, 3, 4, 5, 6] as const).map((day) => open(day, '11:00', '21:00')),
    )
  })

  test("gives no rows for '11:00-21:00' alone, because it does not say which days", () => {
    expect(parseHours('11:00-21:00')).toEqual([])
    expect(parseHours('7am-5pm')).toEqual([])
  })

  test("gives no rows for '9-5', which could be morning or evening", () => {
    expect(parseHours('Mon-Fri 9-5')).toEqual([])
    expect(parseHours('Mon-Fri 9:00-5:00')).toEqual([])
  })

  test("shares a meridiem only where the result makes sense: '5-9pm' is evening, '9-5pm' is a working day", () => {
    expect(parseHours('Fri 5-9pm')).toEqual([open(5, '17:00', '21:00')])
    expect(parseHours('Fri 9-5pm')).toEqual([open(5, '09:00', '17:00')])
    expect(parseHours('Fri 11-2pm')).toEqual([open(5, '11:00', '14:00')])
  })

  test('keeps a closing time after midnight as an earlier clock time', () => {
    expect(parseHours('Fri-Sat 5pm-2am')).toEqual([open(5, '17:00', '02:00'), open(6, '17:00', '02:00')])
    expect(parseHours('Sat 11am-12am')).toEqual([open(6, '11:00', '00:00')])
    expect(parseHours('Sat noon to midnight')).toEqual([open(6, '12:00', '00:00')])
  })

  test("wraps a day range through the weekend: 'Fri-Mon'", () => {
    expect(parseHours('Fri-Mon 10a-6p').map((row) => row.day_of_week)).toEqual([0, 1, 5, 6])
  })

  test('reads days written after the times, and closed days written either way round', () => {
    expect(parseHours('7am-7pm daily')).toEqual(everyDay('07:00', '19:00'))
    expect(parseHours('Tue-Sat 9am-6pm, Closed Sundays')).toEqual([
      closed(0),
      ...([2, 3, 4, 5, 6] as const).map((day) => open(day, '09:00', '18:00')),
    ])
  })

  test("reads lists of days, 'weekdays' and 'weekends', dotted abbreviations and 'a.m.'", () => {
    expect(parseHours('Mon, Wed & Fri 9am-5pm').map((row) => row.day_of_week)).toEqual([1, 3, 5])
    expect(parseHours('Weekdays 6:30am-6pm, weekends 7am-3pm')).toEqual([
      open(0, '07:00', '15:00'),
      ...([1, 2, 3, 4, 5] as const).map((day) => open(day, '06:30', '18:00')),
      open(6, '07:00', '15:00'),
    ])
    expect(parseHours('Tues.-Sat. 11 a.m. to 8 p.m.')).toHaveLength(5)
  })

  test('gives a split shift two rows on the same day', () => {
    expect(parseHours('Mon 11am-2pm, 5pm-9pm')).toEqual([open(1, '11:00', '14:00'), open(1, '17:00', '21:00')])
  })

  test('gives no rows when a day is given twice in a way that contradicts itself', () => {
    expect(parseHours('Mon-Sat 9am-5pm, Sat 9am-12pm')).toEqual([])
    expect(parseHours('Mon-Fri 9am-5pm, Mon closed')).toEqual([])
  })

  test('gives no rows when the line says anything it cannot read', () => {
    expect(parseHours('Mon-Fri 8am-5pm (closed holidays)')).toEqual([])
    expect(parseHours('By appointment')).toEqual([])
    expect(parseHours('Saturdays 7am-noon, April through October')).toEqual([])
    expect(parseHours('Mon-Fri 8am-25pm')).toEqual([])
    expect(parseHours('Mon-Fri 8:75am-5pm')).toEqual([])
  })

  test("ignores an 'Hours:' label in front", () => {
    expect(parseHours('Hours: Sun 1pm-5pm')).toEqual([open(0, '13:00', '17:00')])
  })
})

describe('stripHoursLabel', () => {
  test("returns the text after 'Hours:' or a longer label", () => {
    expect(stripHoursLabel('Hours: Daily 6am-9pm')).toBe('Daily 6am-9pm')
    expect(stripHoursLabel('Store hours - Daily 6am-9pm')).toBe('Daily 6am-9pm')
    expect(stripHoursLabel('HOURS OF OPERATION: by appointment')).toBe('by appointment')
  })

  test('returns null for a line without the label', () => {
    expect(stripHoursLabel('Daily 6am-9pm')).toBeNull()
  })
})

describe('looksLikeHours', () => {
  test('accepts a labelled line whatever follows', () => {
    expect(looksLikeHours('Hours: call ahead, they change with the seasons')).toBe(true)
  })

  test('accepts an unlabelled schedule that starts with days or times', () => {
    expect(looksLikeHours('Mon-Sat 9am-6pm')).toBe(true)
    expect(looksLikeHours('Open daily 5am-10pm')).toBe(true)
    expect(looksLikeHours('Closed Mondays')).toBe(true)
    expect(looksLikeHours('Monday thru Friday 9-5')).toBe(true)
  })

  test('leaves a sentence that happens to start with a day to the description', () => {
    expect(looksLikeHours('Sunday brunch from 10am is a local favorite with the church crowd')).toBe(false)
  })

  test('leaves a tagline with an all-day promise and more words to the description', () => {
    expect(looksLikeHours('Open 24/7 for emergencies')).toBe(false)
    expect(looksLikeHours('Open 24 hours for towing calls')).toBe(false)
  })

  test("accepts an all-day line made of nothing else: 'Open 24 hours', '24/7'", () => {
    expect(looksLikeHours('Open 24 hours')).toBe(true)
    expect(looksLikeHours('Open 24/7')).toBe(true)
    expect(looksLikeHours('24 hours a day, 7 days a week')).toBe(true)
  })

  test('leaves a day without a time range to the description', () => {
    expect(looksLikeHours("We're open late on Fridays!")).toBe(false)
    expect(looksLikeHours('Fridays open until 9pm for games')).toBe(false)
    expect(looksLikeHours('Closing at noon on Christmas Eve')).toBe(false)
    expect(looksLikeHours('Saturdays at 10am the kids story hour fills up fast.')).toBe(false)
  })

  test('accepts day ranges with any dash and compact times', () => {
    expect(looksLikeHours('Mon-Fri 8-5')).toBe(true)
    expect(looksLikeHours('Tues–Sat 7:30am–2pm')).toBe(true)
    expect(looksLikeHours('Monday through Saturday, 9 to 6')).toBe(true)
    expect(looksLikeHours('Saturdays 7am-noon, April through October')).toBe(true)
  })

  test('rejects lines with no days or times', () => {
    expect(looksLikeHours('Open year-round with forty campsites')).toBe(false)
    expect(looksLikeHours('Monticello Street Florist')).toBe(false)
  })
})

describe('readHoursLine', () => {
  const value = (line: string) => readHoursLine(line)?.value ?? null

  test('reads abbreviated days with bare hours as hours: Tu-Th 9-4, M-Th 8:30-4:30, Fri by appt', () => {
    expect(value('Tu-Th 9-4')).toBe('Tu-Th 9-4')
    expect(value('M-Th 8:30-4:30, Fri by appt')).toBe('M-Th 8:30-4:30, Fri by appt')
    expect(value('Fri-Sun 10-5')).toBe('Fri-Sun 10-5')
  })

  test("drops a label that names only the business's own place: 'Shop:', 'Pharmacy:', 'Office:', 'Kitchen'", () => {
    expect(value('Shop: Tue-Sat 10am-5pm; dock open dawn to dusk')).toBe('Tue-Sat 10am-5pm; dock open dawn to dusk')
    expect(value('Pharmacy: Mon-Fri 9am-6pm; Sat 9am-1pm')).toBe('Mon-Fri 9am-6pm; Sat 9am-1pm')
    expect(value('Front office hours: Mon-Fri 8am-4pm')).toBe('Mon-Fri 8am-4pm')
    expect(value('Kitchen 6 a.m. to 2 p.m. Tue thru Sat')).toBe('6 a.m. to 2 p.m. Tue thru Sat')
  })

  test("keeps a label that says something with its hours, less a closing 'hours': a season, an activity, a service", () => {
    expect(value('Summer hours: daily 1pm-11pm')).toBe('Summer: Daily 1pm-11pm')
    expect(value('Spring and fall: Sat-Sun 10am-4pm')).toBe('Spring and fall: Sat-Sun 10am-4pm')
    expect(value('Fish fry: Fridays 5pm-8pm')).toBe('Fish fry: Fridays 5pm-8pm')
    expect(value('league nights: Tue-Thu 6pm-10pm')).toBe('League nights: Tue-Thu 6pm-10pm')
    expect(value('Car wash 7am-9pm daily')).toBe('Car wash 7am-9pm daily')
    expect(readHoursLine('Bakery case hours: Tue-Sat 6am-noon')).toMatchObject({
      value: 'Bakery case: Tue-Sat 6am-noon',
      keepsLabels: true,
    })
  })

  test('keeps a seasonal note after the hours', () => {
    expect(value('Winter hours: Sat-Sun 9am-3pm (November to March)')).toBe(
      'Winter: Sat-Sun 9am-3pm (November to March)',
    )
    expect(value('Daily 8am-6pm (May-Sept)')).toBe('Daily 8am-6pm (May-Sept)')
  })

  test("drops 'Open' before the days, but keeps 'Open 24 hours' whole", () => {
    expect(value('Open daily 6am-2pm')).toBe('Daily 6am-2pm')
    expect(value('Open 7 days 8am-6pm, Memorial Day to Labor Day')).toBe('7 days 8am-6pm, Memorial Day to Labor Day')
    expect(value('Open 24 hours')).toBe('Open 24 hours')
    expect(value('24 hours')).toBe('24 hours')
  })

  test('reads an appointment-only line as hours, with no times at all', () => {
    expect(value('Appointments only')).toBe('Appointments only')
    expect(value('By appointment')).toBe('By appointment')
    expect(value('By appointment only')).toBe('By appointment only')
    expect(parseHours('Appointments only')).toEqual([])
  })

  test('leaves a sentence that mentions appointments or a label that is not hours to the description', () => {
    expect(readHoursLine('Walk-ins welcome for cuts; color by appointment.')).toBeNull()
    expect(readHoursLine('By appointment we also sharpen mower blades and saws for the whole county')).toBeNull()
    expect(readHoursLine('Note: the owners are retiring in May')).toBeNull()
    expect(readHoursLine('Fridays open until 9pm for games')).toBeNull()
  })

  test("reads what is open named before the hours as hours, kept whole: 'Office open daily 8am-8pm'", () => {
    // As behind 'Hours:', with or without a label of its own: the name says what the times are for.
    expect(value('Office open daily 8am-8pm')).toBe('Office open daily 8am-8pm')
    expect(value('Hours: Office open daily 8am-8pm')).toBe('Office open daily 8am-8pm')
    expect(value('Pool open weekends noon-6pm')).toBe('Pool open weekends noon-6pm')
    expect(readHoursLine('Summer: Pool open weekends noon-6pm')).toMatchObject({
      value: 'Summer: Pool open weekends noon-6pm',
      keepsLabels: true,
    })
    // Not a sentence that goes on after the times, nor days before 'open'.
    expect(readHoursLine('Kitchen open daily 8am-8pm for the whole family and friends')).toBeNull()
    expect(readHoursLine('Fridays open until 9pm for games')).toBeNull()
  })

  test("does not take 'Monday - Thursday:' for a label", () => {
    expect(value('Monday - Thursday: 8:00 AM - 5:00 PM')).toBe('Monday - Thursday: 8:00 AM - 5:00 PM')
  })
})
