import { describe, expect, test } from 'vitest'
import { splitEntries } from './boundary.ts'
import type { Line } from './lines.ts'
import { listReader } from './reader.ts'

const block = (...texts: string[]): Line[] => texts.map((text, i) => ({ text, line: i + 1 }))
const names = (lines: Line[]) =>
  splitEntries(lines, listReader('US', undefined)).map(({ lines: entry, joined }) => [entry[0]?.text, joined])

describe('splitEntries', () => {
  test('starts a new entry at a name line followed by fields the entry above already has', () => {
    expect(
      names(block('Joe Cafe', '(501) 555-0100', '12 Main St', 'Ace Hardware', '(501) 555-0101', '14 Main St')),
    ).toEqual([
      ['Joe Cafe', false],
      ['Ace Hardware', true],
    ])
  })

  test('keeps one entry when no line below the first reads like the next name', () => {
    expect(names(block('Joe Cafe', '(501) 555-0100', 'Pie, coffee and soup every day.', '12 Main St'))).toEqual([
      ['Joe Cafe', false],
    ])
  })

  test('reads plain lines under an empty features label as items, not names', () => {
    expect(names(block('Joe Cafe', '(501) 555-0100', 'Features:', 'Outdoor Patio', 'Free Wi-Fi'))).toEqual([
      ['Joe Cafe', false],
    ])
  })

  test("starts a new entry at a second 'Name:' label", () => {
    expect(names(block('Name: Joe Cafe', 'Phone: 501-555-0100', 'Name: Ace Hardware', 'Phone: 501-555-0101'))).toEqual([
      ['Name: Joe Cafe', false],
      ['Name: Ace Hardware', true],
    ])
  })
})
