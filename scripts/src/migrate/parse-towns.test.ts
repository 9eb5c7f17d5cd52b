import { readdirSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { loadList as load, scoreList as score } from './accuracy.ts'
import { parseRolandTextReport } from './parse/index.ts'

// Hand-typed business lists of other (invented) towns, each with the output a person reading it
// would write down. They vary the way volunteers' files do: entries with no blank line between
// them, labelled and unlabelled fields, section headings right above an entry, taglines that
// promise '24/7' inside descriptions, day ranges with en dashes, phones in every format.
const TOWNS = new URL('../../test/fixtures/towns/', import.meta.url)

const towns = readdirSync(TOWNS)
  .filter((file) => file.endsWith('.txt'))
  .map((file) => load(TOWNS, file))

describe('parsing the hand-typed lists of other towns', () => {
  test('has several towns to measure', () => {
    expect(towns.length).toBeGreaterThanOrEqual(3)
  })

  test.each(towns.map((town) => [town.file, town] as const))('loses and merges no entry of %s', (_file, town) => {
    expect(town.parsed.map((business) => business.name)).toEqual(town.expected.map((business) => business.name))
  })

  test('reads at least 98% of the fields right', () => {
    const results = towns.map((town) => score(town.parsed, town.expected))
    const correct = results.reduce((sum, result) => sum + result.correct, 0)
    const total = results.reduce((sum, result) => sum + result.total, 0)
    const mismatches = results.flatMap((result) => result.mismatches)
    expect(correct / total, mismatches.join('\n')).toBeGreaterThanOrEqual(0.98)
    expect(results.every((result) => result.lost === 0)).toBe(true)
  })

  test.each(towns.map((town) => [town.file, town] as const))('reads every field of %s right', (_file, town) => {
    expect(score(town.parsed, town.expected).mismatches).toEqual([])
  })
})

// A list kept out of the towns above while the parser was changed, in every shape issue 29 names:
// CRLF lines then LF lines, indented fields, web addresses in capitals (alone and after 'ORDER ONLINE
// AT'), and hours with other labels, abbreviated days, seasons, '24 hours' and appointments only.
const unseen = load(new URL('../../test/fixtures/unseen/', import.meta.url), 'beaver-fork.txt')

describe('parsing an unseen hand-typed list', () => {
  test('mixes CRLF and LF lines and indents some fields', () => {
    expect(unseen.text).toMatch(/\r\n/)
    expect(unseen.text).toMatch(/[^\r]\n/)
    expect(unseen.text).toMatch(/\n[ \t]+\S/)
  })

  test('splits and merges no entry', () => {
    expect(unseen.parsed.map((business) => business.name)).toEqual(unseen.expected.map((business) => business.name))
  })

  test('reads the hours of every entry, whatever their shape', () => {
    expect(unseen.parsed.map((business) => business.hours)).toEqual(unseen.expected.map((business) => business.hours))
  })

  test('reads every field right', () => {
    expect(score(unseen.parsed, unseen.expected).mismatches).toEqual([])
  })
})

// Issue 42's unseen list, written before the parser was changed for it: a chamber newsletter's member
// insert, with bulleted names ended by '|', ':', '~', '·', '/', an unspaced em dash or a tab; phones
// with a slash, words around them, an extension and two on a line; hours behind 'Office:', 'Kitchen',
// 'Tasting room:' and 'Lobby:', in several clauses, with a.m./p.m., noon, thru and 24/7; and
// descriptions that say 'open' or give a time. Before the change it scored 0.433 (52/120 fields).
const newsletter = load(new URL('../../test/fixtures/unseen/', import.meta.url), 'hickory-flat.txt')

describe('parsing a chamber newsletter’s member list', () => {
  test('is in a shape of its own: bullets, tabs and non-breaking spaces', () => {
    expect(newsletter.text).toMatch(/^• /m)
    expect(newsletter.text).toMatch(/\S\t\S/)
    expect(newsletter.text).toMatch(/\u00a0/)
  })

  test('splits and merges no entry', () => {
    expect(newsletter.parsed.map((business) => business.name)).toEqual(
      newsletter.expected.map((business) => business.name),
    )
  })

  test('reads every field right', () => {
    const result = score(newsletter.parsed, newsletter.expected)
    expect(result.mismatches).toEqual([])
    expect(result.correct / result.total).toBe(1)
  })

  test('keeps the first of two phones on a line and says so', () => {
    const diner = newsletter.parsed.find((business) => business.name === 'The Depot Diner')
    expect(diner?.warnings).toContain('more than one phone number: kept the first, left out (870) 555-0306')
  })
})

// Issue 42's second unseen list, written before the parser read tables: a chamber's member sheet
// copied from a spreadsheet, a row per business with tabs between its cells (some empty), under a
// row of column names, with section rows and Windows line ends. Before the change it scored 0.000
// (every entry lost: each row read as one long name line, the column names as a business).
const sheet = load(new URL('../../test/fixtures/unseen/', import.meta.url), 'dogwood-hollow.txt')

describe('parsing a member list pasted from a spreadsheet', () => {
  test('is in a shape of its own: a row per business, cells between tabs, some empty', () => {
    expect(sheet.text).toMatch(/^Business Name\tPhone\t/m)
    expect(sheet.text).toMatch(/\S\t\t\S/)
    expect(sheet.text).toMatch(/\r\n/)
  })

  test('splits and merges no entry', () => {
    expect(sheet.parsed.map((business) => business.name)).toEqual(sheet.expected.map((business) => business.name))
  })

  test('reads every field right', () => {
    const result = score(sheet.parsed, sheet.expected)
    expect(result.mismatches).toEqual([])
    expect(result.correct / result.total).toBe(1)
  })

  test('leaves out the title, the column names and the section rows, saying why', () => {
    const report = parseRolandTextReport(sheet.text)
    expect(report.skipped.map(({ line, reason }) => [line, reason])).toEqual([
      [1, 'a heading, not a business'],
      [3, 'the column names of a table, not a business'],
      [4, 'a heading, not a business'],
      [8, 'a heading, not a business'],
      [11, 'a heading, not a business'],
      [16, 'a heading, not a business'],
      [21, 'a heading, not a business'],
    ])
  })
})
