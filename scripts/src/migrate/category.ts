import { businessCategories, defaultBusinessCategory } from '../catalog/types.ts'
import { foldWords, VOCABULARY_COLUMNS, type OsmVocabulary, type VocabularyCategory } from './osm-vocabulary.ts'
import vocabularyJson from './osm-vocabulary.json' with { type: 'json' }

/** The four business categories of SPEC §3 (declared once, in the catalog types). */
export const BUSINESS_CATEGORIES = businessCategories

/** The category a migrated business gets when nothing in its text points to one of the four. */
export const DEFAULT_CATEGORY = defaultBusinessCategory

/** One of the four site categories, or the default. */
export type BusinessCategory = (typeof BUSINESS_CATEGORIES)[number] | typeof DEFAULT_CATEGORY

type GuessableCategory = (typeof BUSINESS_CATEGORIES)[number]

// Weights: 3 for phrases that name the business outright ('auto parts', 'gas station'), 2 for
// words that say what the business is ('marina', 'dentist'), 1 for generic words that many kinds
// of business use ('shop', 'store', 'services'). A generic word never outvotes a specific one,
// which is why 'Lakeview Marina & Bait Shop' is Recreation and 'Big Rock Coffee Shop' is Dining.
// prettier-ignore
const KEYWORDS: Record<GuessableCategory, Record<string, number>> = {
  'Dining & Refreshments': {
    'coffee shop': 3, 'ice cream': 3, 'snow cone': 3, 'snow cones': 3, 'food truck': 3, 'tea room': 3,
    'bar and grill': 3, 'dine in': 3, 'take out': 3, 'soda fountain': 3,
    restaurant: 2, cafe: 2, coffee: 2, espresso: 2, pizza: 2, pizzeria: 2, bbq: 2, barbecue: 2,
    barbeque: 2, grill: 2, diner: 2, bakery: 2, donut: 2, donuts: 2, doughnut: 2, doughnuts: 2,
    burger: 2, burgers: 2, taco: 2, tacos: 2, taqueria: 2, deli: 2, catering: 2, bistro: 2, eatery: 2,
    steakhouse: 2, smokehouse: 2, sandwich: 2, sandwiches: 2, brewery: 2, winery: 2, tavern: 2,
    pub: 2, smoothie: 2, smoothies: 2, dessert: 2, desserts: 2, cupcakes: 2, pies: 2, catfish: 2,
    'tasting room': 3, tasting: 2, tastings: 2, vineyard: 2, distillery: 2,
    breakfast: 1, lunch: 1, dinner: 1, food: 1, kitchen: 1, drinks: 1, menu: 1, meals: 1,
  },
  'Shopping & Convenience': {
    'gas station': 3, 'convenience store': 3, 'general store': 3, 'auto parts': 3, 'gift shop': 3,
    'feed store': 3, 'hardware store': 3, 'dollar store': 3, 'thrift store': 3, 'package store': 3,
    'liquor store': 3, 'farm supply': 3, 'farmers market': 3, 'garden center': 3, 'farm stand': 3,
    'fruit stand': 3,
    convenience: 2, hardware: 2, grocery: 2, groceries: 2, boutique: 2, feed: 2, gas: 2, fuel: 2,
    antique: 2, antiques: 2, thrift: 2, florist: 2, flowers: 2, pharmacy: 2, liquor: 2, mart: 2,
    outlet: 2, merchandise: 2, apparel: 2, clothing: 2, gifts: 2, supply: 2, supplies: 2, tack: 2,
    lumber: 2, produce: 2, books: 2, bookstore: 2, bookshop: 2,
    store: 1, shop: 1, shopping: 1, market: 1, retail: 1, goods: 1, discount: 1,
  },
  'Professional Services': {
    'real estate': 3, 'body shop': 3, 'auto repair': 3, 'pet grooming': 3, 'animal hospital': 3,
    'credit union': 3, 'pest control': 3, 'child care': 3, 'funeral home': 3, 'hair salon': 3,
    'law office': 3, 'law firm': 3, 'tax preparation': 3, 'self storage': 3,
    law: 2, lawyer: 2, attorney: 2, attorneys: 2, legal: 2, insurance: 2, dental: 2, dentist: 2,
    dentistry: 2, clinic: 2, medical: 2, doctor: 2, physician: 2, chiropractic: 2, chiropractor: 2,
    salon: 2, barber: 2, barbershop: 2, nails: 2, hair: 2, repair: 2, repairs: 2, auto: 2,
    automotive: 2, mechanic: 2, tires: 2, plumbing: 2, plumber: 2, electrician: 2, electrical: 2,
    hvac: 2, roofing: 2, construction: 2, contractor: 2, realtor: 2, realty: 2, accounting: 2,
    accountant: 2, cpa: 2, tax: 2, bookkeeping: 2, veterinary: 2, veterinarian: 2, vet: 2, grooming: 2,
    bank: 2, banking: 2, notary: 2, consulting: 2, photography: 2, photographer: 2, printing: 2,
    cleaning: 2, landscaping: 2, lawn: 2, towing: 2, welding: 2, daycare: 2, counseling: 2,
    therapy: 2, financial: 2, mortgage: 2, engineering: 2, storage: 2, kennel: 2, boarding: 1,
    services: 1, service: 1, office: 1, appointment: 1, appointments: 1, company: 1, agency: 1,
  },
  Recreation: {
    'state park': 3, 'rv park': 3, 'boat rental': 3, 'boat rentals': 3, 'boat launch': 3,
    'bait shop': 3, 'pro shop': 3, 'disc golf': 3, 'zip line': 3, 'horseback riding': 3,
    'riding stables': 3, 'fitness center': 3, 'golf course': 3, 'bait and tackle': 3,
    marina: 2, park: 2, golf: 2, fitness: 2, gym: 2, kayak: 2, kayaks: 2, kayaking: 2, canoe: 2,
    canoes: 2, paddleboard: 2, paddleboards: 2, campground: 2, camping: 2, campsites: 2,
    fishing: 2, stables: 2, horseback: 2, trail: 2, trails: 2, hiking: 2, boating: 2, yoga: 2,
    bowling: 2, swimming: 2, outfitters: 2, outfitter: 2, tennis: 2, recreation: 2, hunting: 2,
    archery: 2, lake: 1, bait: 1, tackle: 1, outdoors: 1,
    // What the business does for a visitor: it takes them out, shows them round, rents them the boat.
    'guide service': 3, 'float trip': 3, 'float trips': 3, 'guided tours': 3, 'canoe rental': 3,
    'kayak rental': 3, 'kayak rentals': 3, 'canoe rentals': 3, 'tube rentals': 3,
    guide: 2, guides: 2, guided: 2, tour: 2, tours: 2, rental: 2, rentals: 2, climbing: 2,
    canyoneering: 2, rafting: 2, floats: 2, zipline: 2, trips: 1,
  },
}

