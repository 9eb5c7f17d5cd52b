import { describe, expect, test } from 'vitest'
import { businessListPageMeta, categoryPageMeta, pagedTitle } from './page-meta.ts'
import { fixtureTown } from '../../scripts/test/fixtures/catalog.ts'

const town = fixtureTown()

describe('categoryPageMeta', () => {
  test('titles a business category by its name and describes it by its description', () => {
    expect(
      categoryPageMeta(
        {
          name: 'Dining & Refreshments',
          description: 'Coffee, home cooking and sweets.',
          category_type: 'business',
        },
        town,
      ),
    ).toEqual({
      title: 'Dining & Refreshments',
      description: 'Coffee, home cooking and sweets.',
    })
  })

  test('describes a business category without a description by its name', () => {
    expect(
      categoryPageMeta({ name: 'Pet Services', description: null, category_type: 'business' }, town).description,
    ).toBe('Pet Services in Roland, Arkansas.')
  })

  test('sets the list of another kind of category apart from its guide page', () => {
    expect(
      categoryPageMeta(
        {
          name: 'Natural Attractions',
          description: 'Pinnacle Mountain and Lake Maumelle.',
          category_type: 'recreation',
        },
        town,
      ),
    ).toEqual({
      title: 'Natural Attractions Locations',
      description:
        'Locations listed under Natural Attractions in Roland, Arkansas: Pinnacle Mountain and Lake Maumelle.',
    })
    expect(categoryPageMeta({ name: 'History', description: '  ', category_type: 'about' }, town).description).toBe(
      'Locations listed under History in Roland, Arkansas.',
    )
  })
})

describe('categoryPageMeta on a page after the first', () => {
  const dining = {
    name: 'Dining & Refreshments',
    description: 'Coffee, home cooking and sweets.',
    category_type: 'business',
  } as const
  const second = { page: 2, pageCount: 5, first: 26, last: 49, total: 110 }

  test('keeps the first page as it is', () => {
    expect(categoryPageMeta(dining, town, { ...second, page: 1, first: 1, last: 25 })).toEqual(
      categoryPageMeta(dining, town),
    )
  })

  test('numbers the title and says which locations the page shows', () => {
    expect(categoryPageMeta(dining, town, second)).toEqual({
      title: 'Dining & Refreshments – Page 2 of 5',
      description: 'Dining & Refreshments in Roland, Arkansas, 26 to 49 of 110: addresses, phone numbers and websites.',
    })
    expect(
      categoryPageMeta({ name: 'Faith Communities', description: null, category_type: 'community' }, town, second),
    ).toEqual({
      title: 'Faith Communities Locations – Page 2 of 5',
      description:
        'Locations listed under Faith Communities in Roland, Arkansas, 26 to 49 of 110: addresses, phone numbers and websites.',
    })
  })

  test('gives every page of a category a title and a description of its own', () => {
    const pages = [1, 2, 3].map((page) =>
      categoryPageMeta(dining, town, { page, pageCount: 3, first: page * 24 - 23, last: page * 24, total: 72 }),
    )
    expect(new Set(pages.map((p) => p.title)).size).toBe(3)
    expect(new Set(pages.map((p) => p.description)).size).toBe(3)
  })
})

describe('pagedTitle and businessListPageMeta', () => {
  test('number the pages after the first', () => {
    expect(pagedTitle('Local Businesses', 1, 4)).toBe('Local Businesses')
    expect(pagedTitle('Local Businesses', 3, 4)).toBe('Local Businesses – Page 3 of 4')
  })

  test('keep the texts of the businesses list', () => {
    expect(businessListPageMeta({ page: 1, pageCount: 4, first: 1, last: 24, total: 90 }, town)).toEqual({
      title: 'Local Businesses',
      description:
        'Every local business in Roland, Arkansas: dining, shopping, professional services and recreation, with addresses, phone numbers and hours.',
    })
    expect(businessListPageMeta({ page: 3, pageCount: 4, first: 49, last: 72, total: 90 }, town)).toEqual({
      title: 'Local Businesses – Page 3 of 4',
      description: 'Local businesses in Roland, Arkansas, 49 to 72 of 90: addresses, phone numbers and hours.',
    })
  })
})
