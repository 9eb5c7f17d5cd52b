// wink-porter2-stemmer ships no types: it exports one function, the English Porter2 stemmer.
declare module 'wink-porter2-stemmer' {
  /** Stems one lower-case English word ('groomers' → 'groomer', 'grooming' → 'groom'). */
  export default function stem(word: string): string
}
