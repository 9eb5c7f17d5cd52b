import { describe, expect, test } from 'vitest'
import { classify, describeKind } from './classify.ts'
import { listReader } from './reader.ts'

const kindOf = (text: string) => classify(text, listReader('US', undefined))

describe('classify', () => {
  test.each([
    ['Phone: (501) 555-0101', { kind: 'phone' }],
    ['Call or text 501.555.0101', { kind: 'phone' }],
    ['www.joecafe.example', { kind: 'website', value: 'www.joecafe.example' }],
    ['Website: none', { kind: 'website', value: 'none' }],
    ['12 Main St, Roland, AR 72135', { kind: 'address', value: '12 Main St, Roland, AR 72135' }],
    ['Hours: Daily 7am-3pm', { kind: 'hours', value: 'Daily 7am-3pm' }],
    ['Features: Wi-Fi, patio', { kind: 'features', value: 'Wi-Fi, patio' }],
    ['Category: Dining', { kind: 'category', value: 'Dining' }],
    ['Fax: 501-555-0199', { kind: 'ignored' }],
    ['- Home-made pie every day', { kind: 'description', value: 'Home-made pie every day', bullet: true }],
  ])('reads %s as %o', (text, kind) => {
    expect(kindOf(text)).toEqual(kind)
  })

  test('reads a line once per list, whatever stage asks', () => {
    const list = listReader('US', undefined)
    const first = classify('12 Main St, Roland, AR 72135', list)
    expect(classify('12 Main St, Roland, AR 72135', list)).toBe(first)
    expect(list.kinds.size).toBe(1)
  })

  test('reads a sentence with a phone number in it as description', () => {
    expect(kindOf('Our founder Joe answered the phone at 501-555-0101 for forty years before he retired.').kind).toBe(
      'description',
    )
  })
})

describe('describeKind', () => {
  test("says what a line was read as, for a skipped block's reason", () => {
    expect(describeKind({ kind: 'phone' })).toBe('a phone number')
    expect(describeKind({ kind: 'ignored' })).toBe('an e-mail or fax line')
  })
})
