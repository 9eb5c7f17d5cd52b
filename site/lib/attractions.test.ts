import { describe, expect, test } from 'vitest'
import type { Attraction } from '@roland/scripts/catalog/types'
import {
  artKind,
  attractionPath,
  attractionsIn,
  byDistance,
  distanceMiles,
  featuredAttraction,
  otherAttractions,
} from './attractions.ts'

const attraction = (id: string, fields: Partial<Attraction> = {}): Attraction => ({
  id,
  name: id,
  category: 'Natural Attractions',
  description: '',
  badge: null,
  rating: null,
  distance: null,
  image_url: null,
  address: null,
  website: null,
  is_featured: false,
  sort_order: 0,
  ...fields,
})

const pinnacle = attraction('pinnacle-mountain-state-park', { is_featured: true, distance: '5 miles' })
const lake = attraction('lake-maumelle', { distance: '3 miles' })
const club = attraction('chenal-country-club', { category: 'Premium Destinations', distance: '10 miles' })
const list = [pinnacle, lake, club, ...['a', 'b', 'c', 'd'].map((id) => attraction(id))]

describe('featuredAttraction', () => {
  test('is the attraction marked featured, else the first', () => {
    expect(featuredAttraction([lake, pinnacle])).toBe(pinnacle)
    expect(featuredAttraction([lake, club])).toBe(lake)
    expect(featuredAttraction([])).toBeNull()
  })
})

describe('otherAttractions', () => {
  test('lists up to five attractions besides the featured one', () => {
    expect(otherAttractions(list).map((a) => a.id)).toEqual(['lake-maumelle', 'chenal-country-club', 'a', 'b', 'c'])
  })
})

describe('attractionsIn', () => {
  test('keeps the attractions of one category', () => {
    expect(attractionsIn(list, 'Premium Destinations')).toEqual([club])
  })
})

describe('attractionPath', () => {
  test('sends the featured attraction to /recreation/pinnacle-mountain and the others to /attraction/{id}', () => {
    expect(attractionPath(pinnacle, list)).toBe('/recreation/pinnacle-mountain')
    expect(attractionPath(lake, list)).toBe('/attraction/lake-maumelle')
  })
})

describe('artKind', () => {
  test('draws by category', () => {
    expect(artKind('Natural Attractions')).toBe('nature')
    expect(artKind('Premium Destinations')).toBe('premium')
    expect(artKind('Sports & Recreation')).toBe('sports')
  })
})

describe('distanceMiles and byDistance', () => {
  test('read miles from the distance text and sort nearest first, unknown last', () => {
    expect(distanceMiles('5 miles')).toBe(5)
    expect(distanceMiles('2.5 mi')).toBe(2.5)
    expect(distanceMiles(null)).toBe(Number.POSITIVE_INFINITY)
    expect(byDistance([club, attraction('x'), pinnacle, lake]).map((a) => a.id)).toEqual([
      'lake-maumelle',
      'pinnacle-mountain-state-park',
      'chenal-country-club',
      'x',
    ])
  })
})
