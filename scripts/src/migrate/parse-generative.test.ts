import { fc, test } from '@fast-check/vitest'
import { readdirSync } from 'node:fs'
import { describe, expect } from 'vitest'
import { loadList, type ExpectedBusiness, type FixtureList } from './accuracy.ts'
import { parseRolandText, RolandFileError, type ParsedBusiness } from './parse/index.ts'

// Issue 42: every entry of every fixture list, rewritten the ways people type the same fields, must
// parse the same; and any text parses without a crash. A fixed seed in CI (so a run can be repeated
// there); a new one each local run, which fast-check prints with the failing case when one fails.
const seed = process.env['CI'] ? 42 : undefined
const settings = (numRuns: number) => (seed === undefined ? { numRuns } : { numRuns, seed })

const FIXTURES = new URL('../../test/fixtures/', import.meta.url)
const lists: FixtureList[] = ['towns/', 'unseen/'].flatMap((folder) =>
  readdirSync(new URL(folder, FIXTURES))
    .filter((file) => file.endsWith('.txt'))
    .map((file) => loadList(new URL(folder, FIXTURES), file)),
)

/** What a parse says about a business, without where it was (line numbers move with the rewriting). */
function reading(business: ParsedBusiness): Omit<ParsedBusiness, 'index' | 'line' | 'warnings'> {
  const fields: Partial<ParsedBusiness> = { ...business }
  delete fields.index
  delete fields.line
  delete fields.warnings
  return fields as Omit<ParsedBusiness, 'index' | 'line' | 'warnings'>
}

const digits = (text: string) => text.replace(/\D/g, '')

type Kind = 'phone' | 'website' | 'address' | 'hours'

