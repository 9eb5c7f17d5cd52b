import { describe, expect, test } from 'vitest'
import { addressNamesTown, escapeRegExp } from './index.ts'

describe('escapeRegExp', () => {
  test('makes every special character literal', () => {
    const special = 'St. Kitts (and) [Nevis] a+b*c?^$|\\'
    expect(new RegExp(`^${escapeRegExp(special)}$`).test(special)).toBe(true)
    expect(new RegExp(escapeRegExp('St.')).test('StX')).toBe(false)
  })
})

describe('addressNamesTown', () => {
  const town = { name: 'Roland', state: 'Arkansas', state_code: 'AR' }

  test('an address naming the state, a ZIP or ending in the town says where it is', () => {
    expect(addressNamesTown('11901 Pinnacle Valley Rd, Little Rock, AR 72223', town)).toBe(true)
    expect(addressNamesTown('5 Lake Rd, Arkansas', town)).toBe(true)
    expect(addressNamesTown('1 Main St, Roland', town)).toBe(true)
  })

  test('a street alone, or a place that only starts with the town, does not', () => {
    expect(addressNamesTown('1 Main St', town)).toBe(false)
    expect(addressNamesTown('Roland Community Center', town)).toBe(false)
    expect(addressNamesTown('Go far down the road', town)).toBe(false)
  })
})
