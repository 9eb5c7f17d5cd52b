import { describe, expect, test } from 'vitest'
import type { Page } from '@roland/scripts/catalog/types'
import { fixtureTown, makeCategory } from '../../scripts/test/fixtures/catalog.ts'
import { footerGroups, navigation } from './navigation.ts'
import { firstSentence, homeSections, isOnSite, linkEntries, metaDescription, pageAt } from './pages.ts'

const page = (path: string, fields: Partial<Page> = {}): Page => ({
  path,
  title: path,
  description: null,
  intro: null,
  body: '',
  items: [],
  ...fields,
})

// Every text page published but the garden and the faith page.
const catalog = {
  pages: ['/', '/about', '/about/history', '/community', '/community/centers', '/community/emergency', '/nearby'].map(
    (path) => page(path),
  ),
}
const categories = ['centers', 'emergency', 'faith', 'education', 'history'].map((slug) =>
  makeCategory({ slug, name: slug }),
)
const onSite = (href: string) => isOnSite(catalog, href)

describe('pageAt', () => {
  test('gives the published page at a URL, or null', () => {
    expect(pageAt(catalog, '/nearby')?.path).toBe('/nearby')
    expect(pageAt(catalog, '/community/garden')).toBeNull()
  })
})

describe('isOnSite', () => {
  test('leaves out a text page without a published row, and keeps every other link', () => {
    expect(isOnSite(catalog, '/community/garden')).toBe(false)
    expect(isOnSite(catalog, '/community/faith/')).toBe(false)
    expect(isOnSite(catalog, '/nearby')).toBe(true)
    expect(isOnSite(catalog, '/dining-refreshments')).toBe(true)
    expect(isOnSite(catalog, '/business/roland-coffee-house')).toBe(true)
  })
})

describe('the navigation and the footer', () => {
  test('leave out the links to unpublished pages', () => {
    const withoutNearby = { pages: catalog.pages.filter((p) => p.path !== '/nearby') }
    const links = (pages: typeof catalog) =>
      navigation(categories, fixtureTown(), (href) => isOnSite(pages, href)).flatMap((item) => [
        item.href,
        ...(item.children ?? []).map((child) => child.href),
      ])
    expect(links(catalog)).toContain('/nearby')
    expect(links(withoutNearby)).not.toContain('/nearby')
    expect(links(withoutNearby)).toContain('/about')
    const footer = footerGroups(categories, onSite).flatMap((group) => group.links.map((link) => link.href))
    expect(footer).not.toContain('/community/garden')
    expect(footer).not.toContain('/community/faith')
    expect(footer).not.toContain('/about/education')
    expect(footer).toContain('/about/history')
    expect(footer).toContain('/community/centers')
  })
})

describe('linkEntries', () => {
  test('keeps the entries that lead to a page the site builds', () => {
    const entries = [
      { name: 'Garden', website: '/community/garden' },
      { name: 'Nearby', website: '/nearby' },
      { name: 'Elsewhere', website: 'https://example.org' },
      { name: 'Nowhere' },
    ]
    expect(linkEntries(catalog, entries).map((entry) => entry.name)).toEqual(['Nearby'])
  })
})

describe('homeSections', () => {
  test("names the home page's entries by where its layout shows them", () => {
    const names = ['teaser', 'featured', 'recreation', 'community', 'card', 'a', 'b', 'c', 'd']
    const sections = homeSections(page('/', { items: names.map((name) => ({ name })) }))
    expect(sections.gardenTeaser?.name).toBe('teaser')
    expect(sections.gardenCard?.name).toBe('card')
    expect(sections.figures.map((figure) => figure.name)).toEqual(['a', 'b', 'c', 'd'])
  })
})

describe('metaDescription', () => {
  test('is the description, else the intro, else the title', () => {
    expect(metaDescription(page('/x', { description: 'D', intro: 'I' }))).toBe('D')
    expect(metaDescription(page('/x', { intro: 'I' }))).toBe('I')
    expect(metaDescription(page('/x'))).toBe('/x')
  })
})

describe('firstSentence', () => {
  test('takes the text up to the end of its first sentence', () => {
    expect(firstSentence('Welcome to Roland, where nature meets community. Between the lake and the hills.')).toBe(
      'Welcome to Roland, where nature meets community.',
    )
  })

  test('keeps a dot inside a word, and the whole text when it has no sentence end', () => {
    expect(firstSentence('Visit St.Mary’s hall! It is open.')).toBe('Visit St.Mary’s hall!')
    expect(firstSentence('  Welcome to Pine Hollow  ')).toBe('Welcome to Pine Hollow')
  })
})
