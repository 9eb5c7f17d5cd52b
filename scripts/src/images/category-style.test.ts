import { describe, expect, test } from 'vitest'
import { categoryStyle } from './category-style.ts'

const categories = [
  { name: 'Dining & Refreshments', icon_name: 'utensils', color: '#B45309', category_type: 'business' as const },
  { name: 'Shopping & Convenience', icon_name: 'shopping-bag', color: '#047857', category_type: 'business' as const },
  { name: 'Broken', icon_name: '', color: 'orange', category_type: 'business' as const },
]

describe('categoryStyle', () => {
  test("uses the location category's colour and icon for a business category", () => {
    expect(categoryStyle('Dining & Refreshments', categories)).toEqual({
      category: 'Dining & Refreshments',
      color: '#b45309',
      iconName: 'utensils',
    })
  })

  test('matches the category name regardless of case and spaces', () => {
    expect(categoryStyle(' shopping & convenience ', categories).iconName).toBe('shopping-bag')
  })

  test('gives Recreation, which has no location category, a sailboat in lake teal', () => {
    expect(categoryStyle('Recreation', categories)).toMatchObject({ color: '#0f766e', iconName: 'sailboat' })
  })

  test('gives Business and unknown categories the building icon on burgundy', () => {
    expect(categoryStyle('Business', categories)).toMatchObject({ color: '#9f1239', iconName: 'building' })
    expect(categoryStyle('Llama Grooming', categories)).toMatchObject({ color: '#9f1239', iconName: 'building' })
  })

  test('falls back to the defaults when a category row has no usable colour or icon', () => {
    expect(categoryStyle('Broken', categories)).toMatchObject({ color: '#9f1239', iconName: 'building' })
  })
})
