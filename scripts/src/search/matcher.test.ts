import { fc, test as property } from '@fast-check/vitest'
import { describe, expect, test } from 'vitest'
import {
  buildWordIndex,
  fieldRank,
  matchingKeys,
  queryWords,
  searchInMemory,
  suggestQuery,
  typoBudget,
  type SearchDoc,
} from './matcher.ts'
import { presetTerms } from './presets.ts'
import { fold, keysOf, wordKey, WordKeys, words } from './text.ts'

describe('fold and words', () => {
  test('take accents off and join a word written with a hyphen, an apostrophe or a dot', () => {
    expect(fold('Café Crème')).toBe('cafe creme')
    expect(words('Free Wi-Fi & Café')).toEqual(['free', 'wifi', 'cafe'])
    expect(words("Children's dentistry, U.S. 70")).toEqual(['childrens', 'dentistry', 'us', '70'])
  })

  // fold takes a shorter way for plain ASCII: it must give what the whole way gives, for any text.
  // ASCII, and characters that decomposition or lower case change: a no-break space, a ligature, 'İ', a Kelvin sign.
  const unit = fc.oneof(
    fc.constantFrom('\u00a0', '\u2028', 'é', 'ﬁ', 'İ', '\u212a'),
    fc.string({ unit: 'binary-ascii', maxLength: 1 }),
  )
  property.prop([fc.oneof(fc.string({ unit }), fc.string({ unit: 'grapheme' }))])(
    'fold any text as Unicode decomposition, marks dropped, English lower case do',
    (text) => {
      expect(fold(text)).toBe(text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en'))
    },
  )
})

describe('wordKey', () => {
  test('gives a word and its forms one key (Porter2), the one who does it included', () => {
    for (const family of [
      ['groom', 'grooming', 'groomer', 'groomers'],
      ['plumbing', 'plumber', 'plumbers'],
      ['bookkeeping', 'bookkeeper'],
      ['sandwich', 'sandwiches'],
      ['tank', 'tanks'],
    ])
      expect(new Set(family.map(wordKey)), family.join()).toHaveLength(1)
  })

  test('keys a query as the index keys the text: a round trip finds the word again', () => {
    const index = buildWordIndex([{ name: 'Septic Tanks & Pumping' }])
    for (const typed of ['tank', 'tanks', 'pump', 'pumps', 'pumped', 'septic'])
      expect(matchingKeys(queryWords(`${typed} `)[0]!, index.keysFrom(typed[0]!)), typed).toEqual([
        { key: wordKey(typed), typo: false },
      ])
    expect(keysOf('Wi-Fi')).toEqual(keysOf('wifi'))
  })

  test('keys a word the same through a WordKeys, the first time and again', () => {
    const keys = new WordKeys()
    const typed = ['groomers', 'grooming', 'plumber', 'wifi', 'groomers', 'plumber']
    expect(typed.map(keys.of)).toEqual(typed.map(wordKey))
    expect(keysOf('Pet Groomers & Grooming', keys.of)).toEqual(keysOf('Pet Groomers & Grooming'))
  })
})

const docs: SearchDoc[] = [
  { name: 'Maumelle Veterinarian Clinic', descriptions: ['Care for dogs and cats'] },
  { name: 'Sandwich Barn', descriptions: ['Smoked brisket on a toasted bun'], services: ['Catering'] },
  { name: 'Roland Septic', services: ['Septic pumping', 'Tank repair'] },
  { name: 'Ozark Bait', what: ['tackle shop'] },
  { name: 'Ka Ranch', descriptions: ['Horse boarding'] },
]
const index = buildWordIndex(docs)
const search = (query: string) =>
  searchInMemory(
    index,
    docs.map((doc) => ({ name: doc.name, contains: [doc.name, ...(doc.descriptions ?? [])] })),
    query,
  ).map((id) => docs[id]!.name)

describe('typos', () => {
  test('one edit for words of 4 to 7 letters, two from 8', () => {
    expect([3, 4, 7, 8, 12].map(typoBudget)).toEqual([0, 1, 1, 2, 2])
    expect(search('vetrinarian')).toEqual(['Maumelle Veterinarian Clinic'])
    expect(search('sandwitch')).toEqual(['Sandwich Barn'])
    expect(search('tacle ')).toEqual(['Ozark Bait'])
  })

  test('none for a word of two letters, and none across the first letter', () => {
    expect(search('kb')).toEqual([])
    expect(search('xa ')).toEqual([])
    expect(search('bandwich')).toEqual([])
    expect(search('fandwich barn')).toEqual([])
  })

  test('only where no exact or stemmed match exists', () => {
    const pair = buildWordIndex([{ name: 'Bait Shop' }, { name: 'Boat Shop' }])
    expect(matchingKeys(queryWords('bait ')[0]!, pair.keysFrom('b'))).toEqual([{ key: 'bait', typo: false }])
  })
})

describe('several words', () => {
  test('match when every word is somewhere in the business, in any field and any order', () => {
    expect(search('brisket sandwich')).toEqual(['Sandwich Barn'])
    expect(search('catering sandwich')).toEqual(['Sandwich Barn'])
    expect(search('tank septic')).toEqual(['Roland Septic'])
    expect(search('brisket septic')).toEqual([])
  })
})

describe('ranking', () => {
  const ranked: SearchDoc[] = [
    { name: 'Acme Supply', descriptions: ['We also fix a plumber’s tools'] },
    { name: 'Best Pipes', services: ['Plumbing'] },
    { name: 'Drains Inc', what: ['plumber'] },
    { name: 'Plumb Bob Hardware' },
    { name: 'Plumber' },
    { name: 'Pipe Pros', services: ['Plumbing'] },
    { name: 'Zed Plumbers', descriptions: ['Pipes'] },
  ]
  const rankedIndex = buildWordIndex(ranked)
  const order = (query: string, featured: string[] = [], contains = false) =>
    searchInMemory(
      rankedIndex,
      ranked.map((doc) => ({
        name: doc.name,
        contains: contains ? [doc.name, ...(doc.descriptions ?? [])] : [],
        featured: featured.includes(doc.name),
      })),
      query,
    ).map((id) => ranked[id]!.name)

  test('puts the exact name first, then a name it begins, then other names, what it is, services, descriptions', () => {
    expect(order('plumber')).toEqual([
      'Plumber',
      'Plumb Bob Hardware',
      'Zed Plumbers',
      'Drains Inc',
      'Best Pipes',
      'Pipe Pros',
      'Acme Supply',
    ])
  })

  test('puts what "contains" finds first, featured first among equals', () => {
    expect(order('plumber', ['Pipe Pros'], true).slice(0, 3)).toEqual(['Plumber', 'Zed Plumbers', 'Acme Supply'])
    expect(order('plumber', ['Pipe Pros'], true).slice(3)).toEqual([
      'Plumb Bob Hardware',
      'Drains Inc',
      'Pipe Pros',
      'Best Pipes',
    ])
  })

  test('puts typo matches after what "contains" finds, featured or not', () => {
    const typo = buildWordIndex([{ name: 'Zoe', descriptions: ['fresh bread'] }, { name: 'Abredd Farm' }])
    const found = searchInMemory(
      typo,
      [
        { name: 'Zoe', contains: ['Zoe', 'fresh bread'], featured: true },
        { name: 'Abredd Farm', contains: ['Abredd Farm'] },
      ],
      'bredd',
    )
    expect(found).toEqual([1, 0])
    expect(fieldRank.exactName).toBeLessThan(fieldRank.descriptions)
  })
})

describe('suggestQuery', () => {
  test('offers the nearest word when a word matches nothing', () => {
    expect(suggestQuery(queryWords('sandwitch bran'), index)).toBe('sandwich barn')
    expect(suggestQuery(queryWords('bux'), index)).toBe('bun')
    expect(suggestQuery(queryWords('brisket'), index)).toBe(null)
  })
})

describe('presetTerms', () => {
  test('says a hair studio with a salon is a hairdresser and a hair stylist', () => {
    const terms = presetTerms({
      name: 'Hwy 300 Hair Studio',
      category: 'Professional Services',
      full_description: 'A friendly salon for cuts and color.',
    })
    expect(terms).toContain('hair stylist')
    expect(terms).toContain('hairdresser')
  })

  test('reads a term of one word only in the name, and only the presets of the category', () => {
    expect(presetTerms({ name: 'Ridgeview Tax & Bookkeeping', category: 'Professional Services' })).toContain(
      'accountant office',
    )
    expect(
      presetTerms({
        name: 'Ridgeview Diner',
        category: 'Dining & Refreshments',
        full_description: 'monthly bookkeeper',
      }),
    ).not.toContain('accountant office')
  })

  test('finds the same terms when the words are keyed through a WordKeys, as a build does', () => {
    const keys = new WordKeys()
    const salon = { name: 'Hwy 300 Hair Studio', category: 'Professional Services', full_description: 'A salon.' }
    expect(presetTerms(salon, keys.of)).toEqual(presetTerms(salon))
    expect(presetTerms(salon, keys.of)).toEqual(presetTerms(salon))
  })
})
