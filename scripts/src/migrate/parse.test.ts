import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { BUSINESS_CATEGORIES } from './category.ts'
import {
  decodeRolandFile,
  MAX_FILE_BYTES,
  parseRolandText,
  parseRolandTextReport,
  RolandFileError,
  shorten,
  type ParsedBusiness,
} from './parse/index.ts'

/** Parses text expected to hold exactly one business and returns it. */
function parseOne(text: string): ParsedBusiness {
  const businesses = parseRolandText(text)
  expect(businesses).toHaveLength(1)
  return businesses[0] as ParsedBusiness
}

function thrown(action: () => unknown): unknown {
  try {
    action()
  } catch (error) {
    return error
  }
  throw new Error('expected the call to throw')
}

const BIG_ROCK = `Big Rock Coffee - Coffee shop & bakery
Phone: (501) 555-0101
Website: www.bigrockcoffee.example
Address: 21000 Highway 300, Roland, AR 72135
Hours: Mon-Fri 6am-6pm, Sat 7am-2pm, Sun Closed
Locally roasted coffee and pastries baked before sunrise.
Special features: Locally roasted coffee, free Wi-Fi, outdoor patio`

describe('parseRolandText', () => {
  test('reads every field of a labelled entry', () => {
    expect(parseOne(BIG_ROCK)).toEqual({
      index: 0,
      line: 1,
      name: 'Big Rock Coffee',
      slug: 'big-rock-coffee',
      category: 'Dining & Refreshments',
      phone: '(501) 555-0101',
      website: 'https://www.bigrockcoffee.example',
      address: '21000 Highway 300, Roland, AR 72135',
      hours: 'Mon-Fri 6am-6pm, Sat 7am-2pm, Sun Closed',
      short_description: 'Coffee shop & bakery',
      full_description: 'Coffee shop & bakery.\n\nLocally roasted coffee and pastries baked before sunrise.',
      services: ['Locally roasted coffee', 'free Wi-Fi', 'outdoor patio'],
      hours_detail: [
        { day_of_week: 0, is_closed: true },
        { day_of_week: 1, opens_at: '06:00', closes_at: '18:00' },
        { day_of_week: 2, opens_at: '06:00', closes_at: '18:00' },
        { day_of_week: 3, opens_at: '06:00', closes_at: '18:00' },
        { day_of_week: 4, opens_at: '06:00', closes_at: '18:00' },
        { day_of_week: 5, opens_at: '06:00', closes_at: '18:00' },
        { day_of_week: 6, opens_at: '07:00', closes_at: '14:00' },
      ],
      warnings: [],
    })
  })

  test('reads an unlabelled entry by what each line looks like', () => {
    const business = parseOne(`Natural Steps Diner
501-555-0121
www.naturalstepsdiner.example
14520 Natural Steps Rd, Roland, AR 72135
Daily 5am-2pm
Biscuits and gravy served the same way for three generations.`)
    expect(business).toMatchObject({
      name: 'Natural Steps Diner',
      phone: '(501) 555-0121',
      website: 'https://www.naturalstepsdiner.example',
      address: '14520 Natural Steps Rd, Roland, AR 72135',
      hours: 'Daily 5am-2pm',
      full_description: 'Biscuits and gravy served the same way for three generations.',
    })
    expect(business.hours_detail).toHaveLength(7)
  })

  describe('splitting the file into entries', () => {
    test('starts a new entry after a blank line, a run of blank lines or a whitespace-only line', () => {
      const names = parseRolandText(
        'A Cafe\n(501) 555-0101\n\nB Market\n(501) 555-0102\n\n\n\nC Marina\n(501) 555-0103\n  \t \nD Salon\n(501) 555-0104',
      ).map((business) => business.name)
      expect(names).toEqual(['A Cafe', 'B Market', 'C Marina', 'D Salon'])
    })

    test('reads Windows line endings, a byte-order mark, tabs and trailing spaces', () => {
      const text =
        '\uFEFFBig Rock Coffee - Coffee shop   \r\nPhone:\t(501) 555-0101  \r\n\r\nStop-N-Go Market\t\r\n501-555-0142\r\n'
      const businesses = parseRolandText(text)
      expect(businesses.map(({ name, phone }) => [name, phone])).toEqual([
        ['Big Rock Coffee', '(501) 555-0101'],
        ['Stop-N-Go Market', '(501) 555-0142'],
      ])
      expect(businesses[0]?.short_description).toBe('Coffee shop')
    })

    test('treats a line of dashes or equals signs as a separator, not as a business', () => {
      const names = parseRolandText(
        'A Cafe\n(501) 555-0101\n----------\nB Market\n(501) 555-0102\n\n==========\n\nC Marina\n(501) 555-0103',
      ).map((business) => business.name)
      expect(names).toEqual(['A Cafe', 'B Market', 'C Marina'])
    })

    test('skips a file title and section headings', () => {
      const report = parseRolandTextReport(`ROLAND BUSINESS DIRECTORY

Roland Business Directory
Compiled by the Roland Community Association
Roland, AR 72135

=== DINING & REFRESHMENTS ===

${BIG_ROCK}`)
      expect(report.businesses.map((business) => business.name)).toEqual(['Big Rock Coffee'])
      expect(report.skipped.map(({ line, reason }) => [line, reason])).toEqual([
        [1, 'a heading, not a business'],
        [3, 'a heading, not a business'],
        [7, 'a heading, not a business'],
      ])
    })

    test('skips a block that starts with a phone number instead of a name, and says why', () => {
      const report = parseRolandTextReport(`(501) 555-0199\nCall us any time\n\n${BIG_ROCK}`)
      expect(report.businesses).toHaveLength(1)
      expect(report.skipped).toEqual([
        { line: 1, text: '(501) 555-0199', reason: 'starts with a phone number instead of a business name' },
      ])
    })

    test('skips a name with nothing under it', () => {
      const report = parseRolandTextReport(`Joe's Diner\nEst. 1985\n\n${BIG_ROCK}`)
      expect(report.skipped).toEqual([
        { line: 1, text: "Joe's Diner", reason: 'no phone, website, address or description below the name' },
      ])
    })

    test('keeps a title ruled off right above the first business apart from it', () => {
      const report = parseRolandTextReport(
        'Willow Bend Merchants — 2025\n*****\nBend Coffee Co. — Espresso bar\nTel: 903-555-0161\n412 Front St, Willow Bend, TX 75455',
      )
      expect(report.businesses.map((business) => business.name)).toEqual(['Bend Coffee Co.'])
      expect(report.skipped.map((block) => block.line)).toEqual([1])
    })

    test('keeps a name underlined with dashes together with its details', () => {
      expect(parseOne('Big Rock Coffee\n---------------\n(501) 555-0101')).toMatchObject({
        name: 'Big Rock Coffee',
        phone: '(501) 555-0101',
      })
    })

    test('starts a new entry at a name line followed by its fields, without a blank line', () => {
      const businesses = parseRolandText(`Hilltop Hardware
(479) 555-0142
123 Main St, Ozark, AR 72949
Tools, paint and feed for the valley.
Ozark Diner
(479) 555-0150
210 Commercial St, Ozark, AR 72949
Home cooking since 1972.`)
      expect(businesses.map(({ name, phone, line }) => [name, phone, line])).toEqual([
        ['Hilltop Hardware', '(479) 555-0142', 1],
        ['Ozark Diner', '(479) 555-0150', 5],
      ])
      expect(businesses[0]?.full_description).toBe('Tools, paint and feed for the valley.')
    })

    test('starts a new entry at a name line whose description comes before its fields', () => {
      const businesses = parseRolandText(`Hilltop Hardware - Tools and feed
Phone: (479) 555-0142
Ozark Diner - Home cooking since 1972
Phone: (479) 555-0150
Website: ozarkdiner.example`)
      expect(businesses.map(({ name, short_description }) => [name, short_description])).toEqual([
        ['Hilltop Hardware', 'Tools and feed'],
        ['Ozark Diner', 'Home cooking since 1972'],
      ])
    })

    test('starts a new entry at a bulleted name line right under the fields or the features of the one above', () => {
      const businesses = parseRolandText(`- Hilltop Hardware - Tools and feed
(479) 555-0142
123 Main St, Ozark, AR 72949
Features: Key cutting, paint mixing
- Ozark Diner
(479) 555-0150
210 Commercial St, Ozark, AR 72949
Features:
- Pie case
- Drive-thru window
• Riverside Tire & Lube - Tires and oil changes
(479) 555-0163
1500 Hwy 71, Ozark, AR 72949
12) Ozark Feed Store	Feed, seed and fencing
Phone - 479/555-0170
Open Mon-Sat 7am-5pm`)
      expect(businesses.map(({ name, phone, services }) => [name, phone, services])).toEqual([
        ['Hilltop Hardware', '(479) 555-0142', ['Key cutting', 'paint mixing']],
        ['Ozark Diner', '(479) 555-0150', ['Pie case', 'Drive-thru window']],
        ['Riverside Tire & Lube', '(479) 555-0163', []],
        ['Ozark Feed Store', '(479) 555-0170', []],
      ])
    })

    test('keeps the bullet items of a features list under their entry when no new set of fields follows', () => {
      const business = parseOne(`Ozark Diner
(479) 555-0150
210 Commercial St, Ozark, AR 72949
Features:
- Pie Case
- Drive-Thru Window
(479) 555-0151`)
      expect(business.services).toEqual(['Pie Case', 'Drive-Thru Window'])
    })

    test('reads a table pasted from a spreadsheet: a business per row, each cell under its column', () => {
      const report = parseRolandTextReport(
        [
          'Phone\tBusiness\tHours\tWeb site\tNotes',
          '479-555-0142\tHilltop Hardware\tMon-Sat 7am-6pm\t\tTools, paint and feed for the valley.',
          '\tOzark Diner\t\tozarkdiner.example\tHome cooking since 1972.',
        ].join('\r\n'),
      )
      expect(
        report.businesses.map(({ name, phone, hours, website, full_description }) => [
          name,
          phone,
          hours,
          website,
          full_description,
        ]),
      ).toEqual([
        ['Hilltop Hardware', '(479) 555-0142', 'Mon-Sat 7am-6pm', null, 'Tools, paint and feed for the valley.'],
        ['Ozark Diner', null, null, 'https://ozarkdiner.example', 'Home cooking since 1972.'],
      ])
      expect(report.skipped).toEqual([
        { line: 1, text: 'Phone Business Hours Web site Notes', reason: 'the column names of a table, not a business' },
      ])
    })

    test('reads a table without column names by what each cell looks like, the first cell the name', () => {
      const businesses = parseRolandText(
        'Hilltop Hardware\t(479) 555-0142\t123 Main St, Ozark, AR 72949\tMon-Sat 7am-6pm\n' +
          'Ozark Diner\t479.555.0150\t210 Commercial St, Ozark, AR 72949\tHome cooking since 1972.',
      )
      expect(businesses.map(({ name, phone, address, hours }) => [name, phone, address, hours])).toEqual([
        ['Hilltop Hardware', '(479) 555-0142', '123 Main St, Ozark, AR 72949', 'Mon-Sat 7am-6pm'],
        ['Ozark Diner', '(479) 555-0150', '210 Commercial St, Ozark, AR 72949', null],
      ])
    })

    test('reads a line of cells with no phone, website or address after its first as a line, not a table row', () => {
      const business = parseOne(
        'Big Rock Coffee\n(501) 555-0101\nCoffee\tpastries\tsandwiches, made fresh every morning.',
      )
      expect(business.full_description).toBe('Coffee pastries sandwiches, made fresh every morning.')
    })

    test('starts a new entry at a repeated Name: label', () => {
      const names = parseRolandText(
        'Name: Hilltop Hardware\nPhone: (479) 555-0142\nName: Ozark Diner\nPhone: (479) 555-0150',
      ).map((business) => business.name)
      expect(names).toEqual(['Hilltop Hardware', 'Ozark Diner'])
    })

    test('starts a new entry where a lower-case name repeats the field pattern above it', () => {
      const names = parseRolandText(
        "Hilltop Hardware\n(479) 555-0142\n123 Main St, Ozark, AR 72949\njoe's bait & tackle\n(479) 555-0160\n40 River Rd, Ozark, AR 72949",
      ).map((business) => business.name)
      expect(names).toEqual(['Hilltop Hardware', "joe's bait & tackle"])
    })

    test('skips a section heading typed right above the first entry of its section', () => {
      const report = parseRolandTextReport(
        'DINING:\nOzark Diner\n(479) 555-0150\n\n== SHOPPING ==\nHilltop Hardware\n(479) 555-0142',
      )
      expect(report.businesses.map((business) => business.name)).toEqual(['Ozark Diner', 'Hilltop Hardware'])
      expect(report.skipped.map(({ line, reason }) => [line, reason])).toEqual([
        [1, 'a heading, not a business'],
        [5, 'a heading, not a business'],
      ])
    })

    test('warns, naming the line, where it split entries without a blank line', () => {
      const [hardware, diner] = parseRolandText(
        'Hilltop Hardware\n(479) 555-0142\n123 Main St, Ozark, AR 72949\nOzark Diner\n(479) 555-0150\n210 Commercial St, Ozark, AR 72949',
      )
      expect(hardware?.warnings.some((warning) => /split/.test(warning))).toBe(false)
      expect(diner?.warnings).toContain(
        'started a new business at line 4 without a blank line above it: check that "Ozark Diner" is not part of "Hilltop Hardware"',
      )
    })

    test('keeps one entry whose short title-case lines are not followed by another set of fields', () => {
      const business = parseOne(`Hilltop Hardware
(479) 555-0142
123 Main St, Ozark, AR 72949
Family Owned Since 1961
Tools, paint and feed for the valley.
Features:
Key Cutting
Propane Refills`)
      expect(business.full_description).toBe('Family Owned Since 1961. Tools, paint and feed for the valley.')
      expect(business.services).toEqual(['Key Cutting', 'Propane Refills'])
    })

    test('keeps a second address line with the phone on it inside the same entry', () => {
      const business = parseOne(
        'Blue Heron Boutique\nPhone: (501) 555-0159\n14 Pinnacle Valley Rd · (501) 555-0159\nCasual clothing and gifts.',
      )
      expect(business.address).toBe('14 Pinnacle Valley Rd')
    })

    test('numbers entries from 0 in file order and records the line each starts on', () => {
      const businesses = parseRolandText(`TITLE ONLY\n\nA Cafe\n(501) 555-0101\n\nB Market\n(501) 555-0102`)
      expect(businesses.map(({ index, line }) => [index, line])).toEqual([
        [0, 3],
        [1, 6],
      ])
    })

    test('keeps a shouted website line inside its entry instead of starting a business at it', () => {
      const businesses = parseRolandText(
        'Sweet Holler Bakery - Fried pies\n479-555-0151\nORDER ONLINE AT WWW.SWEETHOLLER.EXAMPLE\n300 Main St, Beaver Fork, AR 72923\nWed-Sat 7am-1pm',
      )
      expect(businesses.map((business) => business.name)).toEqual(['Sweet Holler Bakery'])
      expect(businesses[0]).toMatchObject({
        website: 'https://www.sweetholler.example',
        address: '300 Main St, Beaver Fork, AR 72923',
        hours: 'Wed-Sat 7am-1pm',
      })
    })

    test('keeps a shouted note with a second phone inside its entry', () => {
      const business = parseOne(
        'Lost Creek Family Clinic - Walk-ins welcome\nPhone: 870-555-0183\nCALL AHEAD: 870-555-0184 AFTER HOURS\n300 Clinic Rd, Lost Creek, AR 72601\nMon-Fri 8am-5pm',
      )
      expect(business).toMatchObject({ phone: '(870) 555-0183', address: '300 Clinic Rd, Lost Creek, AR 72601' })
      expect(business.warnings).toContain('more than one phone number: kept the first, left out (870) 555-0184')
    })

    test('still starts a business at a name typed in capitals when its own fields follow', () => {
      const businesses = parseRolandText(
        'Big Rock Coffee - Coffee\n(501) 555-0101\n21000 Highway 300, Roland, AR 72135\nBIG ROCK TIRE - Tires and brakes\n(501) 555-0102\n21010 Highway 300, Roland, AR 72135',
      )
      expect(businesses.map((business) => business.name)).toEqual(['Big Rock Coffee', 'BIG ROCK TIRE'])
    })

    test("leaves out the list's title typed right above the first business", () => {
      const report = parseRolandTextReport(
        'Lost Creek Directory\nLost Creek Coffee House - Espresso\nPhone: 870-555-0180\n201 Depot St, Lost Creek, AR 72601',
      )
      expect(report.businesses.map((business) => business.name)).toEqual(['Lost Creek Coffee House'])
      expect(report.skipped.map((block) => block.text)).toEqual(['Lost Creek Directory'])
    })

    test('reads a file with CRLF lines, then LF lines, and indented fields', () => {
      const text =
        'Corner Mart - Gas and ice\r\n    479-555-0148\r\n\t1 Main St, Beaver Fork, AR 72923\r\n    24 hours\r\n\r\n' +
        'Grove Lanes - Bowling\n\t417-555-0174\n\t400 S Main St, Walnut Grove, MO 65770\n\tSummer hours: daily 1pm-11pm\n'
      expect(parseRolandText(text).map(({ name, phone, hours }) => ({ name, phone, hours }))).toEqual([
        { name: 'Corner Mart', phone: '(479) 555-0148', hours: '24 hours' },
        { name: 'Grove Lanes', phone: '(417) 555-0174', hours: 'Summer: Daily 1pm-11pm' },
      ])
    })

    test('throws a RolandFileError that explains the expected layout when no business is found', () => {
      const error = thrown(() => parseRolandText('ROLAND BUSINESS DIRECTORY\n\n----\n\nJust a name'))
      expect(error).toBeInstanceOf(RolandFileError)
      expect(error).toMatchObject({ problem: 'no-businesses' })
      expect((error as Error).message).toMatch(/blank line/)
      expect((error as Error).message).toMatch(/name on the first line/)
    })
  })

  describe('the name line', () => {
    test('keeps a hyphenated name like Stop-N-Go Market', () => {
      const business = parseOne('Stop-N-Go Market - Convenience store, gas and snacks\n501-555-0142')
      expect(business.name).toBe('Stop-N-Go Market')
      expect(business.slug).toBe('stop-n-go-market')
      expect(business.short_description).toBe('Convenience store, gas and snacks')
    })

    test('splits the name from its description at an en dash or an em dash', () => {
      expect(parseOne('Pinnacle Valley Pizza – Hand-tossed pizza and wings\n(501) 555-0117').name).toBe(
        'Pinnacle Valley Pizza',
      )
      expect(parseOne('Roland Smokehouse BBQ — Hickory-smoked brisket\n(501) 555-0126').name).toBe(
        'Roland Smokehouse BBQ',
      )
    })

    test('takes a first line without a dash as the whole name', () => {
      expect(parseOne('Lakeside Plumbing & Septic\n(501) 555-0175').name).toBe('Lakeside Plumbing & Septic')
    })

    test('removes list numbering, a Name: label and decoration around the name', () => {
      expect(parseOne('1. Big Rock Coffee\n(501) 555-0101').name).toBe('Big Rock Coffee')
      expect(parseOne('Name: Big Rock Coffee\n(501) 555-0101').name).toBe('Big Rock Coffee')
      expect(parseOne('** Big Rock Coffee **\n(501) 555-0101').name).toBe('Big Rock Coffee')
    })

    test('reads a phone typed after the dash as the phone, not a description', () => {
      const business = parseOne("Joe's Diner - (501) 555-0150\nBreakfast and lunch every day of the week.")
      expect(business.phone).toBe('(501) 555-0150')
      expect(business.short_description).toBe('Breakfast and lunch every day of the week.')
    })

    test("accepts a name that merely looks like an address or hours, such as 'Hwy 300 Hair Studio'", () => {
      expect(parseOne('Hwy 300 Hair Studio\n(501) 555-0165').name).toBe('Hwy 300 Hair Studio')
      expect(parseOne('24/7 Fitness\n(501) 555-0166').name).toBe('24/7 Fitness')
    })
  })

  describe('the phone', () => {
    test.each([
      ['(501) 555-0123'],
      ['501-555-0123'],
      ['501.555.0123'],
      ['5015550123'],
      ['+1 501 555 0123'],
      ['1-501-555-0123'],
      ['(501)555-0123'],
      ['Phone: 501 555 0123'],
      ['Call or text 501-555-0123'],
    ])('normalises %s to (501) 555-0123', (line) => {
      expect(parseOne(`Big Rock Coffee\n${line}`).phone).toBe('(501) 555-0123')
    })

    test('keeps the first phone and warns about another one', () => {
      const business = parseOne('Big Rock Coffee\nPhone: (501) 555-0101\nCell: (501) 555-0102')
      expect(business.phone).toBe('(501) 555-0101')
      expect(business.warnings).toContain('more than one phone number: kept the first, left out (501) 555-0102')
    })

    test('never takes a fax number as the phone', () => {
      const business = parseOne('Big Rock Coffee\nFax: (501) 555-0199\nPhone: (501) 555-0101')
      expect(business.phone).toBe('(501) 555-0101')
      expect(business.warnings).toEqual(['no address found', 'no description found'])
    })

    test('finds a phone inside a sentence and keeps the sentence as description', () => {
      const business = parseOne('Lakeview Marina\nCall (501) 555-0181 to reserve a pontoon for the weekend.')
      expect(business.phone).toBe('(501) 555-0181')
      expect(business.full_description).toBe('Call (501) 555-0181 to reserve a pontoon for the weekend.')
    })

    test("warns 'no phone found' when there is none", () => {
      const business = parseOne('Big Rock Coffee\nAddress: 21000 Highway 300, Roland, AR 72135')
      expect(business.phone).toBeNull()
      expect(business.warnings).toContain('no phone found')
    })

    test('does not read a street number and ZIP code as a phone', () => {
      expect(parseOne('Big Rock Coffee\n21000 Highway 300, Roland, AR 72135').phone).toBeNull()
    })
  })

  describe('the website', () => {
    test.each([
      ['Website: https://lakeviewmarina.example', 'https://lakeviewmarina.example'],
      ['www.bigrockcoffee.example', 'https://www.bigrockcoffee.example'],
      ['Website: rolandbait.example', 'https://rolandbait.example'],
      ['Web: foo.com/menu', 'https://foo.com/menu'],
      ['rolandbait.example', 'https://rolandbait.example'],
      ['Visit us at www.bigrockcoffee.example.', 'https://www.bigrockcoffee.example'],
      ['HTTPS://WWW.BigRockCoffee.Example/Menu', 'https://www.bigrockcoffee.example/Menu'],
      ['WWW.OZARKROCKGUIDES.EXAMPLE', 'https://www.ozarkrockguides.example'],
      ['WHITEOAKCAMP.EXAMPLE', 'https://whiteoakcamp.example'],
      ['ALL TRIPS BOOKED AT BUFFALOCLIMB.EXAMPLE', 'https://buffaloclimb.example'],
      ['Find us: sweetholler.example', 'https://sweetholler.example'],
    ])('reads %s as %s', (line, website) => {
      expect(parseOne(`Big Rock Coffee\n(501) 555-0101\n${line}`).website).toBe(website)
    })

    test('keeps an explicit http:// address as typed', () => {
      expect(parseOne('Antiques\n(501) 555-0153\nhttp://maumellevalleyantiques.example/shop').website).toBe(
        'http://maumellevalleyantiques.example/shop',
      )
    })

    test('never takes an e-mail address for a website', () => {
      const business = parseOne(
        'Big Rock Coffee\n(501) 555-0101\nEmail: hello@bigrockcoffee.example\nhello@bigrockcoffee.example',
      )
      expect(business.website).toBeNull()
      expect(business.full_description).toBeNull()
    })

    test('does not take a bare domain inside a sentence, where it may not be one', () => {
      expect(
        parseOne('Big Rock Coffee\n(501) 555-0101\nWe post the daily specials on rolandbait.example every morning.')
          .website,
      ).toBeNull()
    })

    test("leaves out 'Website: none' quietly and a broken address with a warning", () => {
      expect(parseOne('Big Rock Coffee\n(501) 555-0101\nWebsite: none').website).toBeNull()
      const business = parseOne('Big Rock Coffee\n(501) 555-0101\nWebsite: coming-in-spring')
      expect(business.website).toBeNull()
      expect(business.warnings).toContain('website "coming-in-spring" is not a web address: left out')
    })
  })

  describe('the address', () => {
    test("strips an 'Address:' label", () => {
      expect(parseOne('Big Rock Coffee\n(501) 555-0101\nAddress: On the lake behind the dam').address).toBe(
        'On the lake behind the dam',
      )
    })

    test("recognises a street number with a street word, or a line naming 'AR 72135'", () => {
      expect(parseOne('Big Rock Coffee\n(501) 555-0101\n15820 Pinnacle Valley Rd').address).toBe(
        '15820 Pinnacle Valley Rd',
      )
      expect(parseOne('Big Rock Coffee\n(501) 555-0101\nNext to the post office, Roland, AR 72135').address).toBe(
        'Next to the post office, Roland, AR 72135',
      )
    })

    test('joins a street line and a town line below it', () => {
      expect(parseOne('Big Rock Coffee\n(501) 555-0101\n15820 Pinnacle Valley Rd\nRoland, AR 72135').address).toBe(
        '15820 Pinnacle Valley Rd, Roland, AR 72135',
      )
    })

    test("joins a street line and another state's town line with its ZIP", () => {
      const business = parseOne(
        'Bend Coffee Co.\nTel: 903-555-0161\n412 Front St\nWillow Bend, TX 75455\nSmall-batch coffee.',
      )
      expect(business.address).toBe('412 Front St, Willow Bend, TX 75455')
      expect(business.full_description).toBe('Small-batch coffee.')
    })

    test("joins a town line without a ZIP in the town's own state only, by its code, name or shortening", () => {
      const text = (town: string) => `Bend Coffee Co.\n(719) 555-0161\n412 Front St\n${town}\nSmall-batch coffee.`
      const place = { state: 'Colorado', state_code: 'CO' }
      for (const town of ['Pine Hollow, CO', 'Pine Hollow, Colo.', 'Pine Hollow, Colorado']) {
        expect(parseRolandText(text(town), { place })[0]!.address).toBe(`412 Front St, ${town.replace(/\.$/, '')}`)
      }
      // Without the town's state, or in another state, a town line needs its ZIP.
      expect(parseRolandText(text('Pine Hollow, CO'))[0]!.address).toBe('412 Front St')
      expect(parseRolandText(text('Willow Bend, TX'), { place })[0]!.address).toBe('412 Front St')
      expect(parseRolandText(text('Willow Bend, Ark.'), { place })[0]!.address).toBe('412 Front St')
    })

    test('leaves a phone typed on the address line out of the address', () => {
      const business = parseOne('Blue Heron Boutique\n14 Pinnacle Valley Rd · (501) 555-0159')
      expect(business.address).toBe('14 Pinnacle Valley Rd')
      expect(business.phone).toBe('(501) 555-0159')
    })

    test('does not take a description that mentions Arkansas for the address', () => {
      const business = parseOne(
        'Big Rock Coffee\n(501) 555-0101\nThe best coffee in central Arkansas, roasted in small batches every week by the owners.',
      )
      expect(business.address).toBeNull()
      expect(business.warnings).toContain('no address found')
    })
  })

  describe('the hours', () => {
    test('keeps the hours text and reads it into rows', () => {
      const business = parseOne('Big Rock Coffee\n(501) 555-0101\nHours: Daily 5am-10pm')
      expect(business.hours).toBe('Daily 5am-10pm')
      expect(business.hours_detail).toHaveLength(7)
    })

    test('drops an hours line of 100 characters or more with a warning that gives its length', () => {
      const long = `Mon-Fri 9am-6pm during tax season; by appointment the rest of the year, call first to book a visit!!`
      expect(long).toHaveLength(100)
      const business = parseOne(`Ridgeview Tax\n(501) 555-0177\nHours: ${long}`)
      expect(business.hours).toBeNull()
      expect(business.hours_detail).toEqual([])
      expect(business.warnings).toContain('hours line too long (100 characters): left out, keep it under 100')
    })

    test('keeps an hours line of 99 characters', () => {
      const text = `Mon-Fri 9am-6pm during tax season; by appointment the rest of the year, call first to book a visit!`
      expect(text).toHaveLength(99)
      expect(parseOne(`Ridgeview Tax\n(501) 555-0177\nHours: ${text}`).hours).toBe(text)
    })

    test('keeps hours it cannot read as text, with no rows and a warning', () => {
      const business = parseOne('Farmers Market\n(501) 555-0157\nHours: Saturdays 7am-noon, April through October')
      expect(business.hours).toBe('Saturdays 7am-noon, April through October')
      expect(business.hours_detail).toEqual([])
      expect(business.warnings).toContain(
        'hours kept as text only: the days and times could not be read with confidence',
      )
    })

    test('joins hours written over consecutive lines', () => {
      const business = parseOne('Lakeside Bar & Grill\n(501) 555-0136\nHours: Mon-Thu 11am-10pm\nFri-Sat 11am-12am')
      expect(business.hours).toBe('Mon-Thu 11am-10pm, Fri-Sat 11am-12am')
      expect(business.hours_detail).toHaveLength(6)
    })

    test('keeps the first of two separate hours lines and says so', () => {
      const business = parseOne('Lakeside Bar & Grill\nHours: Daily 11am-10pm\n(501) 555-0136\nHours: Daily 11am-9pm')
      expect(business.hours).toBe('Daily 11am-10pm')
      expect(business.warnings).toContain('more than one hours line: kept the first')
    })

    test('never takes a tagline or a sentence of the description for the hours', () => {
      const towing = parseOne(
        "Ridge Towing - Open 24/7 for emergencies\n(501) 555-0140\nFridays open until 9pm for games\nWe're open late on Fridays!",
      )
      expect(towing.hours).toBeNull()
      expect(towing.short_description).toBe('Open 24/7 for emergencies')
      expect(towing.full_description).toBe(
        "Open 24/7 for emergencies.\n\nFridays open until 9pm for games. We're open late on Fridays!",
      )
      const diner = parseOne(
        'Ridge Diner\n(501) 555-0141\nOpen 24/7 for emergencies and hungry truckers alike.\nMon-Fri 6am-2pm',
      )
      expect(diner.hours).toBe('Mon-Fri 6am-2pm')
    })

    test('reads unlabelled day ranges typed with en dashes and compact times', () => {
      expect(parseOne('Ridge Diner\n(501) 555-0141\nTues–Sat 7:30am–2pm').hours_detail).toHaveLength(5)
      expect(parseOne('Ridge Diner\n(501) 555-0141\nMon-Fri 8-5').hours).toBe('Mon-Fri 8-5')
    })

    test.each([
      ['Tu-Th 9-4', 'Tu-Th 9-4'],
      ['Shop: Tue-Sat 10am-5pm; dock open dawn to dusk', 'Tue-Sat 10am-5pm; dock open dawn to dusk'],
      ['Winter hours: Sat-Sun 9am-3pm (November to March)', 'Winter: Sat-Sun 9am-3pm (November to March)'],
      ['Appointments only', 'Appointments only'],
      ['By appointment', 'By appointment'],
      ['Open daily 6am-2pm', 'Daily 6am-2pm'],
      ['24 hours', '24 hours'],
    ])('puts the line %s in the hours as %s', (line, hours) => {
      const business = parseOne(`Kessler Tax Service - Tax returns\n(479) 555-0146\n308 Main St\n${line}`)
      expect(business.hours).toBe(hours)
      expect(business.full_description).toBe('Tax returns')
    })

    test('keeps the seasons of two seasonal hours lines', () => {
      const business = parseOne(
        'White Oak Campground\n479-555-0145\nSummer hours: daily 6am-8pm\nWinter hours: Sat-Sun 9am-3pm',
      )
      expect(business.hours).toBe('Summer: Daily 6am-8pm; Winter: Sat-Sun 9am-3pm')
    })

    test('leaves out a further hours line that would take the hours to 100 characters, keeping the first', () => {
      const first = 'Mon-Fri 7am-5pm, Sat 8am-noon (closed on all of the major holidays)'
      const business = parseOne(
        `Roland Hardware\n(501) 555-0111\n${first}\nSun 1pm-5pm from Memorial Day through Labor Day only`,
      )
      expect(business.hours).toBe(first)
      expect(business.warnings).toContain(
        'hours "Sun 1pm-5pm from Memorial Day through Labor Day only" left out: with them the hours would be 100 characters or more',
      )
    })

    test('leaves a sentence that starts with a day to the description', () => {
      const business = parseOne(
        'Big Rock Coffee\n(501) 555-0101\nSaturday mornings the line fills with trail runners coming off the summit by 8am.',
      )
      expect(business.hours).toBeNull()
      expect(business.full_description).toMatch(/^Saturday mornings/)
    })
  })

  describe('the descriptions', () => {
    test('ignores lines of 10 characters or fewer', () => {
      expect(parseOne('Big Rock Coffee\n(501) 555-0101\nEst. 1985\nFamily owned and operated.').full_description).toBe(
        'Family owned and operated.',
      )
    })

    test('ends a short tagline line with a full stop when a new sentence follows it', () => {
      const business = parseOne(
        'Ridge Line Towing\n(479) 555-0113\nOpen 24/7 for emergencies\nWreckers, lockouts and jump starts anywhere in the county.',
      )
      expect(business.full_description).toBe(
        'Open 24/7 for emergencies. Wreckers, lockouts and jump starts anywhere in the county.',
      )
    })

    test('ends a bullet list under an empty Features: label at the first plain line', () => {
      const business = parseOne(
        'Cedar Springs Pharmacy\n(918) 555-0141\nSpecial features:\n- Free delivery\n- Soda fountain\nHand-dipped malts',
      )
      expect(business.services).toEqual(['Free delivery', 'Soda fountain'])
      expect(business.full_description).toBe('Hand-dipped malts')
    })

    test('joins lines wrapped by hand into one paragraph, keeping a short closing line', () => {
      const business = parseOne(
        'Big Rock Coffee\n(501) 555-0101\nLocally roasted coffee for hikers and\nneighbors since\n2009.',
      )
      expect(business.full_description).toBe('Locally roasted coffee for hikers and neighbors since 2009.')
    })

    test('adds the paragraphs that follow an entry after a blank line, separated by a blank line', () => {
      const text = `Lakeview Marina & Bait Shop - Boat rentals and bait on Lake Maumelle
(501) 555-0181

Lakeview Marina has been the launching point for Lake Maumelle anglers since 1985.

Pontoon boats and kayaks can be rented by the half day or the full day, with a map of the hot spots.`
      expect(parseOne(text).full_description).toBe(
        'Boat rentals and bait on Lake Maumelle.\n\n' +
          'Lakeview Marina has been the launching point for Lake Maumelle anglers since 1985.\n\n' +
          'Pontoon boats and kayaks can be rented by the half day or the full day, with a map of the hot spots.',
      )
    })

    test('skips an introduction paragraph before the first business', () => {
      const report = parseRolandTextReport(
        `This list is kept by volunteers of the Roland Community Association and updated every spring.\n\n${BIG_ROCK}`,
      )
      expect(report.businesses).toHaveLength(1)
      expect(report.skipped[0]?.reason).toBe('text before the first business (an introduction, not a business)')
    })

    test('takes the short description from the first paragraph when there is no tagline', () => {
      const business = parseOne('Scoops on 300\n(501) 555-0133\nIce cream and snow cones.\nHand-spun milkshakes.')
      expect(business.short_description).toBe('Ice cream and snow cones. Hand-spun milkshakes.')
    })

    test("warns 'no description found' and leaves both descriptions null when there is none", () => {
      const business = parseOne('Big Rock Coffee\n(501) 555-0101')
      expect(business.short_description).toBeNull()
      expect(business.full_description).toBeNull()
      expect(business.warnings).toContain('no description found')
    })

    test('reads an entry with only a description as a business, warning about what is missing', () => {
      const business = parseOne(
        'Roland Community Garden\nPlots for every family in town, opening next spring behind the fire station.',
      )
      expect(business.warnings).toEqual(['no phone found', 'no address found'])
      // OpenStreetMap's vocabulary knows a community garden as a leisure place.
      expect(business.category).toBe('Recreation')
    })
  })

  describe('the services', () => {
    test("splits a 'Special features:' list on commas, semicolons and bullets", () => {
      expect(
        parseOne(
          'Big Rock Coffee\n(501) 555-0101\nspecial FEATURES: Wi-Fi, patio; drive-thru • pastries · and dog treats.',
        ).services,
      ).toEqual(['Wi-Fi', 'patio', 'drive-thru', 'pastries', 'dog treats'])
    })

    test("accepts 'Features:' and 'Services:' and merges them in order without duplicates", () => {
      const business = parseOne(
        'Roland Auto Repair\n(501) 555-0161\nServices: Brakes, Tires\nFeatures: tires, free estimates',
      )
      expect(business.services).toEqual(['Brakes', 'Tires', 'free estimates'])
    })

    test('continues the list over the bullet lines below it', () => {
      const business = parseOne(`Roland Smokehouse BBQ
(501) 555-0126
Special features: Brisket
- Catering for 20 to 500
* Covered pavilion
• Fried pies
Pitmaster Earl lights the hickory at four every morning.`)
      expect(business.services).toEqual(['Brisket', 'Catering for 20 to 500', 'Covered pavilion', 'Fried pies'])
      expect(business.full_description).toBe('Pitmaster Earl lights the hickory at four every morning.')
    })

    test("reads plain lines under an empty 'Features:' label as items", () => {
      expect(
        parseOne('Roland Fitness Center\n(501) 555-0189\nFeatures:\nFree weights\nCardio machines').services,
      ).toEqual(['Free weights', 'Cardio machines'])
    })

    test('carries a list that ends in a comma on to the next line', () => {
      expect(
        parseOne('Big Rock Coffee\n(501) 555-0101\nFeatures: Wi-Fi, patio,\ndrive-thru, pastries').services,
      ).toEqual(['Wi-Fi', 'patio', 'drive-thru', 'pastries'])
    })

    test('gives an empty list when there are no features', () => {
      expect(parseOne('Big Rock Coffee\n(501) 555-0101').services).toEqual([])
    })
  })

  describe('slugs and categories', () => {
    test("renames the slug of a second business with the same name and warns 'duplicate name'", () => {
      const businesses = parseRolandText(
        "Joe's Diner\n(501) 555-0101\n\nJoe's Diner\n(501) 555-0102\n\nJOE’S DINER!\n(501) 555-0103",
      )
      expect(businesses.map((business) => business.slug)).toEqual(['joes-diner', 'joes-diner-2', 'joes-diner-3'])
      expect(businesses[0]?.warnings).not.toContain('duplicate name: renamed slug to joes-diner')
      expect(businesses[1]?.warnings).toContain('duplicate name: renamed slug to joes-diner-2')
    })

    test("falls back to the slug 'business' for a name with no letters or digits", () => {
      const business = parseOne('???\n(501) 555-0101')
      expect(business.slug).toBe('business')
      expect(business.warnings).toContain(
        'the name has no letters or digits to make a web address from: used "business"',
      )
    })

    test('guesses the category from the name and the description', () => {
      expect(parseOne('Lakeview Marina & Bait Shop\n(501) 555-0181').category).toBe('Recreation')
      expect(parseOne('Scoops on 300\n(501) 555-0133\nIce cream and snow cones all summer long.').category).toBe(
        'Dining & Refreshments',
      )
    })

    test("uses the category the operator wrote on a 'Category:' line", () => {
      expect(parseOne('Lakeview Marina & Bait Shop\n(501) 555-0181\nCategory: Shopping and Convenience').category).toBe(
        'Shopping & Convenience',
      )
    })

    test("guesses instead, and says so, when the 'Category:' line names no site category", () => {
      const business = parseOne('Lakeview Marina & Bait Shop\n(501) 555-0181\nCategory: Boats')
      expect(business.category).toBe('Recreation')
      expect(business.warnings).toContain('category "Boats" is not one of the site\'s categories: guessed instead')
    })

    test("defaults to 'Business' with a warning when nothing points to a category", () => {
      const business = parseOne('Old Mill Event Barn\n(501) 555-0195\nA restored hay barn for weddings and reunions.')
      expect(business.category).toBe('Business')
      expect(business.warnings).toContain('no category could be told from the name or description: set to Business')
    })
  })
})

