import { describe, expect, test } from 'vitest'
import { makeCategory } from '../../scripts/test/fixtures/catalog.ts'
import { serviceCards } from './community.ts'

describe('serviceCards', () => {
  test('leads to the four community pages of SPEC §2', () => {
    expect(serviceCards({ categories: [] }).map((card) => card.href)).toEqual([
      '/community/centers',
      '/community/emergency',
      '/community/faith',
      '/about/education',
    ])
  })

  test('takes name, description, icon and colour from the category', () => {
    const faith = makeCategory({
      slug: 'faith',
      name: 'Faith Communities',
      description: 'Churches',
      icon_name: 'church',
      color: '#6d28d9',
    })
    expect(serviceCards({ categories: [faith] })[2]).toEqual({
      href: '/community/faith',
      title: 'Faith Communities',
      text: 'Churches',
      icon: 'church',
      color: '#6d28d9',
    })
  })
})
