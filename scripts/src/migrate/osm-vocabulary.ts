import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { businessCategories, defaultBusinessCategory } from '../catalog/types.ts'
import { SMALL_WORDS } from './small-words.ts'

/** The columns of a vocabulary entry: the four site categories, then the default. */
export const VOCABULARY_COLUMNS = [...businessCategories, defaultBusinessCategory] as const

/** One column of a vocabulary entry. */
export type VocabularyCategory = (typeof VOCABULARY_COLUMNS)[number]

/**
 * Phrases of OpenStreetMap's preset names, aliases and search terms, folded (see foldWords), each
 * with a weight per column of VOCABULARY_COLUMNS: how strongly the phrase names a business of that kind.
 */
export interface OsmVocabulary {
  package: string
  version: string
  columns: readonly string[]
  phrases: Record<string, number[]>
}

/** The parts of a preset (dist/presets.json) the vocabulary reads. */
export interface OsmPreset {
  tags?: Record<string, string>
  addTags?: Record<string, string>
  searchable?: boolean
}

/** The English strings of a preset (dist/translations/en.json, en.presets.presets). */
export interface OsmPresetStrings {
  name?: string
  aliases?: string[]
  terms?: string[]
}

// SPEC's categories from OSM's main keys. Amenities are listed one by one: most (a school, a
// bench, a toilet) are no business at all, and some (a bank, a fuel station) are not food.
const DINING_AMENITIES = new Set([
  'restaurant',
  'cafe',
  'fast_food',
  'ice_cream',
  'bar',
  'pub',
  'food_court',
  'biergarten',
])
const SHOPPING_AMENITIES = new Set(['fuel', 'marketplace', 'vending_machine'])
const PROFESSIONAL_AMENITIES = new Set([
  'bank',
  'car_wash',
  'childcare',
  'clinic',
  'dentist',
  'doctors',
  'driving_school',
  'funeral_hall',
  'money_transfer',
  'payment_centre',
  'vehicle_inspection',
  'veterinary',
  'animal_boarding',
  'coworking_space',
])
const RECREATION_AMENITIES = new Set([
  'boat_rental',
  'bicycle_rental',
  'dive_centre',
  'dojo',
  'cinema',
  'theatre',
  'public_bath',
  'dancing_school',
])
// OSM tags many services as shops (a barber is shop=hairdresser); SPEC lists them as services.
const SERVICE_SHOPS = new Set([
  'beauty',
  'car_repair',
  'copyshop',
  'dry_cleaning',
  'funeral_directors',
  'groundskeeping',
  'hairdresser',
  'locksmith',
  'massage',
  'money_lender',
  'motorcycle_repair',
  'pet_grooming',
  'piercing',
  'repair',
  'shoe_repair',
  'storage_rental',
  'tailor',
  'tattoo',
  'travel_agency',
  'tyres',
])
// A public barbecue grill in a park, not a barbecue restaurant (that is the cuisine).
const NOT_BUSINESSES = new Set(['bbq', 'bench', 'toilets', 'waste_basket', 'parking', 'shelter', 'drinking_water'])
const RECREATION_KEYS = ['leisure', 'tourism', 'sport', 'golf', 'disc_golf', 'climbing', 'piste', 'attraction']

/** Maps a preset's tags onto a site category; null when the preset is not a place a business can be. */
export function presetCategory(preset: OsmPreset): VocabularyCategory | null {
  const tags = { ...preset.tags, ...preset.addTags }
  const amenity = tags['amenity']
  if (amenity !== undefined && NOT_BUSINESSES.has(amenity)) return null
  if (tags['shop'] !== undefined && SERVICE_SHOPS.has(tags['shop'])) return 'Professional Services'
  if (amenity !== undefined && DINING_AMENITIES.has(amenity)) return 'Dining & Refreshments'
  if (tags['shop'] !== undefined || (amenity !== undefined && SHOPPING_AMENITIES.has(amenity)))
    return 'Shopping & Convenience'
  if (
    tags['office'] !== undefined ||
    tags['craft'] !== undefined ||
    tags['healthcare'] !== undefined ||
    (amenity !== undefined && PROFESSIONAL_AMENITIES.has(amenity))
  )
    return 'Professional Services'
  if (
    RECREATION_KEYS.some((key) => tags[key] !== undefined) ||
    (amenity !== undefined && RECREATION_AMENITIES.has(amenity))
  )
    return 'Recreation'
  // A church, a school, a post office: places a town lists among its businesses all the same.
  if (amenity !== undefined || tags['club'] !== undefined) return defaultBusinessCategory
  return null
}

// Words that name no kind of place: the small words of names, and those of the schema's Spanish and French names.
const STOP_WORDS = new Set([...SMALL_WORDS, 'de', 'la'])

/** Folds a text to the words the vocabulary is keyed by: lower case, no accents, singular, no stop words. */
export function foldWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[’']/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !STOP_WORDS.has(word))
    .map(singular)
}