describe('shorten', () => {
  test('keeps a paragraph of 150 characters as it is', () => {
    const text = 'x'.repeat(150)
    expect(shorten(text)).toBe(text)
  })

  test('keeps the leading whole sentences that fit in 150 characters', () => {
    const first = 'Big Rock Coffee has been pouring locally roasted coffee for hikers since 2009.'
    const second = 'Every pastry on the counter is baked in-house before sunrise by the owners.'
    expect(shorten(`${first} ${second}`)).toBe(first)
  })

  test("does not end a sentence at an abbreviation such as 'St.'", () => {
    const text = `Find us on Main St. across from the school, where we have served coffee, pie and conversation to the whole valley since the spring of 1962 and counting.`
    expect(text.length).toBeGreaterThan(150)
    expect(shorten(text)).toBe(`${text.slice(0, 147)}...`)
  })

  test("cuts a first sentence longer than 150 characters to 147 characters plus '...'", () => {
    const text = 'word '.repeat(40).trim()
    const short = shorten(text)
    expect(short.endsWith('...')).toBe(true)
    expect(short.length).toBeLessThanOrEqual(150)
    expect(short).toBe(`${text.slice(0, 147).trimEnd()}...`)
  })

  test('is what parseRolandText uses for short_description', () => {
    const long = `Ridgeview prepares individual and small-business tax returns, handles payroll and monthly bookkeeping and represents clients in front of the statewide revenue office`
    expect(long.length).toBeGreaterThan(150)
    const business = parseOne(`Ridgeview Tax & Bookkeeping\n(501) 555-0177\n${long}`)
    expect(business.short_description).toBe(`${long.slice(0, 147)}...`)
    expect(business.short_description).toHaveLength(150)
    expect(business.full_description).toBe(long)
  })
})

