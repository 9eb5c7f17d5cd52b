import { describe, expect, test } from 'vitest'
import presets from './osm-presets.json' with { type: 'json' }
import vocabulary from './osm-vocabulary.json' with { type: 'json' }
import {
  buildOsmPresets,
  buildOsmVocabulary,
  foldWords,
  presetCategory,
  readInstalledOsmSchema,
} from './osm-vocabulary.ts'

describe('osm-vocabulary.json', () => {
  const installed = readInstalledOsmSchema()

  test('was generated from the installed @openstreetmap/id-tagging-schema version', () => {
    expect(vocabulary.version).toBe(installed.version)
  })

  test('matches what the generator makes of the installed package (run generate-osm-vocabulary.ts after an update)', () => {
    expect(vocabulary).toEqual(JSON.parse(JSON.stringify(buildOsmVocabulary(installed))))
  })

  test("holds the presets' English names and terms under SPEC's categories", () => {
    const phrases: Record<string, number[]> = vocabulary.phrases
    const column = (name: string) => vocabulary.columns.indexOf(name)
    expect(phrases['restaurant']?.[column('Dining & Refreshments')]).toBeGreaterThan(0)
    expect(phrases['convenience store']?.[column('Shopping & Convenience')]).toBeGreaterThan(0)
    expect(phrases['plumber']?.[column('Professional Services')]).toBeGreaterThan(0)
    expect(phrases['campground']?.[column('Recreation')]).toBeGreaterThan(0)
  })
})

describe('osm-presets.json', () => {
  test('matches what the generator makes of the installed package (run generate-osm-vocabulary.ts after an update)', () => {
    expect(presets).toEqual(JSON.parse(JSON.stringify(buildOsmPresets(readInstalledOsmSchema()))))
  })

  test('holds what a hairdresser is called, under the category the import gives it', () => {
    expect(presets.presets.find((preset) => preset.id === 'shop/hairdresser')).toEqual({
      id: 'shop/hairdresser',
      category: 'Professional Services',
      names: ['hairdresser', 'hair salon', 'hair stylist'],
      terms: ['haircut'],
    })
    expect(presets.presets.some((preset) => preset.id === 'amenity/bench')).toBe(false)
  })
})

describe('presetCategory', () => {
  test.each([
    [{ tags: { amenity: 'fast_food' } }, 'Dining & Refreshments'],
    [{ tags: { amenity: 'ice_cream' } }, 'Dining & Refreshments'],
    [{ tags: { shop: 'hardware' } }, 'Shopping & Convenience'],
    [{ tags: { craft: 'plumber' } }, 'Professional Services'],
    [{ tags: { amenity: 'dentist' }, addTags: { amenity: 'dentist', healthcare: 'dentist' } }, 'Professional Services'],
    [{ tags: { shop: 'hairdresser' } }, 'Professional Services'],
    [{ tags: { leisure: 'marina' } }, 'Recreation'],
    [{ tags: { tourism: 'camp_site' } }, 'Recreation'],
    [{ tags: { amenity: 'place_of_worship' } }, 'Business'],
    [{ tags: { amenity: 'bench' } }, null],
    [{ tags: { highway: 'residential' } }, null],
  ] as const)('maps %o to %s', (preset, category) => {
    expect(presetCategory(preset)).toBe(category)
  })
})

describe('foldWords', () => {
  test('lower-cases, drops accents, stop words and plurals', () => {
    expect(foldWords('Cafés & Bakeries of the Ozarks')).toEqual(['cafe', 'bakery', 'ozark'])
  })
})
