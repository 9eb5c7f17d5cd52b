import { describe, expect, test } from 'vitest'
import { fixtureCatalog, makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import { recreationBusinesses } from './recreation.ts'

describe('recreationBusinesses', () => {
  const catalog = (businesses: ReturnType<typeof makeBusiness>[]) => ({ ...fixtureCatalog(), businesses })

  test('shows the featured recreation businesses first, then the others by name, up to the limit', () => {
    const { shown, count } = recreationBusinesses(
      catalog([
        makeBusiness({ name: 'Zephyr Marina', category: 'Recreation', is_featured: true }),
        makeBusiness({ name: 'Bluff Outfitters', category: 'Recreation' }),
        makeBusiness({ name: 'Anchor Gym', category: 'Recreation' }),
        makeBusiness({ name: 'Cafe', category: 'Dining & Refreshments' }),
        makeBusiness({ name: 'Closed Climbing', category: 'Recreation', is_active: false }),
      ]),
      2,
    )
    expect(shown.map((b) => b.name)).toEqual(['Zephyr Marina', 'Anchor Gym'])
    expect(count).toBe(3)
  })

  test('links to the businesses list filtered to Recreation, where every one of them is', () => {
    expect(recreationBusinesses(catalog([])).allHref).toBe('/businesses?category=Recreation')
  })
})