describe('decodeRolandFile', () => {
  const encode = (text: string) => new TextEncoder().encode(text)

  test('decodes UTF-8 text and drops a byte-order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encode('Café Roland\n(501) 555-0101')])
    expect(decodeRolandFile(bytes)).toBe('Café Roland\n(501) 555-0101')
  })

  test.each([
    ['an empty file', new Uint8Array(0), 'empty'],
    ['a file of blank lines', encode('\n  \r\n\t\n'), 'empty'],
    ['a file over 5 MB', new Uint8Array(MAX_FILE_BYTES + 1).fill(0x61), 'too-large'],
    ['a file with NUL bytes', new Uint8Array([0x42, 0x69, 0x67, 0x00, 0x52]), 'binary'],
    ['a Windows-1252 file', new Uint8Array([...encode('Roland\nCaf'), 0xe9, 0x0a]), 'binary'],
    ['a PNG image', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'binary'],
    ['a UTF-16 file', new Uint8Array([0xff, 0xfe, 0x42, 0x00]), 'binary'],
  ])('rejects %s with a RolandFileError', (_name, bytes, problem) => {
    const error = thrown(() => decodeRolandFile(bytes))
    expect(error).toBeInstanceOf(RolandFileError)
    expect(error).toMatchObject({ name: 'RolandFileError', problem })
  })

  test('accepts a file of exactly 5 MB', () => {
    const bytes = new Uint8Array(MAX_FILE_BYTES).fill(0x61)
    expect(decodeRolandFile(bytes)).toHaveLength(5 * 1024 * 1024)
  })

  test('says what is wrong and how to fix it', () => {
    expect(() => decodeRolandFile(new Uint8Array(0))).toThrow(/Roland\.txt is empty: add the businesses/)
    expect(() => decodeRolandFile(new Uint8Array(MAX_FILE_BYTES + 1))).toThrow(/over the 5 MB limit/)
    expect(() => decodeRolandFile(new Uint8Array([0x41, 0x00]))).toThrow(/binary data.*export the list as plain text/)
    expect(() => decodeRolandFile(new Uint8Array([...encode('Roland\nCaf'), 0xe9]))).toThrow(
      /not valid UTF-8 text \(first bad byte on line 2\).*save it again with the UTF-8 encoding/,
    )
  })

  test('rejects overlong encodings and UTF-16 surrogates hidden in UTF-8', () => {
    expect(() => decodeRolandFile(new Uint8Array([0x41, 0xc0, 0xaf]))).toThrow(RolandFileError)
    expect(() => decodeRolandFile(new Uint8Array([0x41, 0xed, 0xa0, 0x80]))).toThrow(RolandFileError)
  })
})