const NAME_WEIGHT = 3

// The weight of the generic words of KEYWORDS ('shop', 'service'), which decide only when nothing else does.
const GENERIC_WEIGHT = 1

type Matcher = { category: GuessableCategory; phrase: string; words: string[]; weight: number; pattern: RegExp }

// Longest phrases first, so a phrase claims its words before a single word can ('auto parts'
// is a store, and its 'auto' must not also count for the repair shops).
const MATCHERS: Matcher[] = Object.entries(KEYWORDS)
  .flatMap(([category, words]) =>
    Object.entries(words).map(([phrase, weight]) => ({
      category: category as GuessableCategory,
      phrase,
      words: phrase.split(' '),
      weight,
      pattern: new RegExp(`\\b${phrase.replace(/ /g, '\\s+')}\\b`, 'g'),
    })),
  )
  .sort((a, b) => b.phrase.length - a.phrase.length)

/** Scores each category by the keywords found in a text (keywordsIn), without the generic ones unless told. */
function scoreKeywords(found: readonly Matcher[], generic: boolean): Record<GuessableCategory, number> {
  const scores = emptyScores()
  for (const matcher of found) {
    if (generic || matcher.weight > GENERIC_WEIGHT) scores[matcher.category] += matcher.weight
  }
  return scores
}

