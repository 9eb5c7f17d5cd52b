import { describe, expect, test } from 'vitest'
import { SlugClaims, slugify } from './slug.ts'

// The businesses.slug domain in supabase/migrations accepts exactly this shape.
const SLUG_DOMAIN = /^[a-z0-9]+(-[a-z0-9]+)*$/

describe('slugify', () => {
  test('lower-cases the name and joins its words with single hyphens', () => {
    expect(slugify('Big Rock   Coffee')).toBe('big-rock-coffee')
  })

  test("drops an apostrophe inside a word, so Joe's Diner becomes joes-diner", () => {
    expect(slugify("Joe's Diner")).toBe('joes-diner')
    expect(slugify('Joe’s Diner')).toBe('joes-diner')
  })

  test("spells out an ampersand as 'and'", () => {
    expect(slugify('Lakeview Marina & Bait Shop')).toBe('lakeview-marina-and-bait-shop')
    expect(slugify('Carter&Lowe')).toBe('carter-and-lowe')
  })

  test('folds accented letters to plain ones', () => {
    expect(slugify('Café Élan Crêperie')).toBe('cafe-elan-creperie')
    expect(slugify('Straße Grill')).toBe('strasse-grill')
  })

  test('keeps the words of a hyphenated name like Stop-N-Go Market', () => {
    expect(slugify('Stop-N-Go Market')).toBe('stop-n-go-market')
  })

  test('removes other punctuation and never starts or ends with a hyphen', () => {
    expect(slugify('  -- "Roland Bait!!" (new) --  ')).toBe('roland-bait-new')
    expect(slugify('A.J.’s Auto / Tire')).toBe('ajs-auto-tire')
  })

  test('returns an empty string when the name has no letters or digits', () => {
    expect(slugify('!!! ???')).toBe('')
  })

  test('cuts a very long name at a word so the slug fits the database domain', () => {
    const slug = slugify(
      'The Really Quite Extraordinarily Long Named Family Owned And Operated Roland Arkansas Bait Tackle And Sundries Emporium',
    )
    expect(slug.length).toBeLessThanOrEqual(100)
    expect(slug).toMatch(SLUG_DOMAIN)
    expect(slug.endsWith('-')).toBe(false)
  })
})

describe('SlugClaims', () => {
  test('hands out the slug itself when it is free, and not again', () => {
    const slugs = new SlugClaims()
    expect(slugs.claim('joes-diner')).toBe('joes-diner')
    expect(slugs.claim('joes-diner')).not.toBe('joes-diner')
  })

  test('numbers repeats from 2 upwards', () => {
    const slugs = new SlugClaims()
    expect([1, 2, 3].map(() => slugs.claim('joes-diner'))).toEqual(['joes-diner', 'joes-diner-2', 'joes-diner-3'])
  })

  test('skips a numbered slug another business already holds', () => {
    const slugs = new SlugClaims(new Set(['cafe', 'cafe-2']))
    expect(slugs.claim('cafe')).toBe('cafe-3')
  })

  test('skips a numbered slug a business of that name took earlier in the list', () => {
    const slugs = new SlugClaims()
    expect(['cafe-2', 'cafe', 'cafe', 'cafe', 'cafe-3'].map((base) => slugs.claim(base))).toEqual([
      'cafe-2',
      'cafe',
      'cafe-3',
      'cafe-4',
      'cafe-3-2',
    ])
  })

  test('numbers 30,000 businesses of one name in one pass', () => {
    // Each claim tries one slug: a claim that went back to 'cafe-2' each time would take 450 million.
    const taken = new Set<string>()
    const has = taken.has.bind(taken)
    let tries = 0
    taken.has = (slug) => ((tries += 1), has(slug))
    const slugs = new SlugClaims(taken)
    const claimed = Array.from({ length: 30_000 }, () => slugs.claim('cafe'))
    expect(claimed.at(-1)).toBe('cafe-30000')
    expect(new Set(claimed).size).toBe(30_000)
    expect(tries).toBe(30_000)
  })
})
