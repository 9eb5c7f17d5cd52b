import { describe, expect, test } from 'vitest'
import { allBusinesses } from '@roland/scripts/catalog/queries'
import { fixtureCatalog, makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import { toBusinessCard } from './business-card.ts'
import { filterBusinesses, prepareSearch, searchPrepared } from './business-filter.ts'
import { parseSearchIndex, searchIndexCard, searchIndexJson, toSearchIndexEntry } from './search-index.ts'

const photo = {
  id: '00000000-0000-4000-8000-000000000901',
  business_id: '00000000-0000-4000-8000-000000000900',
  image_url: '/files/business-images/coffee.png',
  alt_text: 'The porch',
  image_type: 'hero' as const,
  is_primary: true,
  sort_order: 0,
  metadata: {},
  width: null,
  height: null,
  placeholder: null,
  variants: [],
}
const coffee = makeBusiness({
  name: 'Roland Coffee House',
  category: 'Dining & Refreshments',
  short_description: 'Fresh coffee',
  full_description: 'Roasted in small batches.',
  address: '18000 Highway 300',
  phone: '(501) 555-0101',
  website: 'https://coffee.example',
  hours: 'Mon-Sat 6am-2pm',
  is_featured: true,
  rating: 4.8,
  images: [photo],
})
const businesses = [...allBusinesses(fixtureCatalog()), coffee, makeBusiness({ name: 'Blank', short_description: '' })]

describe('toSearchIndexEntry', () => {
  test('keeps what a card shows and the filter reads, and nothing else', () => {
    expect(toSearchIndexEntry(coffee)).toEqual({
      slug: 'roland-coffee-house',
      name: 'Roland Coffee House',
      category: 'Dining & Refreshments',
      short_description: 'Fresh coffee',
      full_description: 'Roasted in small batches.',
      address: '18000 Highway 300',
      phone: '(501) 555-0101',
      hours: 'Mon-Sat 6am-2pm',
      is_featured: true,
      image: { url: '/files/business-images/coffee.png', alt: 'The porch', generated: false },
    })
  })

  test('leaves out empty fields and the featured flag of a business that is not featured', () => {
    expect(JSON.parse(searchIndexJson([makeBusiness({ name: 'Odd Jobs', short_description: '' })]))).toEqual([
      { slug: 'odd-jobs', name: 'Odd Jobs', category: 'Business' },
    ])
  })
})

describe('searchIndexCard', () => {
  test('makes the same card as the static list does', () => {
    for (const business of businesses) {
      const card = toBusinessCard(business)
      expect(searchIndexCard(toSearchIndexEntry(business)), business.name).toEqual({
        ...card,
        short_description: card.short_description || null,
        full_description: card.full_description || null,
      })
    }
  })
})

describe('the search index', () => {
  test('finds what filterBusinesses finds in the catalog, after a trip through JSON', () => {
    const index = prepareSearch(parseSearchIndex(JSON.parse(searchIndexJson(businesses))))
    for (const q of ['', 'coffee', 'BATCHES', 'pizza', 'blank', 'null', 'tools']) {
      for (const category of ['', 'Dining & Refreshments', 'Business']) {
        expect(searchPrepared(index, { q, category }).map((entry) => entry.slug)).toEqual(
          filterBusinesses(businesses, { q, category }).map((business) => business.slug),
        )
      }
    }
  })
})

describe('parseSearchIndex', () => {
  test('refuses what is not a list of businesses', () => {
    expect(() => parseSearchIndex({ businesses: [] })).toThrow(
      '/businesses/search-index.json is not a list of businesses',
    )
    expect(() => parseSearchIndex([{ slug: 'a', name: 'A' }])).toThrow('is not a list of businesses')
    expect(() => parseSearchIndex([null])).toThrow('is not a list of businesses')
    expect(parseSearchIndex([])).toEqual([])
  })
})