/** The keywords a text contains, each once, longest phrases claiming their words first. */
function keywordsIn(text: string): Matcher[] {
  const found: Matcher[] = []
  // Same folding as slugs, so 'Café' finds 'cafe' and '&' finds the 'and' phrases.
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[-‐‑–—/]+/g, ' ')
    .replace(/[’']/g, '')
  // A phrase matches whole words only, so one with a word the text lacks need not be searched for.
  const words = new Set(folded.match(/\w+/g))
  let claimed: boolean[] | null = null
  for (const matcher of MATCHERS) {
    if (!matcher.words.every((word) => words.has(word))) continue
    claimed ??= new Array<boolean>(folded.length).fill(false)
    let counted = false
    for (const match of folded.matchAll(matcher.pattern)) {
      const start = match.index
      const end = start + match[0].length
      if (claimed.slice(start, end).some(Boolean)) continue
      claimed.fill(true, start, end)
      if (!counted) found.push(matcher)
      counted = true
    }
  }
  return found
}

/** The keywords of a business's name and of its description (keywordsIn). */
interface BusinessKeywords {
  name: readonly Matcher[]
  description: readonly Matcher[]
}

const keywordsOf = (name: string, description: string): BusinessKeywords => ({
  name: keywordsIn(name),
  description: keywordsIn(description),
})

/** Scores each category for a business: keywords in its name count three times those in its description. */
export function scoreCategories(name: string, description: string, generic = true): Record<GuessableCategory, number> {
  return weighKeywords(keywordsOf(name, description), generic)
}

/** Scores each category by a business's keywords, the name's counting three times. */
function weighKeywords(keywords: BusinessKeywords, generic: boolean): Record<GuessableCategory, number> {
  const fromName = scoreKeywords(keywords.name, generic)
  const fromDescription = scoreKeywords(keywords.description, generic)
  const scores = emptyScores()
  for (const category of BUSINESS_CATEGORIES) {
    scores[category] = NAME_WEIGHT * fromName[category] + fromDescription[category]
  }
  return scores
}

/**
 * Guesses a business's category from its name and description: by our keywords that say what the
 * business is or does for a visitor ('guides', 'tours', 'tastings', 'rentals'); where they find
 * nothing or tie, by OpenStreetMap's vocabulary; only then by the generic words that many kinds of
 * business use ('service', 'company', 'shop'); 'Business' when none has a leader. So a laundromat's
 * 'drop-off service' does not make it a professional service, nor a 'Guide Service' one.
 */
export function guessCategory(name: string, description = ''): BusinessCategory {
  // Found once, weighed twice: without the generic words, then (when nothing else leads) with them.
  const keywords = keywordsOf(name, description)
  const bySpecificWords = keywordLeader(weighKeywords(keywords, false))
  if (bySpecificWords !== DEFAULT_CATEGORY) return bySpecificWords
  // The vocabulary may name the default outright: a laundromat is a 'Business', not a service.
  return vocabularyLeader(name, description) ?? keywordLeader(weighKeywords(keywords, true))
}

/** Guesses a category from our own keyword list only (without its generic words when told); 'Business' when no category leads. */
export function guessCategoryByKeywords(
  name: string,
  description = '',
  { generic = true }: { generic?: boolean } = {},
): BusinessCategory {
  return keywordLeader(scoreCategories(name, description, generic))
}

/** The category our keywords score highest, or the default when none leads. */
function keywordLeader(scores: Record<GuessableCategory, number>): BusinessCategory {
  const best = Math.max(...Object.values(scores))
  const leaders = BUSINESS_CATEGORIES.filter((category) => scores[category] === best)
  // A tie is a real ambiguity (a 'Grill & Gas' with no description): the default is honest, a pick is not.
  if (best === 0 || leaders.length > 1) return DEFAULT_CATEGORY
  return leaders[0] ?? DEFAULT_CATEGORY
}

/** Matches an operator's own 'Category:' text to a site category, ignoring case and '&' versus 'and'. */
export function matchCategoryLabel(label: string): BusinessCategory | null {
  const key = (text: string) =>
    text
      .toLowerCase()
      .replace(/&/g, 'and')
      .replace(/[^a-z]/g, '')
  const wanted = key(label)
  if (wanted === key(DEFAULT_CATEGORY)) return DEFAULT_CATEGORY
  return BUSINESS_CATEGORIES.find((category) => key(category) === wanted) ?? null
}

function emptyScores(): Record<GuessableCategory, number> {
  return {
    'Dining & Refreshments': 0,
    'Shopping & Convenience': 0,
    'Professional Services': 0,
    Recreation: 0,
  }
}

const vocabulary: OsmVocabulary = vocabularyJson
// Multi-word phrases of the vocabulary are at most this long; longer windows find nothing.
const LONGEST_PHRASE = Math.max(...Object.keys(vocabulary.phrases).map((phrase) => phrase.split(' ').length))

/** Scores each category of VOCABULARY_COLUMNS by the OpenStreetMap phrases a text contains, longest first. */
export function scoreOsmText(text: string): Record<VocabularyCategory, number> {
  const words = foldWords(text)
  const scores = Object.fromEntries(VOCABULARY_COLUMNS.map((column) => [column, 0])) as Record<
    VocabularyCategory,
    number
  >
  const seen = new Set<string>()
  let i = 0
  while (i < words.length) {
    let matched = 0
    for (let length = Math.min(LONGEST_PHRASE, words.length - i); length >= 1; length -= 1) {
      const phrase = words.slice(i, i + length).join(' ')
      const row = OVERRIDES[phrase] ?? vocabulary.phrases[phrase]
      if (row === undefined) continue
      matched = length
      // A phrase counts once however often it is repeated.
      if (!seen.has(phrase))
        for (const [column, category] of VOCABULARY_COLUMNS.entries()) scores[category] += row[column] ?? 0
      seen.add(phrase)
      break
    }
    i += Math.max(matched, 1)
  }
  return scores
}

// Where OpenStreetMap's words mean something else in a small town: these rows replace the vocabulary's.
// Columns as VOCABULARY_COLUMNS: Dining, Shopping, Professional, Recreation, Business.
// prettier-ignore
const OVERRIDES: Record<string, number[]> = {
  // The bakery, the coffee house and the barbecue joint are where people eat, not food shops.
  bakery: [3, 0, 0, 0, 0], coffee: [3, 0, 0, 0, 0], 'coffee house': [3, 0, 0, 0, 0], donut: [3, 0, 0, 0, 0],
  bbq: [3, 0, 0, 0, 0], barbecue: [3, 0, 0, 0, 0], deli: [2, 1, 0, 0, 0],
  // Guides and outfitters take people out on the lake, the river and the rock; they are not shops.
  guide: [0, 0, 0, 3, 0], outfitter: [0, 0, 0, 3, 0], bait: [0, 0, 0, 2, 0], tackle: [0, 0, 0, 2, 0],
  fitness: [0, 0, 0, 3, 0],
  // A farm (a tree farm, a cattle farm) and the laundromat are neither shops nor services here.
  farm: [0, 0, 0, 0, 2], laundromat: [0, 0, 0, 0, 3], laundry: [0, 0, 0, 0, 3],
  realty: [0, 0, 3, 0, 0], vet: [0, 0, 3, 0, 0], mart: [0, 3, 0, 0, 0],
}

/** Guesses a category from OpenStreetMap's vocabulary only, the name weighing three times the description. */
export function guessCategoryByVocabulary(name: string, description = ''): BusinessCategory {
  return vocabularyLeader(name, description) ?? DEFAULT_CATEGORY
}

/** The category OpenStreetMap's vocabulary puts ahead of the others (the default among them), or null when none leads. */
function vocabularyLeader(name: string, description: string): BusinessCategory | null {
  const fromName = scoreOsmText(name)
  const fromDescription = scoreOsmText(description)
  const scores = VOCABULARY_COLUMNS.map((category) => ({
    category,
    score: NAME_WEIGHT * fromName[category] + fromDescription[category],
  })).sort((a, b) => b.score - a.score)
  const [first, second] = scores
  if (first === undefined || first.score === 0 || first.score === second?.score) return null
  return first.category
}
