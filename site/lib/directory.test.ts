import { describe, expect, test } from 'vitest'
import { makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import {
  compactHours,
  directoryIsSplit,
  directoryPageBudget,
  directoryPages,
  directoryPartPath,
  directorySections,
  weightOf,
  type DirectoryPage,
} from './directory.ts'

const day = (day_of_week: number, opens_at: string | null, closes_at: string | null, is_closed = false) => ({
  day_of_week,
  opens_at,
  closes_at,
  is_closed,
})

describe('compactHours', () => {
  test('runs the days with the same hours together, Monday first', () => {
    const week = [1, 2, 3, 4, 5].map((d) => day(d, '07:00:00', '18:00:00'))
    week.push(day(6, '08:00:00', '14:00:00'), day(0, null, null, true))
    expect(compactHours({ hours: null, hours_detail: week })).toBe(
      'Mon–Fri 7:00 AM – 6:00 PM; Sat 8:00 AM – 2:00 PM; Sun Closed',
    )
  })

  test('leaves out the days it knows nothing of, and falls back to the hours line, then to "Hours not listed"', () => {
    expect(compactHours({ hours: null, hours_detail: [day(3, '09:00', '12:00')] })).toBe('Wed 9:00 AM – 12:00 PM')
    expect(compactHours({ hours: ' Mon-Sat 6am-2pm ', hours_detail: [] })).toBe('Mon-Sat 6am-2pm')
    expect(compactHours({ hours: null, hours_detail: [] })).toBe('Hours not listed')
  })
})

describe('directorySections', () => {
  const catalog = {
    businesses: [
      makeBusiness({ name: 'Zed Diner', category: 'Dining & Refreshments', phone: '(501) 555-0101' }),
      makeBusiness({ name: 'Able Cafe', category: 'Dining & Refreshments', address: '1 Main St' }),
      makeBusiness({ name: 'Closed Shop', category: 'Shopping', is_active: false }),
      makeBusiness({ name: 'Bolt Hardware', category: 'Shopping' }),
      makeBusiness({ name: 'Food Hut', category: 'Dining and Refreshments' }),
    ],
  }

  test('groups the active businesses by category, each by name, with a slug a page can take', () => {
    const sections = directorySections(catalog)
    expect(sections.map((s) => [s.category, s.slug, s.entries.map((e) => e.name)])).toEqual([
      ['Dining & Refreshments', 'dining-and-refreshments', ['Able Cafe', 'Zed Diner']],
      ['Dining and Refreshments', 'dining-and-refreshments-2', ['Food Hut']],
      ['Shopping', 'shopping', ['Bolt Hardware']],
    ])
    expect(sections[0]!.entries[1]).toMatchObject({ phone: '(501) 555-0101', address: null })
  })

  test('is one page up to its budget, and past it a page per category, a heavy one in parts', () => {
    const sections = directorySections(catalog)
    expect(directoryIsSplit(sections, 10_000)).toBe(false)
    expect(directoryIsSplit(sections, 60)).toBe(true)
    // A budget smaller than any entry: one entry a part, never none.
    const pages = directoryPages(sections, 1)
    expect(pages.map((p) => [p.path, p.part, p.parts, p.section.entries.map((e) => e.name)])).toEqual([
      ['dining-and-refreshments', 1, 2, ['Able Cafe']],
      ['dining-and-refreshments/2', 2, 2, ['Zed Diner']],
      ['dining-and-refreshments-2', 1, 1, ['Food Hut']],
      ['shopping', 1, 1, ['Bolt Hardware']],
    ])
  })
})

describe('directoryPages', () => {
  const shops = Array.from({ length: 2_000 }, (_, index) =>
    makeBusiness({
      slug: `shop-${index}`,
      name: `Shop ${index} of ${['Pine', 'Oak', 'Elm', 'Ash'][index % 4]} Street`,
      category: 'Shopping',
      phone: `(501) 555-${String(index).padStart(4, '0')}`,
      address: `${100 + index} Highway 300, Roland, AR 72135`,
    }),
  )
  const weight = (page: DirectoryPage) => weightOf(page.section.entries)

  test('cuts a long category into parts within the budget, each as full as it fits, every business once in order', () => {
    const sections = directorySections({ businesses: shops })
    const pages = directoryPages(sections)
    expect(pages.length).toBeGreaterThan(5)
    expect(pages.map((p) => p.path).slice(0, 3)).toEqual(['shopping', 'shopping/2', 'shopping/3'])
    expect(pages.every((p) => p.parts === pages.length)).toBe(true)
    expect(pages.filter((p) => weight(p) > directoryPageBudget).map((p) => p.path)).toEqual([])
    // Full: one more entry would not fit (the last part aside).
    for (const [index, page] of pages.slice(0, -1).entries()) {
      const next = pages[index + 1]!.section.entries[0]!
      const fuller = { ...page, section: { ...page.section, entries: [...page.section.entries, next] } }
      expect(weight(fuller), page.path).toBeGreaterThan(directoryPageBudget)
    }
    expect(pages.flatMap((p) => p.section.entries.map((e) => e.slug))).toEqual(sections[0]!.entries.map((e) => e.slug))
  })

  test("a later catalog's directory is cut as if weighed afresh, though it was weighed before with one business different", () => {
    const shopsAndDiners = (renamed: string) => [
      ...shops.map((shop, index) => (index === 700 ? { ...shop, name: renamed } : shop)),
      ...shops.slice(0, 300).map((shop) => ({ ...shop, slug: `diner-${shop.slug}`, category: 'Dining' })),
    ]
    const cut = (businesses: ReturnType<typeof shopsAndDiners>) => {
      const sections = directorySections({ businesses })
      return {
        split: directoryIsSplit(sections),
        pages: directoryPages(sections).map((p) => [p.path, p.section.entries]),
      }
    }
    // This process's builds so far weighed the catalog before the change (what a rebuild's process
    // remembers), then the catalog after it; then it forgets them all and weighs that catalog anew.
    cut(shopsAndDiners('Shop 700 of Ash Street'))
    const after = shopsAndDiners(`Shop 700, renamed: ${'a long name '.repeat(40)}`)
    const remembered = cut(after)
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('roland.site.directory-weighed')]
    expect(remembered).toEqual(cut(after))
    expect(remembered.pages.length).toBeGreaterThan(6)
  })

  test('gives the path of each part: the category, then its number from the second on', () => {
    expect([1, 2, 3].map((part) => directoryPartPath('shopping', part))).toEqual([
      '/directory/shopping',
      '/directory/shopping/2',
      '/directory/shopping/3',
    ])
  })
})
