import { describe, expect, test } from 'vitest'
import { makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import { eventJsonLd, jsonLdText, localBusinessJsonLd } from './structured-data.ts'

describe('localBusinessJsonLd', () => {
  test('describes the business with its address in Roland and its opening hours', () => {
    const business = makeBusiness({
      name: 'Roland Coffee House',
      address: '18000 Highway 300',
      phone: '(501) 555-0101',
      hours_detail: [
        { id: '00000000-0000-4000-8000-0000000000a1', business_id: '00000000-0000-4000-8000-0000000000a2', day_of_week: 1, opens_at: '07:00:00', closes_at: '17:00:00', is_closed: false },
      ],
    })
    const data = localBusinessJsonLd(business, 'https://roland.example/business/roland-coffee-house', null)
    expect(data).toMatchObject({
      '@type': 'LocalBusiness',
      name: 'Roland Coffee House',
      telephone: '(501) 555-0101',
      address: { streetAddress: '18000 Highway 300', addressLocality: 'Roland', postalCode: '72135' },
      openingHoursSpecification: [{ dayOfWeek: 'https://schema.org/Monday', opens: '07:00', closes: '17:00' }],
    })
  })
})

describe('eventJsonLd', () => {
  test('names the coordinator as organiser', () => {
    const data = eventJsonLd(
      { id: '00000000-0000-4000-8000-000000000001', slug: 'potluck', title: 'Potluck', description: null, starts_at: '2099-01-16T00:00:00+00:00', ends_at: null, location: 'Roland Community Center', event_type: 'Social' },
      'https://roland.example/events',
    )
    expect(data).toMatchObject({ '@type': 'Event', name: 'Potluck', organizer: { name: 'Dana Whitfield' }, url: 'https://roland.example/events#potluck' })
  })
})

describe('jsonLdText', () => {
  test('cannot close its script element', () => {
    expect(jsonLdText({ name: '</script><script>alert(1)</script>' })).not.toContain('</script>')
  })
})
