import { readFileSync } from 'node:fs'
import { decodeRolandFile, parseRolandText, type ParsedBusiness } from './parse/index.ts'

// How well the parser reads a hand-typed list, against what a person reading it would write down:
// the accuracy tests (parse-towns.test.ts) and the measuring script (measure-accuracy.ts) share it.

/** The fields a person writes down for each business of a fixture list. */
export const FIELDS = ['name', 'category', 'phone', 'website', 'address', 'hours', 'description', 'services'] as const
export type Field = (typeof FIELDS)[number]
export type ExpectedBusiness = Record<Field, string | string[] | null>

/** How a parse compares with the expected businesses, field by field. */
export interface ListScore {
  correct: number
  total: number
  /** One line per wrong field, lost entry or unexpected entry. */
  mismatches: string[]
  /** Expected businesses the parse does not have. */
  lost: number
  /** Parsed businesses that are not expected: a merged or split entry. */
  unexpected: number
}

function actual(business: ParsedBusiness): ExpectedBusiness {
  return { ...business, description: business.full_description }
}

/** Compares parsed businesses with the expected ones, field by field, matched by name. */
export function scoreList(parsed: ParsedBusiness[], expected: ExpectedBusiness[]): ListScore {
  const mismatches: string[] = []
  let correct = 0
  let lost = 0
  for (const want of expected) {
    const got = parsed.find((business) => business.name === want.name)
    if (got === undefined) {
      mismatches.push(`lost: ${String(want.name)}`)
      lost += 1
      continue
    }
    for (const field of FIELDS) {
      const value = actual(got)[field]
      if (JSON.stringify(value) === JSON.stringify(want[field])) correct += 1
      else
        mismatches.push(
          `${String(want.name)}.${field}: got ${JSON.stringify(value)}, want ${JSON.stringify(want[field])}`,
        )
    }
  }
  const unexpected = parsed.filter((business) => !expected.some((want) => want.name === business.name))
  for (const business of unexpected) mismatches.push(`unexpected (a merged or split entry?): ${business.name}`)
  return { correct, total: expected.length * FIELDS.length, mismatches, lost, unexpected: unexpected.length }
}

/** A fixture list: its text, what the parser makes of it, and what a person wrote down for it. */
export interface FixtureList {
  file: string
  text: string
  parsed: ParsedBusiness[]
  expected: ExpectedBusiness[]
}

/** Reads a fixture list (name.txt beside name.expected.json) and parses it. */
export function loadList(folder: URL, file: string): FixtureList {
  const text = decodeRolandFile(readFileSync(new URL(file, folder)))
  const expected = (
    JSON.parse(readFileSync(new URL(file.replace(/\.txt$/, '.expected.json'), folder), 'utf8')) as {
      businesses: ExpectedBusiness[]
    }
  ).businesses
  return { file, text, parsed: parseRolandText(text), expected }
}
