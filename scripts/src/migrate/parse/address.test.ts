import { describe, expect, test } from 'vitest'
import { addressPatterns, isAddressLike } from './address.ts'

describe('isAddressLike', () => {
  const anywhere = addressPatterns(undefined)

  test.each([
    '12 Main St',
    '21000 Highway 300, Roland, AR 72135',
    'Hwy 7 at the bridge',
    'PO Box 12',
    'Willow Bend, TX 75455',
  ])('reads %s as an address', (line) => {
    expect(isAddressLike(line, anywhere)).toBe(true)
  })

  test.each(['Joe Cafe', 'Pie and coffee every day', 'Pine Hollow, CO'])('does not read %s as one', (line) => {
    expect(isAddressLike(line, anywhere)).toBe(false)
  })
})

describe('addressPatterns', () => {
  test("reads a town of the list's own state without a ZIP, by its name, code or shortening", () => {
    const colorado = addressPatterns({ state: 'Colorado', state_code: 'CO' })
    expect(colorado.cityState.test('Pine Hollow, CO')).toBe(true)
    expect(colorado.cityState.test('Pine Hollow, Colo.')).toBe(true)
    expect(colorado.cityState.test('Pine Hollow, Colorado')).toBe(true)
    expect(colorado.cityState.test('Pine Hollow, TX')).toBe(false)
  })

  test("escapes the state's name (a dot is a dot)", () => {
    const patterns = addressPatterns({ state: 'St. Kitts', state_code: 'KN' })
    expect(patterns.stateAndZip.test('Basseterre, St. Kitts 12345')).toBe(true)
    expect(patterns.stateAndZip.test('Basseterre, StX Kitts 12345')).toBe(false)
  })
})