describe('bad characters in Roland.txt (issue 43)', () => {
  const file = (middle: string) => `Joe's Diner\n(501) 555-0101\n12 Main St\n\n${middle}\n(501) 555-0102\nGood pies.\n`

  test('a control character refuses the whole file, naming the line and showing where it is', () => {
    const error = thrown(() => parseRolandText(file('Pie\u0007 Shop')))
    expect(error).toMatchObject({ name: 'RolandFileError', problem: 'bad-character' })
    expect((error as Error).message).toBe(
      'Roland.txt line 5 contains an invisible control character (U+0007): remove it (only tabs and line breaks may be in a text). The line, with it shown as \uFFFD: "Pie\uFFFD Shop". Nothing was imported: fix the line in a text editor and import the file again.',
    )
  })

  test.each(['\u0001', '\u001B', '\u007F', '\u0085'])('refuses %j in a description line too', (char) => {
    expect(() => parseRolandText(file(`Pie Shop\nFresh${char} pies daily.`))).toThrow(
      /^Roland\.txt line 6 contains an invisible control character/,
    )
  })

  test('a bidirectional override in a name is refused; in a description it is kept', () => {
    expect(() => parseRolandText(file('\u202Epohs eiP'))).toThrow(
      /^Roland\.txt: the name of the business on line 5 contains a bidirectional control character \(U\+202E\)/,
    )
    const [, shop] = parseRolandText(file('Pie Shop\nMenu in \u2067עברית\u2069.'))
    expect(shop!.full_description).toContain('\u2067עברית\u2069')
  })

  test('takes Windows and old Mac line endings, and reads Word’s line and page breaks as spaces', () => {
    for (const lineEnd of ['\r\n', '\r']) {
      const businesses = parseRolandText(file('Pie Shop\nFresh\vpies\fdaily.').replace(/\n/g, lineEnd))
      expect(businesses.map((b) => b.name)).toEqual(["Joe's Diner", 'Pie Shop'])
      expect(businesses[1]!.full_description).toBe('Fresh pies daily.')
    }
  })
})

