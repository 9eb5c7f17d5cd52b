import { describe, expect, test } from 'vitest'
import type { Attraction, BusinessHours } from '@roland/scripts/catalog/types'
import { fixtureTown, makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import {
  businessType,
  eventJsonLd,
  itemListJsonLd,
  jsonLdText,
  localBusinessJsonLd,
  openingHoursJsonLd,
  postalAddress,
  touristAttractionJsonLd,
} from './structured-data.ts'

const town = fixtureTown()

const hours = (day_of_week: number, opens_at: string | null, closes_at: string | null = null): BusinessHours => ({
  day_of_week,
  opens_at,
  closes_at,
  is_closed: opens_at === null,
})

describe('postalAddress', () => {
  test('splits the street from the town, state and ZIP an address ends with', () => {
    expect(postalAddress('15500 Highway 300, Suite B, Roland, AR 72135', town)).toEqual({
      '@type': 'PostalAddress',
      streetAddress: '15500 Highway 300, Suite B',
      addressLocality: 'Roland',
      addressRegion: 'AR',
      postalCode: '72135',
      addressCountry: 'US',
    })
    expect(postalAddress('11901 Pinnacle Valley Rd, Little Rock, AR 72223', town)).toMatchObject({
      streetAddress: '11901 Pinnacle Valley Rd',
      addressLocality: 'Little Rock',
      postalCode: '72223',
    })
    expect(postalAddress('Parking lot, 18500 Highway 300, Roland, Arkansas', town)).toMatchObject({
      streetAddress: 'Parking lot, 18500 Highway 300',
      addressLocality: 'Roland',
      addressRegion: 'AR',
      postalCode: '72135',
    })
  })

  test('places a bare street address in Roland, AR 72135', () => {
    expect(postalAddress('14 Pinnacle Valley Rd', town)).toEqual({
      '@type': 'PostalAddress',
      streetAddress: '14 Pinnacle Valley Rd',
      addressLocality: 'Roland',
      addressRegion: 'AR',
      postalCode: '72135',
      addressCountry: 'US',
    })
  })

  test("gives no ZIP to another town's address that does not say it", () => {
    expect(postalAddress('Pinnacle Valley Rd, Little Rock, AR', town)).not.toHaveProperty('postalCode')
  })

  test('gives the town alone when there is no address', () => {
    expect(postalAddress(null, town)).toEqual({
      '@type': 'PostalAddress',
      addressLocality: 'Roland',
      addressRegion: 'AR',
      postalCode: '72135',
      addressCountry: 'US',
    })
  })
})

describe('businessType', () => {
  const type = (category: string, name: string, short_description: string | null = null) =>
    businessType({ category, name, short_description })

  test('follows the business category', () => {
    expect(type('Shopping & Convenience', 'Roland General Store')).toBe('Store')
    expect(type('Professional Services', 'Roland Auto Repair')).toBe('ProfessionalService')
    expect(type('Recreation', 'Pinnacle Fitness')).toBe('SportsActivityLocation')
    expect(type('Business', 'Roland Handyman')).toBe('LocalBusiness')
  })

  test('tells cafés, bakeries, ice-cream shops and bars from restaurants', () => {
    expect(type('Dining & Refreshments', 'Big Rock Coffee', 'Coffee shop & bakery')).toBe('CafeOrCoffeeShop')
    expect(type('Dining & Refreshments', 'Sweet Magnolia Bakery')).toBe('Bakery')
    expect(type('Dining & Refreshments', 'Scoops on 300', 'Hand-dipped ice cream')).toBe('IceCreamShop')
    expect(type('Dining & Refreshments', 'Lakeside Bar & Grill')).toBe('BarOrPub')
    expect(type('Dining & Refreshments', 'Roland Smokehouse BBQ', 'Barbecue plates')).toBe('Restaurant')
  })
})

describe('openingHoursJsonLd', () => {
  test('groups days with the same hours, with closed days at 00:00–00:00 and unlisted days left out', () => {
    const spec = openingHoursJsonLd([
      hours(1, '07:00:00', '17:00:00'),
      hours(2, '07:00:00', '17:00:00'),
      hours(6, '08:00:00', '12:00:00'),
      hours(0, null),
    ])
    expect(spec).toEqual([
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['https://schema.org/Sunday'],
        opens: '00:00',
        closes: '00:00',
      },
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['https://schema.org/Monday', 'https://schema.org/Tuesday'],
        opens: '07:00',
        closes: '17:00',
      },
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['https://schema.org/Saturday'],
        opens: '08:00',
        closes: '12:00',
      },
    ])
  })

  test('keeps split shifts and closings after midnight, and writes a 24-hour day as 00:00–23:59', () => {
    expect(
      openingHoursJsonLd([
        hours(5, '11:00:00', '14:00:00'),
        hours(5, '17:00:00', '02:00:00'),
        hours(3, '00:00:00', '00:00:00'),
      ]),
    ).toEqual([
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['https://schema.org/Wednesday'],
        opens: '00:00',
        closes: '23:59',
      },
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['https://schema.org/Friday'],
        opens: '11:00',
        closes: '14:00',
      },
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['https://schema.org/Friday'],
        opens: '17:00',
        closes: '02:00',
      },
    ])
  })
})

