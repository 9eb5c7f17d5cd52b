import { describe, expect, test } from 'vitest'
import { readConsoleConfig } from './config.ts'
import { parseFeedsEvery } from './feeds-schedule.ts'

describe('parseFeedsEvery', () => {
  test('is every 6 hours unless ROLAND_FEEDS_EVERY says otherwise', () => {
    expect(parseFeedsEvery(undefined)).toBe(6 * 3_600_000)
    expect(parseFeedsEvery('30m')).toBe(30 * 60_000)
    expect(parseFeedsEvery('1d')).toBe(86_400_000)
    expect(parseFeedsEvery('off')).toBeNull()
  })

  test('refuses a value without a unit, naming the setting and the forms it takes', () => {
    expect(() => parseFeedsEvery('6')).toThrow(/ROLAND_FEEDS_EVERY must be a number and a unit \(30m, 6h, 1d\) or off/)
    expect(() => readConsoleConfig({ ROLAND_FEEDS_EVERY: 'hourly' })).toThrow(/ROLAND_FEEDS_EVERY/)
  })
})
