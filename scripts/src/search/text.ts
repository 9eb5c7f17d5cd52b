import stem from 'wink-porter2-stemmer'

// How the search reads text, the same for the index and for what a visitor types: folded (lower
// case, no accents), split into words, each word keyed by its English stem (Porter2), so that
// 'Café' is 'cafe', 'Wi-Fi' is 'wifi', and 'groomers', 'grooming' and 'groomer' share one key.

/** Folds a text as the search compares it: lower case, accents taken off ('Café' → 'cafe'). */
export function fold(text: string): string {
  // ASCII has no accents to take off, and its lower case is the same in every locale: most texts
  // of a catalog are, and an index build folds each several times.
  if (ascii.test(text)) return text.toLowerCase()
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en')
}

const ascii = /^[\t\n\r -~]*$/

// A word: letters and digits, joined by hyphens, apostrophes or dots written inside it ('wi-fi',
// "children's", 'u.s'); the joiners are dropped, so 'Wi-Fi' and 'wifi' are one word.
const wordPattern = /[\p{L}\p{N}]+(?:[-‐‑'’.][\p{L}\p{N}]+)*/gu
const joiners = /[-‐‑'’.]/g

/** Splits a text into its folded words, in order ('Wi-Fi & Café' → ['wifi', 'cafe']). */
export function words(text: string): string[] {
  return (fold(text).match(wordPattern) ?? []).map((word) => word.replace(joiners, ''))
}

/**
 * The key a word is indexed and searched by: its Porter2 stem. Porter2 keeps the one who does a
 * thing apart from the doing ('groomer', 'grooming' → 'groom'); a visitor typing either means both,
 * so a stem ending in -er (six letters or more) is keyed as the -ing word would be.
 */
export function wordKey(word: string): string {
  const key = stem(word)
  return key.length >= 6 && key.endsWith('er') ? stem(`${key.slice(0, -2)}ing`) : key
}

/** The keys of a text's words, in order (each worked out by `keyOf`: a WordKeys's, to key many texts). */
export function keysOf(text: string, keyOf: (word: string) => string = wordKey): string[] {
  return words(text).map(keyOf)
}

/**
 * Keys words as wordKey does, each distinct word once: made by whoever keys many texts (an index
 * build, a request for the console's list) and dropped with it. Stemming is most of an index
 * build's time (10,000 businesses: 1.1 s with it, 2.4 s without, README "Search"); a query's few
 * words need none.
 */
export class WordKeys {
  readonly #known = new Map<string, string>()

  /** The key of a word (wordKey), worked out the first time the word is met. */
  readonly of = (word: string): string => {
    let key = this.#known.get(word)
    if (key === undefined) {
      key = wordKey(word)
      this.#known.set(word, key)
    }
    return key
  }
}