describe('localBusinessJsonLd', () => {
  test('describes the business with its type, address in Roland, phone, image and opening hours', () => {
    const business = makeBusiness({
      name: 'Roland Coffee House',
      category: 'Dining & Refreshments',
      address: '18000 Highway 300, Roland, AR 72135',
      phone: '(501) 555-0101',
      website: 'https://coffee.example',
      hours_detail: [hours(1, '07:00:00', '17:00:00')],
    })
    const data = localBusinessJsonLd(
      business,
      'https://roland.example/business/roland-coffee-house',
      'https://roland.example/files/hero.png',
      town,
    )
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'CafeOrCoffeeShop',
      '@id': 'https://roland.example/business/roland-coffee-house',
      name: 'Roland Coffee House',
      url: 'https://coffee.example',
      telephone: '(501) 555-0101',
      image: 'https://roland.example/files/hero.png',
      address: {
        streetAddress: '18000 Highway 300',
        addressLocality: 'Roland',
        addressRegion: 'AR',
        postalCode: '72135',
        addressCountry: 'US',
      },
      openingHoursSpecification: [{ dayOfWeek: ['https://schema.org/Monday'], opens: '07:00', closes: '17:00' }],
    })
  })

  test('points to its own page without a website, and leaves out what it does not know', () => {
    const data = localBusinessJsonLd(
      makeBusiness({ name: 'Roland Handyman', address: '1 Main St' }),
      'https://roland.example/business/roland-handyman',
      null,
      town,
    )
    expect(data.url).toBe('https://roland.example/business/roland-handyman')
    for (const key of ['telephone', 'image', 'priceRange', 'openingHoursSpecification', 'dateModified'])
      expect(data).not.toHaveProperty(key)
  })

  test('carries dateModified: the day an operator last verified the listing', () => {
    const business = makeBusiness({ name: 'Roland Feed', verified_at: '2026-11-03T15:04:05.123+00:00' })
    expect(localBusinessJsonLd(business, 'https://roland.example/business/roland-feed', null, town).dateModified).toBe(
      '2026-11-03',
    )
  })
})

describe('itemListJsonLd', () => {
  test('numbers the places of a category from 1, in order', () => {
    expect(
      itemListJsonLd('Dining & Refreshments', 'https://roland.example/dining-refreshments', [
        { name: 'Maumelle Smokehouse', url: 'https://roland.example/business/maumelle-smokehouse' },
        { name: 'Lakeside Sweets', url: 'https://roland.example/business/lakeside-sweets' },
      ]),
    ).toEqual({
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      '@id': 'https://roland.example/dining-refreshments',
      name: 'Dining & Refreshments',
      numberOfItems: 2,
      itemListElement: [
        {
          '@type': 'ListItem',
          position: 1,
          name: 'Maumelle Smokehouse',
          url: 'https://roland.example/business/maumelle-smokehouse',
        },
        {
          '@type': 'ListItem',
          position: 2,
          name: 'Lakeside Sweets',
          url: 'https://roland.example/business/lakeside-sweets',
        },
      ],
    })
  })
  test('numbers the places of a later page on from the pages before it', () => {
    const page = itemListJsonLd(
      'Shopping & Convenience',
      'https://roland.example/shopping-convenience/page/2',
      [
        { name: 'Ozark Shop 24', url: 'https://roland.example/business/ozark-shop-24' },
        { name: 'Ozark Shop 25', url: 'https://roland.example/business/ozark-shop-25' },
      ],
      26,
    )
    expect(page).toMatchObject({ '@id': 'https://roland.example/shopping-convenience/page/2', numberOfItems: 2 })
    expect(
      (page.itemListElement as Array<{ position: number; name: string }>).map((item) => [item.position, item.name]),
    ).toEqual([
      [26, 'Ozark Shop 24'],
      [27, 'Ozark Shop 25'],
    ])
  })
})

describe('touristAttractionJsonLd', () => {
  test('gives the attraction its own town in the address', () => {
    const park: Attraction = {
      id: 'pinnacle-mountain-state-park',
      name: 'Pinnacle Mountain State Park',
      category: 'Natural Attractions',
      description: 'The cone-shaped peak that watches over Roland.',
      badge: null,
      rating: 4.9,
      distance: '5 miles',
      image_url: null,
      address: '11901 Pinnacle Valley Rd, Little Rock, AR 72223',
      website: 'https://www.arkansasstateparks.com/parks/pinnacle-mountain-state-park',
      is_featured: true,
      sort_order: 10,
    }
    expect(touristAttractionJsonLd(park, 'https://roland.example/recreation/pinnacle-mountain', town)).toMatchObject({
      '@type': 'TouristAttraction',
      '@id': 'https://roland.example/recreation/pinnacle-mountain',
      name: 'Pinnacle Mountain State Park',
      address: { '@type': 'PostalAddress', addressLocality: 'Little Rock', postalCode: '72223' },
    })
  })
})

describe('eventJsonLd', () => {
  test('places the event in Roland and names the coordinator as organiser', () => {
    const data = eventJsonLd(
      {
        id: '00000000-0000-4000-8000-000000000001',
        slug: 'potluck',
        title: 'Potluck',
        description: null,
        starts_at: '2099-01-16T00:00:00+00:00',
        ends_at: null,
        location: 'Roland Community Center',
        event_type: 'Social',
      },
      'https://roland.example/events',
      town,
    )
    expect(data).toMatchObject({
      '@type': 'Event',
      name: 'Potluck',
      startDate: '2099-01-16T00:00:00+00:00',
      location: { '@type': 'Place', name: 'Roland Community Center', address: { addressLocality: 'Roland' } },
      organizer: { name: 'Dana Whitfield' },
      url: 'https://roland.example/events#potluck',
    })
    expect(data).not.toHaveProperty('endDate')
  })
})

describe('jsonLdText', () => {
  test('cannot close its script element', () => {
    expect(jsonLdText({ name: '</script><script>alert(1)</script>' })).not.toContain('</script>')
  })
})