/** Which field a line gives, told from what a person wrote down for the entry; null when unsure. */
function fieldOf(line: string, want: ExpectedBusiness): Kind | null {
  const text = line.trim()
  const value = text.replace(/^[A-Za-z. ]{2,20}:\s*/, '')
  const phone = typeof want.phone === 'string' ? want.phone : null
  if (
    phone !== null &&
    !phone.includes('ext') &&
    /^[\d\s().+/-]+$/.test(value) &&
    digits(value).endsWith(digits(phone))
  )
    return 'phone'
  const website = typeof want.website === 'string' ? want.website.replace(/^https?:\/\//, '') : null
  if (website !== null && value.toLowerCase().replace(/^https?:\/\//, '') === website.toLowerCase()) return 'website'
  if (typeof want.address === 'string' && value === want.address) return 'address'
  const hours = typeof want.hours === 'string' ? want.hours.toLowerCase() : null
  if (hours !== null && (value.toLowerCase() === hours || value.toLowerCase() === `open ${hours}`)) return 'hours'
  return null
}

const PHONE_FORMATS = [
  (a: string, b: string, c: string) => `(${a}) ${b}-${c}`,
  (a: string, b: string, c: string) => `${a}-${b}-${c}`,
  (a: string, b: string, c: string) => `${a}.${b}.${c}`,
  (a: string, b: string, c: string) => `${a}/${b}-${c}`,
  (a: string, b: string, c: string) => `${a} ${b} ${c}`,
  (a: string, b: string, c: string) => `${a}${b}${c}`,
  (a: string, b: string, c: string) => `+1 ${a} ${b} ${c}`,
  (a: string, b: string, c: string) => `1-${a}-${b}-${c}`,
  (a: string, b: string, c: string) => `(${a})${b}-${c}`,
]
const PHONE_LABELS = ['', 'Phone: ', 'PHONE: ', 'phone: ', 'Ph. ', 'Tel: ', 'Call ', 'Call or text ', 'Phone - ']
const WEBSITE_LABELS = ['', 'Website: ', 'WEBSITE: ', 'Web: ', 'web: ', 'Site: ']
const ADDRESS_LABELS = ['', 'Address: ', 'ADDRESS: ', 'Location: ']
const HOURS_LABELS = [
  '',
  'Hours: ',
  'HOURS: ',
  'hours: ',
  'Hrs: ',
  'Open: ',
  'Hours of operation: ',
  'Store hours: ',
  'Office: ',
]
const MARKERS = ['', '- ', '* ', '• ', '· ', '▪ ', '◦ ', '► ', '> ', '1. ', '12) ', '(3) ']
const SEPARATORS = [' - ', ' -- ', ' – ', ' — ', '—', ' | ', ' ~ ', ' · ', ' • ', ' / ', ' :: ', '\t']
const INDENTS = ['', '  ', '    ', '\t', '\u00a0\u00a0', ' \u00a0 ']

/** One way of typing an entry: a choice from each list above, as numbers fast-check can shrink. */
const typing = fc.record({
  phoneFormat: fc.nat(PHONE_FORMATS.length - 1),
  phoneLabel: fc.nat(PHONE_LABELS.length - 1),
  websiteLabel: fc.nat(WEBSITE_LABELS.length - 1),
  websiteCapitals: fc.boolean(),
  addressLabel: fc.nat(ADDRESS_LABELS.length - 1),
  hoursLabel: fc.nat(HOURS_LABELS.length - 1),
  marker: fc.nat(MARKERS.length - 1),
  separator: fc.nat(SEPARATORS.length - 1),
  indent: fc.nat(INDENTS.length - 1),
  nonBreaking: fc.boolean(),
  order: fc.nat(23),
})

/** Rewrites the lines of one entry (from its name line to the next entry's) as the typing says. */
function retype(
  lines: string[],
  want: ExpectedBusiness,
  how: {
    phoneFormat: number
    phoneLabel: number
    websiteLabel: number
    websiteCapitals: boolean
    addressLabel: number
    hoursLabel: number
    marker: number
    separator: number
    indent: number
    nonBreaking: boolean
    order: number
  },
): string[] {
  const [nameLine = '', ...rest] = lines
  const name = String(want.name)
  // The name line: a list marker, and another separator before a tagline.
  const typedName = /^\s*(.*?)\s*$/.exec(nameLine)?.[1] ?? nameLine
  let newName = typedName
  const tagline = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s+(?:--?|[–—])\\s+)(\\S.*)$`).exec(
    typedName,
  )
  if (tagline) newName = `${name}${SEPARATORS[how.separator]}${tagline[2]}`
  if (newName.startsWith(name)) newName = `${MARKERS[how.marker]}${newName}`
  const indent = INDENTS[how.indent] ?? ''
  const out = rest.map((line) => {
    const kind = fieldOf(line, want)
    if (kind === null) return line
    const value = line.trim().replace(/^[A-Za-z. ]{2,20}:\s*/, '')
    switch (kind) {
      case 'phone': {
        const d = digits(String(want.phone))
        const format = PHONE_FORMATS[how.phoneFormat] ?? PHONE_FORMATS[0]!
        return `${indent}${PHONE_LABELS[how.phoneLabel]}${format(d.slice(0, 3), d.slice(3, 6), d.slice(6))}`
      }
      case 'website': {
        const hasPath = /\//.test(value.replace(/^https?:\/\//i, ''))
        const typed = how.websiteCapitals && !hasPath ? value.toUpperCase() : value
        return `${indent}${WEBSITE_LABELS[how.websiteLabel]}${typed}`
      }
      case 'address':
        return `${indent}${ADDRESS_LABELS[how.addressLabel]}${value}`
      case 'hours':
        return `${indent}${HOURS_LABELS[how.hoursLabel]}${value}`
    }
  })
  // Line order after the name: the fields typed together, in another order.
  const fields = out.map((line, i) => (fieldOf(line, want) === null ? -1 : i)).filter((i) => i >= 0)
  const run = fields.filter((i, k) => k === 0 || fields[k - 1] === i - 1)
  if (run.length === fields.length && fields.length > 1) {
    const moved = permutation(
      fields.map((i) => out[i] ?? ''),
      how.order,
    )
    for (const [k, i] of fields.entries()) out[i] = moved[k] ?? ''
  }
  const spaced = how.nonBreaking ? out.map((line) => line.replace(/ (?=\S)/, '\u00a0')) : out
  return [newName, ...spaced]
}

function permutation<T>(items: T[], n: number): T[] {
  const pool = [...items]
  const result: T[] = []
  let k = n
  while (pool.length > 0) {
    result.push(...pool.splice(k % pool.length, 1))
    k = Math.floor(k / (result.length + 1))
  }
  return result
}

describe('reading every field the way people type it', () => {
  test('has every fixture list to rewrite', () => {
    expect(lists.map((list) => list.file).sort()).toEqual([
      'beaver-fork.txt',
      'cedar-springs.txt',
      'dogwood-hollow.txt',
      'hickory-flat.txt',
      'lost-creek.txt',
      'ozark-hollow.txt',
      'pine-ridge.txt',
      'walnut-grove.txt',
      'willow-bend.txt',
    ])
  })

  test.each(lists.map((list) => [list.file, list] as const))(
    'parses each entry of %s the same however its fields are typed',
    (_file, list) => {
      const lines = list.text.split(/\r?\n/)
      const want = list.parsed.map(reading)
      const starts = list.parsed.map((business) => business.line - 1)
      fc.assert(
        fc.property(
          fc.array(typing, { minLength: starts.length, maxLength: starts.length }),
          fc.boolean(),
          (hows, crlf) => {
            const typed = lines.map((line) => [line])
            for (const [k, start] of starts.entries()) {
              const end = starts[k + 1] ?? lines.length
              const expected = list.expected.find((business) => business.name === list.parsed[k]?.name)
              const how = hows[k]
              if (expected === undefined || how === undefined) continue
              const entry = retype(lines.slice(start, end), expected, how)
              typed[start] = entry
              for (let i = start + 1; i < end; i += 1) typed[i] = []
            }
            const text = typed.flat().join(crlf ? '\r\n' : '\n')
            expect(parseRolandText(text).map(reading)).toEqual(want)
          },
        ),
        settings(8),
      )
    },
  )
})

// Pieces of hand-typed lists and of things that are not lists at all, for text of any shape.
const piece = fc.oneof(
  fc.constantFrom(...lists.flatMap((list) => list.text.split(/\r?\n/))),
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.constantFrom(
    '501/555-0244',
    '(501) 555-0123 ext. 7',
    'Mon-Fri 9am-5pm; Sat noon-4',
    '24/7',
    '• ',
    '\t',
    '\r\n',
    '',
  ),
)

describe('reading any text', () => {
  test.prop(
    [
      fc.array(piece, { minLength: 1, maxLength: 60 }),
      // Mostly small files, now and then one of up to a megabyte (the pieces repeated).
      fc.oneof(
        { weight: 9, arbitrary: fc.nat(20_000) },
        { weight: 1, arbitrary: fc.integer({ min: 500_000, max: 1_000_000 }) },
      ),
    ],
    settings(6),
  )('parses any text up to 1 MB without a crash: businesses, or a RolandFileError saying why not', (pieces, size) => {
    let text = pieces.join('\n')
    while (text.length > 0 && text.length < size) text += `\n${text}`
    text = text.slice(0, Math.max(size, 1))
    try {
      const businesses = parseRolandText(text)
      expect(businesses.length).toBeGreaterThan(0)
    } catch (error) {
      expect(error).toBeInstanceOf(RolandFileError)
    }
  })
})

// Shapes that once took minutes to read: the work grew with the square of the repeats. A megabyte
// of each must read within the test's time limit.
const megabyte = (line: (i: number) => string, separator = '\n') => {
  const parts: string[] = []
  for (let i = 0, length = 0; length < 1_000_000; i += 1) {
    parts.push(line(i))
    length += parts[i]!.length + separator.length
  }
  return parts.join(separator)
}

describe('a megabyte of one shape', () => {
  test.each([
    ['40,000 businesses of one name', megabyte(() => 'Joe Cafe\n501-555-0100\n'), true],
    [
      'a service on each of 30,000 lines',
      `Joe Cafe\n501-555-0100\n${megabyte((i) => `Services: tea ${i}, cake ${i}`)}`,
    ],
    ['a line of 100,000 services', `Joe Cafe\n501-555-0100\nServices: ${megabyte((i) => `tea ${i}`, ', ')}`],
  ])('%s', (_, text, oneName?: boolean) => {
    const businesses = parseRolandText(text)
    expect(businesses.length).toBeGreaterThan(0)
    if (oneName === true) expect(businesses.at(-1)?.slug).toBe(`joe-cafe-${businesses.length}`)
  })
})
