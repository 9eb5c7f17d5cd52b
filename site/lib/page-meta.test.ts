import { describe, expect, test } from 'vitest'
import { categoryPageMeta } from './page-meta.ts'

describe('categoryPageMeta', () => {
  test('titles a business category by its name and describes it by its description', () => {
    expect(categoryPageMeta({ name: 'Dining & Refreshments', description: 'Coffee, home cooking and sweets.', category_type: 'business' })).toEqual({
      title: 'Dining & Refreshments',
      description: 'Coffee, home cooking and sweets.',
    })
  })

  test('describes a business category without a description by its name', () => {
    expect(categoryPageMeta({ name: 'Pet Services', description: null, category_type: 'business' }).description).toBe('Pet Services in Roland, Arkansas.')
  })

  test('sets the list of another kind of category apart from its guide page', () => {
    expect(categoryPageMeta({ name: 'Natural Attractions', description: 'Pinnacle Mountain and Lake Maumelle.', category_type: 'recreation' })).toEqual({
      title: 'Natural Attractions Locations',
      description: 'Locations listed under Natural Attractions in Roland, Arkansas: Pinnacle Mountain and Lake Maumelle.',
    })
    expect(categoryPageMeta({ name: 'History', description: '  ', category_type: 'about' }).description).toBe('Locations listed under History in Roland, Arkansas.')
  })
})
