// Small text helpers more than one stage of the parser uses.

// Abbreviations whose dot does not end a sentence in a Roland listing.
export const ABBREVIATIONS = /\b(?:St|Rd|Dr|Mr|Mrs|Ms|Jr|Sr|Hwy|Ave|Ln|Mt|No|Co|Inc|Est|approx|vs|etc|[A-Z])\.$/

/** Tells whether a text ends a sentence: a full stop, '!', '?' or ':' (maybe inside a quote or bracket). */
export function endsSentence(text: string): boolean {
  return /[.!?:]["”')]?$/.test(text)
}

/** Drops the punctuation after a word or address ('example.com).' gives 'example.com'). */
export function stripTrailing(text: string): string {
  return text.replace(/[.,;:!?'"”’)\]]+$/, '')
}

/** The letters of a text left once every match of a pattern is taken out. */
export function leftover(text: string, pattern: RegExp): string {
  return text
    .replace(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`), ' ')
    .replace(/[^\p{L}]/gu, '')
}

/** Tells whether a text is typed in capitals (three letters or more), as a shouted note or heading is. */
export function isShouted(text: string): boolean {
  const letters = text.replace(/[^\p{L}]/gu, '')
  return letters.length >= 3 && letters === letters.toUpperCase() && letters !== letters.toLowerCase()
}

// A list's bullet or number in front of a line: '- ', '• ', '▪ ', '> ', '1. ', '12) ', '(3) ', '#4 ' (never
// an area code: '(501) 555-0123')
// (and the Symbol-font bullets a word processor leaves in pasted text).
export const BULLET = /^(?:[-*•·◦‣▪▫►▸▹→⁃∙○●■□–—+>\uf0a7\uf0b7\uf0d8\uf076]|\d{1,2}[.)]|\(\d{1,2}\)|#\d{1,2}[.):]?)\s+/
