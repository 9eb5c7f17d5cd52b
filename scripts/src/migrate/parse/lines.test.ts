import { describe, expect, test } from 'vitest'
import { splitBlocks } from './lines.ts'
import { listReader } from './reader.ts'

const texts = (text: string) =>
  splitBlocks(text, listReader('US', undefined)).map((block) => block.map((line) => line.text))

describe('splitBlocks', () => {
  test('splits at blank lines and rules, with Windows and old Mac line ends', () => {
    expect(texts('Joe Cafe\r\n501-555-0100\r\n\r\nAce Hardware\r501-555-0101\n-----\nBait Shop\n501-555-0102')).toEqual(
      [
        ['Joe Cafe', '501-555-0100'],
        ['Ace Hardware', '501-555-0101'],
        ['Bait Shop', '501-555-0102'],
      ],
    )
  })

  test('keeps a rule under a name as its underline, not the end of the entry', () => {
    expect(texts('Big Rock Coffee\n---------------\n501-555-0101')).toEqual([['Big Rock Coffee', '501-555-0101']])
  })

  test('makes plain the blanks of copied text: non-breaking spaces, runs of spaces, trailing blanks', () => {
    expect(texts('Joe\u00a0\u00a0Cafe   \n  501-555-0100\t')).toEqual([['Joe Cafe', '501-555-0100']])
  })

  test('reads a spreadsheet row under column names as one business, each cell under its column', () => {
    const blocks = splitBlocks('Name\tPhone\tHours\nJoe Cafe\t501-555-0100\tDaily 7am-3pm', listReader('US', undefined))
    expect(blocks).toEqual([
      [{ text: 'Name Phone Hours', line: 1, tab: 4, header: true }],
      [
        { text: 'Joe Cafe', line: 2 },
        { text: 'Phone: 501-555-0100', line: 2 },
        { text: 'Hours: Daily 7am-3pm', line: 2 },
      ],
    ])
  })
})
