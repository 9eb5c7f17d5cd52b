import { describe, expect, test } from 'vitest'
import { categoryIcon, iconHref, iconMarkup, iconSprite, iconSpriteUrl } from './icons.ts'

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

describe('the icon sprite', () => {
  test('holds every icon as a symbol named by the icon, with its shapes', () => {
    const sprite = iconSprite()
    expect(sprite).toContain(`<symbol id="building" viewBox="0 0 24 24">${iconMarkup('building')}</symbol>`)
    expect(sprite).toContain('<symbol id="map-pin" viewBox="0 0 24 24">')
  })

  test('is addressed with a version of its contents, and an icon by its name', () => {
    expect(iconSpriteUrl).toMatch(/^\/icons\.svg\?v=[0-9a-f]+$/)
    expect(iconHref('phone')).toBe(`${iconSpriteUrl}#phone`)
  })
})
