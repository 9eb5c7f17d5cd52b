import { describe, expect, test } from 'vitest'
import { cleanName, isHeading, isSectionHeading, looksLikeName, looksLikeProse, splitNameLine } from './name.ts'

describe('splitNameLine', () => {
  test.each([
    ['Big Rock Coffee - Coffee shop & bakery', ['Big Rock Coffee', 'Coffee shop & bakery']],
    ['Stop-N-Go Market', ['Stop-N-Go Market', null]],
    ['Bluff City Realty—Farms and land', ['Bluff City Realty', 'Farms and land']],
    ['Crooked Vine Winery: tasting room', ['Crooked Vine Winery', 'tasting room']],
    ['Name: Joe Cafe | Diner', ['Joe Cafe', 'Diner']],
    ['Tasting room: Thu-Sat noon-6', ['Tasting room: Thu-Sat noon-6', null]],
  ])('splits %s into name and tagline', (line, parts) => {
    expect(splitNameLine(line)).toEqual(parts)
  })

  test("cuts at a spreadsheet's tab", () => {
    expect(splitNameLine('Joe Cafe Diner food', 8)).toEqual(['Joe Cafe', 'Diner food'])
  })
})

describe('cleanName', () => {
  test('drops bullets, decorations and quotes around a name', () => {
    expect(cleanName('== Joe Cafe ==')).toBe('Joe Cafe')
    expect(cleanName('• **Joe Cafe**')).toBe('Joe Cafe')
    expect(cleanName('"Joe Cafe"')).toBe('Joe Cafe')
  })
})

describe('what a name looks like', () => {
  test('a name is short with every main word capitalised', () => {
    expect(looksLikeName('Joe and the Cafe')).toBe(true)
    expect(looksLikeName('pie and coffee every day')).toBe(false)
  })

  test('a heading is decorated, shouted as a category, or a title', () => {
    expect(isSectionHeading('=== DINING ===')).toBe(true)
    expect(isSectionHeading('SHOPPING & CONVENIENCE')).toBe(true)
    expect(isSectionHeading('Joe Cafe')).toBe(false)
    expect(isHeading('Business Directory')).toBe(true)
  })

  test('a first line of eight words or more ending a sentence is prose', () => {
    const line = 'We also fix small engines for the whole county in winter.'
    expect(looksLikeProse(line, line)).toBe(true)
    expect(looksLikeProse('Joe Cafe', 'Joe Cafe')).toBe(false)
  })
})