function singular(word: string): string {
  if (word.length <= 3) return word
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (/(?:ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2)
  if (word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1)
  return word
}

// What a match says: a preset's own name or alias names the place; a search term describes it;
// one word of a longer name ('Outdoors' of 'Outdoors Store') hints at it.
const NAME_WEIGHT = 3
const TERM_WEIGHT = 2
const NAME_WORD_WEIGHT = 1
// Cuisines are what food businesses are named for ('Taqueria', 'BBQ'), so they count as terms of dining.
const CUISINE_WEIGHT = 2

/** Builds the compact phrase → category table from the tagging schema's presets and English strings. */
export function buildOsmVocabulary(input: {
  version: string
  presets: Record<string, OsmPreset>
  strings: Record<string, OsmPresetStrings>
  cuisines: Record<string, unknown>
}): OsmVocabulary {
  const phrases = new Map<string, number[]>()
  const add = (text: string, category: VocabularyCategory, weight: number) => {
    const key = foldWords(text).join(' ')
    if (key === '' || /^\d+$/.test(key)) return
    const row = phrases.get(key) ?? VOCABULARY_COLUMNS.map(() => 0)
    const column = VOCABULARY_COLUMNS.indexOf(category)
    // The strongest mention counts, not how many presets share it: shops have hundreds of presets.
    row[column] = Math.max(row[column] ?? 0, weight)
    phrases.set(key, row)
  }
  for (const [id, preset] of Object.entries(input.presets)) {
    if (preset.searchable === false || id.startsWith('@')) continue
    const category = presetCategory(preset)
    const strings = input.strings[id]
    if (category === null || strings?.name === undefined) continue
    for (const name of [strings.name, ...(strings.aliases ?? [])]) {
      add(name, category, NAME_WEIGHT)
      const words = foldWords(name)
      if (words.length > 1) for (const word of words) if (word.length > 2) add(word, category, NAME_WORD_WEIGHT)
    }
    for (const term of strings.terms ?? []) add(term, category, TERM_WEIGHT)
  }
  for (const [key, label] of Object.entries(input.cuisines)) {
    add(key.replace(/_/g, ' '), 'Dining & Refreshments', CUISINE_WEIGHT)
    if (typeof label === 'string') add(label, 'Dining & Refreshments', CUISINE_WEIGHT)
  }
  const sorted = [...phrases.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return {
    package: '@openstreetmap/id-tagging-schema',
    version: input.version,
    columns: VOCABULARY_COLUMNS,
    phrases: Object.fromEntries(sorted),
  }
}

/** One preset the search can say a business is: its English name, aliases and search terms. */
export interface OsmPresetEntry {
  /** The preset's id in the schema ('shop/hairdresser'). */
  id: string
  category: VocabularyCategory
  /** Its name, then its aliases ('Hairdresser', 'Hair Salon', 'Hair Stylist'). */
  names: string[]
  /** Its search terms ('haircut'). */
  terms: string[]
}

/** The presets of places a business can be, as the search reads them (osm-presets.json). */
export interface OsmPresets {
  package: string
  version: string
  presets: OsmPresetEntry[]
}

/**
 * Lists the presets of places a business can be (presetCategory says which), with their English
 * names and terms as the schema writes them: the search matches a business to them and indexes
 * what they say it is (scripts/src/search/presets.ts). Lower case, by id, each string once.
 */
export function buildOsmPresets(input: Parameters<typeof buildOsmVocabulary>[0]): OsmPresets {
  const presets: OsmPresetEntry[] = []
  const lowered = (texts: readonly string[]) => [...new Set(texts.map((text) => text.toLowerCase().trim()))]
  for (const id of Object.keys(input.presets).sort()) {
    const preset = input.presets[id]!
    if (preset.searchable === false || id.startsWith('@')) continue
    const category = presetCategory(preset)
    const strings = input.strings[id]
    if (category === null || strings?.name === undefined) continue
    const names = lowered([strings.name, ...(strings.aliases ?? [])])
    const terms = lowered(strings.terms ?? []).filter((term) => term !== '' && !names.includes(term))
    presets.push({ id, category, names, terms })
  }
  return { package: '@openstreetmap/id-tagging-schema', version: input.version, presets }
}

/** Reads the installed tagging schema (a development dependency) as buildOsmVocabulary takes it. */
export function readInstalledOsmSchema(): Parameters<typeof buildOsmVocabulary>[0] {
  const require = createRequire(import.meta.url)
  const root = path.dirname(require.resolve('@openstreetmap/id-tagging-schema/package.json'))
  const json = (file: string): unknown => JSON.parse(readFileSync(path.join(root, file), 'utf8'))
  const { version } = json('package.json') as { version: string }
  const english = json('dist/translations/en.min.json') as {
    en: {
      presets: { presets: Record<string, OsmPresetStrings>; fields: { cuisine: { options: Record<string, unknown> } } }
    }
  }
  return {
    version,
    presets: json('dist/presets.min.json') as Record<string, OsmPreset>,
    strings: english.en.presets.presets,
    cuisines: english.en.presets.fields.cuisine.options,
  }
}
