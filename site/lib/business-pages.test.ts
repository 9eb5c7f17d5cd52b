import { describe, expect, test } from 'vitest'
import {
  businessesPerPage,
  businessListPage,
  businessListPath,
  businessPageCount,
  itemsPerPage,
  laterBusinessListPaths,
  laterPagePaths,
  listPage,
  listPages,
  pageCount,
  pageLinks,
  pageParam,
  pagedPath,
  type PageLink,
} from './business-pages.ts'

const numbers = (count: number) => Array.from({ length: count }, (_, i) => i + 1)
const business = (page: number) => businessListPath(page)
const shown = (links: PageLink[]) =>
  links.map((link) => (link.kind === 'gap' ? '…' : link.current ? `[${link.page}]` : link.page))

describe('pagedPath and pageParam', () => {
  test('give a list its own address for the first page and {base}/page/N for the others', () => {
    expect(pagedPath('/dining-refreshments', 1)).toBe('/dining-refreshments')
    expect(pagedPath('/dining-refreshments', 2)).toBe('/dining-refreshments/page/2')
    expect(pagedPath('/businesses', 417)).toBe('/businesses/page/417')
  })

  test('make the rest parameter that, after the base, gives the same path', () => {
    expect(pageParam(1)).toBeUndefined()
    expect(pageParam(2)).toBe('page/2')
    for (const page of [1, 2, 3, 40]) {
      const param = pageParam(page)
      expect(`/shopping-convenience${param ? `/${param}` : ''}`).toBe(pagedPath('/shopping-convenience', page))
    }
  })
})

describe('businessListPath', () => {
  test('is /businesses for the first page and /businesses/page/N for the others', () => {
    expect(businessListPath(1)).toBe('/businesses')
    expect(businessListPath(2)).toBe('/businesses/page/2')
    expect(businessListPath(417)).toBe('/businesses/page/417')
  })
})

describe('businessPageCount and laterBusinessListPaths', () => {
  test('count whole pages, and one page for an empty list', () => {
    expect(businessPageCount(0)).toBe(1)
    expect(businessPageCount(businessesPerPage)).toBe(1)
    expect(businessPageCount(businessesPerPage + 1)).toBe(2)
    expect(businessPageCount(10_000)).toBe(Math.ceil(10_000 / businessesPerPage))
  })

  test('list the pages after the first', () => {
    expect(laterBusinessListPaths(10, 4)).toEqual(['/businesses/page/2', '/businesses/page/3'])
    expect(laterBusinessListPaths(4, 4)).toEqual([])
  })
})

describe('pageCount and laterPagePaths', () => {
  test('count the pages of any list, 24 items a page unless told', () => {
    expect(itemsPerPage).toBe(24)
    expect(businessesPerPage).toBe(itemsPerPage)
    expect(pageCount(0)).toBe(1)
    expect(pageCount(24)).toBe(1)
    expect(pageCount(25)).toBe(2)
    expect(pageCount(10, 4)).toBe(3)
  })

  test('list the pages after the first of the list at a base', () => {
    expect(laterPagePaths('/shopping-convenience', 82)).toEqual([
      '/shopping-convenience/page/2',
      '/shopping-convenience/page/3',
      '/shopping-convenience/page/4',
    ])
    expect(laterPagePaths('/pet-services', 0)).toEqual([])
  })
})

describe('listPage and listPages', () => {
  test('cut any list into its pages, every item once and in order', () => {
    const pages = listPages(numbers(10), 4)
    expect(pages.map((p) => [p.page, p.items])).toEqual([
      [1, [1, 2, 3, 4]],
      [2, [5, 6, 7, 8]],
      [3, [9, 10]],
    ])
    expect(pages.map((p) => p.pageCount)).toEqual([3, 3, 3])
    expect(listPages([])).toEqual([{ page: 1, pageCount: 1, total: 0, first: 0, last: 0, items: [] }])
  })

  test('name the list in the error for a page it does not have', () => {
    expect(() => listPage(numbers(3), 2, 4, 'Dining & Refreshments')).toThrow(
      'There is no page 2 of Dining & Refreshments: it has 1 page(s).',
    )
    expect(() => listPage(numbers(3), 2, 4)).toThrow('There is no page 2 of the list: it has 1 page(s).')
  })
})

describe('businessListPage', () => {
  test('cuts the list into pages that hold every business exactly once, in order', () => {
    const all = numbers(10)
    const pages = [1, 2, 3].map((page) => businessListPage(all, page, 4))
    expect(pages.map((p) => p.items)).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10],
    ])
    expect(pages.map((p) => [p.first, p.last, p.total, p.pageCount])).toEqual([
      [1, 4, 10, 3],
      [5, 8, 10, 3],
      [9, 10, 10, 3],
    ])
  })

  test('gives an empty list its one empty page', () => {
    expect(businessListPage([], 1)).toMatchObject({ page: 1, pageCount: 1, first: 0, last: 0, items: [] })
  })

  test('refuses a page the list does not have', () => {
    expect(() => businessListPage(numbers(10), 4, 4)).toThrow(
      'There is no page 4 of the businesses list: it has 3 page(s).',
    )
    expect(() => businessListPage(numbers(10), 0, 4)).toThrow(RangeError)
    expect(() => businessListPage(numbers(10), 1.5, 4)).toThrow(RangeError)
  })
})

describe('pageLinks', () => {
  test('links every page of a short list', () => {
    expect(shown(pageLinks(2, 5, business))).toEqual([1, '[2]', 3, 4, 5])
  })

  test('keeps the first and last pages and two either side of the current one, with gaps', () => {
    expect(shown(pageLinks(1, 417, business))).toEqual(['[1]', 2, 3, '…', 417])
    expect(shown(pageLinks(200, 417, business))).toEqual([1, '…', 198, 199, '[200]', 201, 202, '…', 417])
    expect(shown(pageLinks(417, 417, business))).toEqual([1, '…', 415, 416, '[417]'])
  })

  test('shows a lone page left out instead of a gap standing for it', () => {
    expect(shown(pageLinks(5, 10, business))).toEqual([1, 2, 3, 4, '[5]', 6, 7, '…', 10])
  })

  test('never makes more than eleven links', () => {
    for (let current = 1; current <= 60; current++)
      expect(pageLinks(current, 60, business).length).toBeLessThanOrEqual(11)
  })

  test('links each page to its path', () => {
    expect(pageLinks(1, 2, businessListPath)).toEqual([
      { kind: 'page', page: 1, href: '/businesses', current: true },
      { kind: 'page', page: 2, href: '/businesses/page/2', current: false },
    ])
  })

  test('links the pages of any list by its path function, the filled-in gap included', () => {
    const links = pageLinks(4, 7, (page) => pagedPath('/shopping-convenience', page))
    expect(links.filter((link) => link.kind === 'page').map((link) => link.href)).toEqual([
      '/shopping-convenience',
      '/shopping-convenience/page/2',
      '/shopping-convenience/page/3',
      '/shopping-convenience/page/4',
      '/shopping-convenience/page/5',
      '/shopping-convenience/page/6',
      '/shopping-convenience/page/7',
    ])
    expect(shown(pageLinks(1, 9, (page) => `/x/${page}`))).toEqual(['[1]', 2, 3, '…', 9])
  })
})
