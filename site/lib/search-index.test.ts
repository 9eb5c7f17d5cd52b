import { describe, expect, test } from 'vitest'
import { allBusinesses } from '@roland/scripts/catalog/queries'
import { WordKeys } from '@roland/scripts/search/text'
import { fixtureCatalog, fixtureTown, makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import { toBusinessCard } from './business-card.ts'
import { filterBusinesses } from './business-filter.ts'
import { buildSearchIndex, searchIndexCard, toSearchIndexEntry, type SearchIndexFiles } from './search-index.ts'
import { parseSearchManifest, searchFileNames, shardedSearch } from './search-shards.ts'

const wordKeys = new WordKeys()

const town = fixtureTown()

const photo = {
  id: '00000000-0000-4000-8000-000000000901',
  business_id: '00000000-0000-4000-8000-000000000900',
  image_url: '/files/business-images/coffee.png',
  alt_text: 'The porch',
  image_type: 'hero' as const,
  is_primary: true,
  sort_order: 0,
  metadata: {},
  width: null,
  height: null,
  placeholder: null,
  variants: [],
}
const coffee = makeBusiness({
  name: 'Roland Coffee House',
  category: 'Dining & Refreshments',
  short_description: 'Fresh coffee',
  full_description: 'Roasted in small batches.',
  address: '18000 Highway 300',
  phone: '(501) 555-0101',
  website: 'https://coffee.example',
  hours: 'Mon-Sat 6am-2pm',
  is_featured: true,
  rating: 4.8,
  images: [photo],
})
const businesses = [...allBusinesses(fixtureCatalog()), coffee, makeBusiness({ name: 'Blank', short_description: '' })]

describe('toSearchIndexEntry', () => {
  test('keeps what a card shows, what the filter reads and what the business is, and nothing else', () => {
    const { what, ...entry } = toSearchIndexEntry(coffee, wordKeys)
    expect(what).toEqual(expect.arrayContaining(['cafe', 'coffee', 'espresso']))
    expect(entry).toEqual({
      slug: 'roland-coffee-house',
      name: 'Roland Coffee House',
      category: 'Dining & Refreshments',
      short_description: 'Fresh coffee',
      full_description: 'Roasted in small batches.',
      address: '18000 Highway 300',
      phone: '(501) 555-0101',
      hours: 'Mon-Sat 6am-2pm',
      is_featured: true,
      image: { url: '/files/business-images/coffee.png', alt: 'The porch', generated: false },
    })
  })

  test('leaves out empty fields and the featured flag of a business that is not featured', () => {
    expect(toSearchIndexEntry(makeBusiness({ name: 'Odd Jobs', short_description: '' }), wordKeys)).toEqual({
      slug: 'odd-jobs',
      name: 'Odd Jobs',
      category: 'Business',
    })
  })
})

describe('searchIndexCard', () => {
  test('makes the same card as the static list does', () => {
    for (const business of businesses) {
      const card = toBusinessCard(business, town)
      expect(searchIndexCard(toSearchIndexEntry(business, wordKeys), town), business.name).toEqual({
        ...card,
        short_description: card.short_description || null,
        full_description: card.full_description || null,
      })
    }
  })
})

/** Texts that put the index's cases to work: words, pairs of words, other spaces, case, accents. */
const tricky = [
  makeBusiness({ name: 'Hickory  Pit', category: 'Dining & Refreshments', full_description: 'Smoked\tover hickory.' }),
  makeBusiness({ name: 'ÉCOLE Café', short_description: 'Crème brûlée, coffee and tea', full_description: '' }),
  makeBusiness({ name: 'Bait & Tackle', category: 'Shopping', short_description: ' live bait \n and tackle ' }),
  makeBusiness({ name: 'A', short_description: 'a b c d e f', full_description: 'b  c' }),
  ...Array.from({ length: 40 }, (_, i) =>
    makeBusiness({
      name: `Roland Shop ${i + 1}`,
      category: i % 3 === 0 ? 'Shopping' : 'Business',
      short_description: i % 2 === 0 ? 'Fresh coffee, pastries and breakfast.' : 'Tools, bait and ice.',
      full_description: i % 5 === 0 ? `Shop number ${i + 1} of the valley` : null,
    }),
  ),
]
const catalog = [...businesses, ...tricky]

/** Every search worth trying on a list: each word, the start of each, pairs, phrases and misses. */
function searchesOf(list: typeof catalog): string[] {
  const searches = new Set(['', ' ', 'zzz', 'b  c', 'smoked\tover', 'bait \n and', 'a b c', 'e, c', '&', 'É', 'é'])
  for (const business of list) {
    for (const field of [business.name, business.short_description, business.full_description]) {
      if (!field) continue
      const words = field.split(/\s+/).filter(Boolean)
      words.forEach((word, i) => {
        searches.add(word).add(word.slice(0, 1)).add(word.slice(0, 2)).add(word.slice(1, 4)).add(word.slice(-3))
        if (words[i + 1]) searches.add(`${word.slice(-2)} ${words[i + 1]!.slice(0, 3)}`)
        if (words[i + 2]) searches.add(`${word} ${words[i + 1]} ${words[i + 2]}`.toUpperCase())
      })
    }
  }
  return [...searches]
}

/** Searches an index as the page does, reading its files from the map the build made. */
function searchOf(index: SearchIndexFiles) {
  const manifest = parseSearchManifest(JSON.parse(JSON.stringify(index.manifest)))
  return shardedSearch(manifest, async (name) => {
    const cards = index.cardFiles.get(name)
    if (cards) return cards.map((entry) => `card of ${entry.slug}`)
    if (!index.files.has(name)) throw new Error(`the index has no file ${name}`)
    return JSON.parse(index.files.get(name)!)
  })
}

const renderCard = (entry: { slug: string }) => `card of ${entry.slug}`

describe('the search index', () => {
  const entries = catalog.map((business) => toSearchIndexEntry(business, wordKeys))
  const split = { inlineLimit: 0, cardsPerFile: 3, textsPerFile: 7 }

  test.each([
    ['split into files', split],
    ['in one file', { ...split, inlineLimit: 1000 }],
  ])(
    'finds first what filterBusinesses finds, %s, then what the matcher adds, and never asks for a file it lacks',
    async (_, options) => {
      const search = searchOf(buildSearchIndex(entries, renderCard, options))
      for (const q of searchesOf(catalog)) {
        for (const category of ['', 'Dining & Refreshments', 'Shopping', 'Nowhere']) {
          const found = (await search.find({ q, category })).map((id) => entries[id]!.slug)
          const expected = filterBusinesses(catalog, { q, category }).map((business) => business.slug)
          const what = JSON.stringify({ q, category })
          expect(found.slice(0, expected.length).sort(), what).toEqual([...expected].sort())
          expect(new Set(found).size, what).toBe(found.length)
          if (category !== '')
            expect(
              found.filter((slug) => catalog.find((business) => business.slug === slug)!.category !== category),
              what,
            ).toEqual([])
        }
      }
    },
  )

  test('finds the same businesses split into files as in one file, and what visitors mean', async () => {
    const split = searchOf(buildSearchIndex(entries, renderCard, { inlineLimit: 0, cardsPerFile: 3, textsPerFile: 7 }))
    const whole = searchOf(
      buildSearchIndex(entries, renderCard, { inlineLimit: 1000, cardsPerFile: 3, textsPerFile: 7 }),
    )
    const slugs = async (search: typeof split, q: string) =>
      (await search.find({ q, category: '' })).map((id) => entries[id]!.slug)
    for (const [q, slug] of [
      ['espresso', 'roland-coffee-house'], // what it is: a term of its preset ('Cafe')
      ['pastry', 'roland-shop-1'], // a word form of 'pastries'
      ['tools ice', 'roland-shop-2'], // two words, not side by side
      ['hickry', 'hickory-pit'], // a typo
      ['smokd hickory', 'hickory-pit'], // a typo beside a word
    ] as const) {
      expect(filterBusinesses(catalog, { q, category: '' }), q).toEqual([])
      const found = await slugs(split, q)
      expect(found, q).toContain(slug)
      expect(new Set(found), q).toEqual(new Set(await slugs(whole, q)))
    }
    // Nothing matches 'bati' (a transposition is two edits): a close word would.
    await expect(slugs(split, 'bati')).resolves.toEqual([])
    await expect(split.suggest({ q: 'bati', category: '' })).resolves.toBe('bait')
    await expect(whole.suggest({ q: 'bati', category: '' })).resolves.toBe('bait')
    await expect(split.suggest({ q: 'qqqq', category: '' })).resolves.toBe(null)
  })

  test('draws the cards of the businesses asked for, in that order', async () => {
    const search = searchOf(buildSearchIndex(entries, renderCard, split))
    await expect(search.cards([5, 0, 4])).resolves.toEqual([5, 0, 4].map((id) => `card of ${entries[id]!.slug}`))
  })

  test('holds the whole index in its manifest up to the inline limit, and files beyond it', () => {
    const small = buildSearchIndex(entries, renderCard, { ...split, inlineLimit: entries.length })
    expect(small.manifest.docs).toHaveLength(entries.length)
    expect(small.files.size + small.cardFiles.size).toBe(0)
    const large = buildSearchIndex(entries, renderCard, { ...split, inlineLimit: entries.length - 1 })
    expect(large.manifest.docs).toBeUndefined()
    expect(large.cardFiles.size).toBe(Math.ceil(entries.length / 3))
  })

  test('lists every file it has from its manifest and n/ files, for "Save for offline", and nothing else', async () => {
    const index = buildSearchIndex(entries, renderCard, split)
    const names = await searchFileNames(index.manifest, async (name) => JSON.parse(index.files.get(name)!))
    expect(new Set(names).size).toBe(names.length)
    expect(names.sort()).toEqual([...index.files.keys(), ...index.cardFiles.keys()].sort())
    const small = buildSearchIndex(entries, renderCard, { ...split, inlineLimit: 1000 })
    await expect(searchFileNames(small.manifest, () => Promise.reject(new Error('no file')))).resolves.toEqual([])
  })

  test('numbers its files anew (v) when a business is added or removed, not when a text changes', () => {
    const v = (list: typeof entries) => buildSearchIndex(list, renderCard, split).manifest.v
    const described = entries.map((entry, i) => (i === 2 ? { ...entry, short_description: 'Now open late' } : entry))
    expect(v(described)).toBe(v(entries))
    expect(v(entries.slice(1))).not.toBe(v(entries))
    expect(v([{ ...entries[0]!, slug: 'a-new-business' }, ...entries])).not.toBe(v(entries))
    expect(v(entries)).toMatch(/^[\w-]{12}$/)
  })
})

describe('parseSearchManifest', () => {
  test('refuses what is not a search index', () => {
    expect(() => parseSearchManifest([])).toThrow('/businesses/search-index.json is not a search index')
    expect(() => parseSearchManifest({ count: 1 })).toThrow('is not a search index: rebuild the site.')
    const { manifest } = buildSearchIndex([], renderCard)
    expect(parseSearchManifest(JSON.parse(JSON.stringify(manifest)))).toEqual(manifest)
    expect(() => parseSearchManifest({ ...manifest, v: '../x' })).toThrow('is not a search index')
    expect(() => parseSearchManifest(null)).toThrow('is not a search index')
  })
})