describe('supabase/Roland.txt', () => {
  const bytes = readFileSync(new URL('../../../supabase/Roland.txt', import.meta.url))
  const businesses = parseRolandText(decodeRolandFile(bytes))

  test('holds at least 30 businesses', () => {
    expect(businesses.length).toBeGreaterThanOrEqual(30)
  })

  test('covers all four site categories and the default', () => {
    const categories = new Set(businesses.map((business) => business.category))
    for (const category of [...BUSINESS_CATEGORIES, 'Business']) expect(categories).toContain(category)
  })

  test('gives every business a phone in the 555-01xx sample range', () => {
    for (const business of businesses) expect(business.phone, business.name).toMatch(/^\(501\) 555-01\d\d$/)
  })

  test('gives every business a unique slug', () => {
    const slugs = businesses.map((business) => business.slug)
    expect(new Set(slugs).size).toBe(slugs.length)
  })

  test('uses only reserved example domains for websites', () => {
    for (const business of businesses) {
      if (business.website !== null) expect(new URL(business.website).hostname, business.name).toMatch(/\.example$/)
    }
  })

  test('puts every business in Roland, AR 72135 and gives each a description', () => {
    const withTown = businesses.filter((business) => business.address?.includes('Roland, AR 72135'))
    expect(withTown.length).toBeGreaterThanOrEqual(businesses.length - 1)
    for (const business of businesses) expect(business.full_description, business.name).not.toBeNull()
  })

  test('keeps Stop-N-Go Market and Lakeview Marina & Bait Shop as the sample shows them', () => {
    expect(businesses.find((business) => business.slug === 'stop-n-go-market')?.category).toBe('Shopping & Convenience')
    expect(businesses.find((business) => business.slug === 'lakeview-marina-and-bait-shop')).toMatchObject({
      category: 'Recreation',
      website: 'https://lakeviewmarina.example',
    })
  })
})
