import { describe, expect, test } from 'vitest'
import type { Attraction, CommunityEvent, Page } from '@roland/scripts/catalog/types'
import { fixtureTown, makeBusiness, makeCategory } from '../../scripts/test/fixtures/catalog.ts'
import { inCatalogOrder } from './catalog-order.ts'

const town = fixtureTown()

const attraction = (id: string, sort_order: number) => ({ id, name: id, sort_order }) as Attraction
const event = (slug: string, starts_at: string) => ({ slug, starts_at }) as CommunityEvent
const page = (path: string) => ({ path }) as Page

describe('inCatalogOrder', () => {
  test('orders businesses by name, categories and attractions by sort order, events by start, pages by path', () => {
    const ordered = inCatalogOrder({
      town,
      businesses: [makeBusiness({ name: 'Zed' }), makeBusiness({ name: 'alpha' })],
      categories: [
        makeCategory({ slug: 'b', name: 'B', sort_order: 20 }),
        makeCategory({ slug: 'a', name: 'A', sort_order: 10 }),
      ],
      attractions: [attraction('arboretum', 30), attraction('pinnacle', 10), attraction('lake', 20)],
      events: [event('later', '2099-02-10T20:00:00Z'), event('sooner', '2099-01-16T00:00:00Z')],
      pages: [page('/nearby'), page('/'), page('/about')],
      alerts: [],
    })
    expect(ordered.businesses.map((b) => b.name)).toEqual(['alpha', 'Zed'])
    expect(ordered.categories.map((c) => c.slug)).toEqual(['a', 'b'])
    expect(ordered.attractions.map((a) => a.id)).toEqual(['pinnacle', 'lake', 'arboretum'])
    expect(ordered.events.map((e) => e.slug)).toEqual(['sooner', 'later'])
    expect(ordered.pages.map((p) => p.path)).toEqual(['/', '/about', '/nearby'])
  })
})
