import { describe, expect, test } from 'vitest'
import { categoryIcon, iconMarkup } from './icons.ts'

describe('categoryIcon', () => {
  test('uses the icon named by every seeded category', () => {
    const seeded = [
      'utensils',
      'shopping-bag',
      'briefcase',
      'trophy',
      'mountain',
      'star',
      'users',
      'shield',
      'church',
      'graduation-cap',
      'landmark',
    ]
    for (const name of seeded) expect(categoryIcon(name)).toBe(name)
  })

  test('falls back to a building for an unknown or missing icon name', () => {
    expect(categoryIcon('spaceship')).toBe('building')
    expect(categoryIcon(null)).toBe('building')
    expect(categoryIcon('toString')).toBe('building')
  })
})

describe('iconMarkup', () => {
  test('gives SVG shapes for an icon', () => {
    expect(iconMarkup('building')).toMatch(/^<(rect|path|circle)/)
  })
})
