import { readdirSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { loadList as load, scoreList as score } from './accuracy.ts'

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

  test('reads at least 98% of the fields right', () => {
    const result = score(unseen.parsed, unseen.expected)
    expect(result.correct / result.total, result.mismatches.join('\n')).toBeGreaterThanOrEqual(0.98)
  })
})
