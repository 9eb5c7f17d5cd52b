import { describe, expect, test } from 'vitest'
import {
  guessCategory,
  guessCategoryByKeywords,
  matchCategoryLabel,
  scoreCategories,
  scoreOsmText,
} from './category.ts'

describe('guessCategory', () => {
  test.each([
    ['Big Rock Coffee', 'Dining & Refreshments'],
    ['Roland Smokehouse BBQ', 'Dining & Refreshments'],
    ['Roland Hardware & Feed', 'Shopping & Convenience'],
    ['Pinnacle Family Dental', 'Professional Services'],
    ['Roland Veterinary Clinic', 'Professional Services'],
    ['Pinnacle Valley Stables', 'Recreation'],
    ['Natural Steps Campground', 'Recreation'],
  ] as const)('puts %s in %s from its name alone', (name, category) => {
    expect(guessCategory(name)).toBe(category)
  })

  test('puts Lakeview Marina & Bait Shop in Recreation, since a generic "shop" never outvotes "marina"', () => {
    expect(guessCategory('Lakeview Marina & Bait Shop', 'Boat rentals, live bait and a small store')).toBe('Recreation')
  })

  test('puts a coffee shop in Dining, not Shopping', () => {
    expect(guessCategory('Big Rock Coffee Shop')).toBe('Dining & Refreshments')
  })

  test('lets a phrase claim its words: auto parts is a store, auto repair a service', () => {
    expect(guessCategory('Roland Auto Parts')).toBe('Shopping & Convenience')
    expect(guessCategory('Roland Auto Repair')).toBe('Professional Services')
  })

  test('reads the description when the name gives nothing away', () => {
    expect(guessCategory('Scoops on 300', 'Ice cream, snow cones and milkshakes')).toBe('Dining & Refreshments')
  })

  test('weighs the name above a passing mention in the description', () => {
    expect(guessCategory('Maumelle Catfish House', 'A restaurant five minutes from Pinnacle Mountain State Park')).toBe(
      'Dining & Refreshments',
    )
  })

  test('breaks a tie in the name with the description', () => {
    expect(guessCategory('Roland Grocery & Deli', 'Family grocery store with a hot deli counter')).toBe(
      'Shopping & Convenience',
    )
  })

  test("asks OpenStreetMap's vocabulary when two categories tie on keywords", () => {
    expect(scoreCategories('Grill & Gas', '')).toMatchObject({
      'Dining & Refreshments': 6,
      'Shopping & Convenience': 6,
    })
    expect(guessCategoryByKeywords('Grill & Gas')).toBe('Business')
    // A fuel station is a shop in OSM; a grill is both a restaurant and a barbecue store.
    expect(guessCategory('Grill & Gas')).toBe('Shopping & Convenience')
  })

  test("asks OpenStreetMap's vocabulary when no keyword is found", () => {
    expect(guessCategoryByKeywords('Hawthorne Tree Farm', 'Choose-and-cut Christmas trees')).toBe('Business')
    expect(guessCategory('Hawthorne Tree Farm', 'Choose-and-cut Christmas trees')).toBe('Shopping & Convenience')
  })

  test('puts a food business named for a dish no keyword knows in Dining, by its cuisine and its food truck', () => {
    expect(guessCategoryByKeywords('Pupuseria La Ceiba', 'Salvadoran pupusas and tamales')).toBe('Business')
    expect(guessCategory('Pupuseria La Ceiba', 'Salvadoran pupusas and tamales')).toBe('Dining & Refreshments')
    expect(guessCategory('El Comal Pupusas', 'Pupusas revueltas and horchata from a food truck')).toBe(
      'Dining & Refreshments',
    )
  })

  test('puts fishing and climbing guides in Recreation, not Professional Services', () => {
    expect(guessCategory('Ozark Rock Guides', 'Guided climbing and rappelling trips')).toBe('Recreation')
    expect(guessCategory('Mulberry River Fishing Guides', 'Smallmouth float trips')).toBe('Recreation')
    expect(guessCategory('Buffalo River Climbing Guides', 'Sport and trad climbing instruction')).toBe('Recreation')
  })

  test("falls back to 'Business' when neither the keywords nor the vocabulary know a word", () => {
    expect(guessCategory('Gasper & Parkers Holdings')).toBe('Business')
  })

  test('matches whole words only, so Gasper and Parkers are not gas or park', () => {
    expect(guessCategory('Gasper & Parkers Holdings')).toBe('Business')
  })

  test('folds accents before matching, so Café counts as cafe', () => {
    expect(guessCategory('Café Roland')).toBe('Dining & Refreshments')
  })
})

describe('scoreOsmText', () => {
  test('matches the longest phrase first and counts it once', () => {
    const scores = scoreOsmText('Food truck, food truck')
    expect(scores['Dining & Refreshments']).toBeGreaterThan(0)
    expect(scoreOsmText('Food truck')).toEqual(scores)
  })

  test('folds plurals and accents: Cafés is cafe', () => {
    expect(scoreOsmText('Cafés')).toEqual(scoreOsmText('cafe'))
    expect(scoreOsmText('cafe')['Dining & Refreshments']).toBeGreaterThan(0)
  })
})

describe('matchCategoryLabel', () => {
  test("accepts a site category whatever its case or '&' versus 'and'", () => {
    expect(matchCategoryLabel('dining and refreshments')).toBe('Dining & Refreshments')
    expect(matchCategoryLabel('RECREATION')).toBe('Recreation')
    expect(matchCategoryLabel('business')).toBe('Business')
  })

  test('returns null for a label that is not a site category', () => {
    expect(matchCategoryLabel('Restaurants')).toBeNull()
  })
})
