import { describe, expect, test } from 'vitest'
import { readBlock } from './block.ts'
import type { Line } from './lines.ts'
import { listReader } from './reader.ts'

const block = (...texts: string[]): Line[] => texts.map((text, i) => ({ text, line: i + 1 }))
const read = (...texts: string[]) => readBlock(block(...texts), listReader('US', undefined))

describe('readBlock', () => {
  test('reads a name, its tagline and the fields below it into a draft', () => {
    const result = read(
      'Joe Cafe - Diner food and pie',
      'Phone: 501-555-0100',
      'Also 501-555-0199',
      'www.joecafe.example',
      '12 Main St',
      'Roland, AR 72135',
      'Features: pie, coffee',
      '- soup',
      'Pie and coffee all day long.',
    )
    expect(result.kind).toBe('business')
    if (result.kind !== 'business') return
    expect(result.draft).toMatchObject({
      name: 'Joe Cafe',
      phone: '(501) 555-0100',
      extraPhones: ['(501) 555-0199'],
      website: 'https://www.joecafe.example',
      address: '12 Main St, Roland, AR 72135',
      paragraphs: ['Diner food and pie', 'Pie and coffee all day long.'],
    })
    expect([...result.draft.services.values()]).toEqual(['pie', 'coffee', 'soup'])
  })

  test('reads a paragraph on its own as more of the business above', () => {
    expect(read('We also fix small engines for the whole county in the winter months.')).toEqual({
      kind: 'paragraph',
      text: 'We also fix small engines for the whole county in the winter months.',
    })
  })

  test('skips a heading, a block that starts with a field, and a name with nothing below it', () => {
    expect(read('DINING')).toEqual({ kind: 'skip', reason: 'a heading, not a business' })
    expect(read('Phone: 501-555-0100', 'Joe Cafe')).toEqual({
      kind: 'skip',
      reason: 'starts with a phone number instead of a business name',
    })
    expect(read('Joe Cafe', 'ok')).toEqual({
      kind: 'skip',
      reason: 'no phone, website, address or description below the name',
    })
  })

  test("warns of a website that is not a web address, but not of 'none'", () => {
    const odd = read('Joe Cafe', '501-555-0100', 'Website: ask at the counter')
    const none = read('Joe Cafe', '501-555-0100', 'Website: none')
    expect(odd.kind === 'business' && odd.draft.warnings).toEqual([
      'website "ask at the counter" is not a web address: left out',
    ])
    expect(none.kind === 'business' && none.draft.warnings).toEqual([])
  })
})
