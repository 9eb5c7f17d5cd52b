import stem from 'wink-porter2-stemmer'

// How the search reads text, the same for the index and for what a visitor types: folded (lower
// case, no accents), split into words, each word keyed by its English stem (Porter2), so that
// 'Café' is 'cafe', 'Wi-Fi' is 'wifi', and 'groomers', 'grooming' and 'groomer' share one key.

/** Folds a text as the search compares it: lower case, accents taken off ('Café' → 'cafe'). */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en')
}

// A word: letters and digits, joined by hyphens, apostrophes or dots written inside it ('wi-fi',
// "children's", 'u.s'); the joiners are dropped, so 'Wi-Fi' and 'wifi' are one word.
const wordPattern = /[\p{L}\p{N}]+(?:[-‐‑'’.][\p{L}\p{N}]+)*/gu
const joiners = /[-‐‑'’.]/g

/** Splits a text into its folded words, in order ('Wi-Fi & Café' → ['wifi', 'cafe']). */
export function words(text: string): string[] {
  return (fold(text).match(wordPattern) ?? []).map((word) => word.replace(joiners, ''))
}

// Stems are worked out once per distinct word: an index of 100,000 businesses reads millions of words.
const keys = new Map<string, string>()

/**
 * The key a word is indexed and searched by: its Porter2 stem. Porter2 keeps the one who does a
 * thing apart from the doing ('groomer', 'grooming' → 'groom'); a visitor typing either means both,
 * so a stem ending in -er (six letters or more) is keyed as the -ing word would be.
 */
export function wordKey(word: string): string {
  let key = keys.get(word)
  if (key !== undefined) return key
  key = stem(word)
  if (key.length >= 6 && key.endsWith('er')) key = stem(`${key.slice(0, -2)}ing`)
  if (keys.size > 200_000) keys.clear()
  keys.set(word, key)
  return key
}

/** The keys of a text's words, in order. */
export function keysOf(text: string): string[] {
  return words(text).map(wordKey)
}
