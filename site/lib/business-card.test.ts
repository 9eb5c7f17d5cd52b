import { describe, expect, test } from 'vitest'
import { fixtureTown, makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import { toBusinessCard } from './business-card.ts'

const town = fixtureTown()

describe('toBusinessCard', () => {
  test('carries the badge, the description with its fallback and the card image', () => {
    const card = toBusinessCard(makeBusiness({ name: 'Odd Jobs', category: 'Business', phone: '(501) 555-0110' }), town)
    expect(card).toMatchObject({
      slug: 'odd-jobs',
      badge: 'Local Business',
      description: 'Odd Jobs - Local business in Roland, Arkansas.',
      phone: '(501) 555-0110',
      image: null,
    })
  })
})
