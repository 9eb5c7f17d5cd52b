import { matchCategoryLabel } from '../category.ts'
import { readHoursLine } from '../hours.ts'
import { SMALL_WORDS } from '../small-words.ts'
import { ABBREVIATIONS, BULLET, endsSentence, isShouted } from './text.ts'

// Fields, name: the name line of an entry, its tagline, and what a name (or a heading) looks like.

/** 'Name:' or 'Business name:' in front of a name, as a labelled list opens each entry. */
export const NAME_LABEL = /^(?:business\s+)?name\s*:\s*/i

/** Words of a list's title or page furniture ('Business Directory', 'Last updated'), not of a business. */
export const DIRECTORY_WORDS =
  /\b(?:directory|listings?|last\s+updated|updated|compiled|table\s+of\s+contents|page\s+\d+)\b/i

// What people and spreadsheets put between a name and its tagline. SPEC §5: the name is the text
// before the hyphen; a hyphen inside a word ('Stop-N-Go') is part of the name, so a dash separates
// only with spaces around it, as a bar, tilde, middle dot, bullet, slash or double colon does. An em
// dash or a double hyphen separates even between two words ('Bluff City Realty—Farms and land').
const NAME_SEPARATOR = /\s+(?:-{1,2}|[–—~|·•/]|::)\s+|(?<=[\p{L}\d.'’)])(?:—|--)(?=[\p{L}\d"“(])/u

/**
 * Splits a name line into the name and its tagline, at the first separator: a dash or other mark
 * (NAME_SEPARATOR), a spreadsheet's tab, or a colon after a name of two words or more ('Crooked
 * Vine Winery: tasting room'), never a label's colon ('Phone:', 'Tasting room: Thu-Sat noon-6').
 */
export function splitNameLine(text: string, tab?: number): [string, string | null] {
  const bullet = BULLET.exec(text)
  const bare = bullet ? text.slice(bullet[0].length) : text
  const label = NAME_LABEL.exec(bare)
  const withoutLabel = label ? bare.slice(label[0].length) : bare
  const skipped = text.length - withoutLabel.length
  const cuts: { at: number; length: number }[] = []
  const mark = NAME_SEPARATOR.exec(withoutLabel)
  if (mark) cuts.push({ at: mark.index, length: mark[0].length })
  if (tab !== undefined && tab > skipped) cuts.push({ at: tab - skipped, length: 0 })
  const colon = /:\s+/.exec(withoutLabel)
  if (colon && colonEndsName(withoutLabel.slice(0, colon.index), withoutLabel))
    cuts.push({ at: colon.index, length: colon[0].length })
  const cut = cuts.sort((a, b) => a.at - b.at)[0]
  if (cut === undefined) return [withoutLabel, null]
  const tagline = withoutLabel.slice(cut.at + cut.length).trim()
  return [withoutLabel.slice(0, cut.at), tagline === '' ? null : tagline]
}

/** Tells whether a colon ends a name ('Suds & Duds Laundromat: coin laundry'), not a label before a field. */
function colonEndsName(before: string, line: string): boolean {
  const words = before.split(/\s+/).filter((word) => /[\p{L}\d]/u.test(word))
  if (words.length < 2 || readHoursLine(line) !== null) return false
  const main = words.filter((word) => !SMALL_WORDS.has(word.toLowerCase()))
  return main.length > 0 && main.every((word) => /^["“'(]?[\p{Lu}\d]/u.test(word))
}

/** The name without its bullet, decorations ('== Name ==', '**Name**') and quotes. */
export function cleanName(text: string): string {
  const name = text
    .replace(BULLET, '')
    // Decorations a volunteer puts around a name: '== Name ==', '**Name**', '# Name', 'Name:'.
    .replace(/^[\s=#*_~>•·]+|[\s=#*_~<:•·]+$/g, '')
    .trim()
  const quoted = /^["“'](.*)["”']$/.exec(name)
  return (quoted?.[1] ?? name).trim()
}

/** Tells whether a line reads like a business name: short, every main word capitalised, no sentence. */
export function looksLikeName(text: string, tab?: number): boolean {
  const [namePart] = splitNameLine(text, tab)
  const name = cleanName(namePart)
  if (!looksLikeShortName(name, 60)) return false
  const words = name.split(/\s+/).filter((word) => /[\p{L}\d]/u.test(word) && !SMALL_WORDS.has(word.toLowerCase()))
  return words.length > 0 && words.every((word) => /^["“'(]?[\p{Lu}\d]/u.test(word))
}

/** Tells whether a text is short enough for a name and does not end a sentence. */
export function looksLikeShortName(text: string, maxLength = 40): boolean {
  const name = cleanName(text)
  if (name.length < 2 || name.length > maxLength || name.split(/\s+/).length > 8) return false
  return !/[.!?:;,]$/.test(name) || ABBREVIATIONS.test(name)
}

/** Tells whether a line heads a section of the list: '=== DINING ===', 'Shopping:', 'LODGING'. */
export function isSectionHeading(text: string): boolean {
  const decorated = /^[=#*~_-]{2,}|[=#*~_-]{2,}$/.test(text) || /:$/.test(text)
  const name = cleanName(text)
  const letters = name.replace(/[^\p{L}]/gu, '')
  const shouting = letters.length >= 3 && letters === letters.toUpperCase()
  return decorated || (shouting && matchCategoryLabel(name) !== null)
}

/** Tells whether a first line is a paragraph of prose (eight words or more, a sentence) rather than a name. */
export function looksLikeProse(nameText: string, firstLine: string): boolean {
  const words = nameText.trim().split(/\s+/).length
  return words >= 8 && (endsSentence(firstLine) || firstLine.length > 60)
}

/** Tells whether a name with nothing below it is a heading: shouted, a title, or ending in a colon. */
export function isHeading(name: string): boolean {
  return isShouted(name) || DIRECTORY_WORDS.test(name) || /:$/.test(name)
}
