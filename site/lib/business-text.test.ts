import { describe, expect, test } from 'vitest'
import { fixtureTown, makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import {
  aboutField,
  aboutText,
  cardDescription,
  categoryBadgeLabel,
  formatRating,
  listingCheckedFormat,
} from './business-text.ts'

const town = fixtureTown()
const zone = 'America/Chicago'

describe('cardDescription', () => {
  test('prefers the short description', () => {
    expect(
      cardDescription(makeBusiness({ name: 'A', short_description: 'Short', full_description: 'Full' }), town),
    ).toBe('Short')
  })

  test('uses the full description when there is no short one', () => {
    expect(cardDescription(makeBusiness({ name: 'A', short_description: ' ', full_description: 'Full' }), town)).toBe(
      'Full',
    )
  })

  test("falls back to '{name} - Local business in Roland, Arkansas.'", () => {
    expect(cardDescription(makeBusiness({ name: 'Lakeside Sweets' }), town)).toBe(
      'Lakeside Sweets - Local business in Roland, Arkansas.',
    )
  })
})

describe('aboutText', () => {
  test('prefers the full description, then the short one', () => {
    expect(aboutText(makeBusiness({ name: 'A', short_description: 'Short', full_description: 'Full' }), town)).toBe(
      'Full',
    )
    expect(aboutText(makeBusiness({ name: 'A', short_description: 'Short' }), town)).toBe('Short')
  })

  test('says it is a local business in Roland, Arkansas when there is no description', () => {
    expect(aboutText(makeBusiness({ name: 'Odd Jobs' }), town)).toBe(
      'Odd Jobs is a local business in Roland, Arkansas.',
    )
  })
})

describe('aboutField', () => {
  test('names the column the about text comes from, or none for the stock line', () => {
    expect(aboutField(makeBusiness({ name: 'A', short_description: 'Short', full_description: 'Full' }))).toBe(
      'full_description',
    )
    expect(aboutField(makeBusiness({ name: 'A', short_description: 'Short', full_description: ' ' }))).toBe(
      'short_description',
    )
    expect(aboutField(makeBusiness({ name: 'A', short_description: null, full_description: null }))).toBeNull()
  })
})

describe('categoryBadgeLabel', () => {
  test('labels each business category of SPEC §3', () => {
    expect(categoryBadgeLabel('Dining & Refreshments')).toBe('Local Favorite')
    expect(categoryBadgeLabel('Shopping & Convenience')).toBe('Convenience')
    expect(categoryBadgeLabel('Professional Services')).toBe('Professional')
    expect(categoryBadgeLabel('Recreation')).toBe('Community Hub')
  })

  test("labels any other category 'Local Business'", () => {
    expect(categoryBadgeLabel('Business')).toBe('Local Business')
    expect(categoryBadgeLabel('constructor')).toBe('Local Business')
  })
})

describe('formatRating', () => {
  test('shows one decimal', () => {
    expect(formatRating(5)).toBe('5.0')
    expect(formatRating(4.75)).toBe('4.8')
  })
})

describe('listingCheckedFormat', () => {
  test('names the month and year of the last verification, in Roland', () => {
    expect(listingCheckedFormat(zone)('2026-11-03T15:04:05+00:00')).toBe('Listing checked November 2026')
    // 1 December at 03:00 UTC is still 30 November in Roland.
    expect(listingCheckedFormat(zone)('2026-12-01T03:00:00Z')).toBe('Listing checked November 2026')
  })

  test('says nothing for a listing never verified', () => {
    expect(listingCheckedFormat(zone)(null)).toBeNull()
  })
})
