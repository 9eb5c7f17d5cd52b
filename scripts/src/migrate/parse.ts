import { textCharacterProblem } from '../content/schema.ts'
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js'
import { DEFAULT_CATEGORY, guessCategory, matchCategoryLabel, type BusinessCategory } from './category.ts'
import { MAX_HOURS_LENGTH, parseHours, readHoursLine, stripHoursLabel, type HoursRow } from './hours.ts'
import { SMALL_WORDS } from './small-words.ts'
import { SlugClaims, slugify } from './slug.ts'
import { escapeRegExp } from '../text/index.ts'

export type { BusinessCategory } from './category.ts'
export type { ClosedHoursRow, DayOfWeek, HoursRow, OpenHoursRow } from './hours.ts'

/** The largest Roland.txt we accept: 5 MB, far above any town's list, far below a mistaken upload. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024

/** short_description is cut to 147 characters plus '...' when longer than this (SPEC §5). */
export const SHORT_DESCRIPTION_LIMIT = 150

/** One business read from Roland.txt, ready for the importer; null where the file says nothing. */
export interface ParsedBusiness {
  /** 0-based position among the file's businesses; stored as metadata.originalIndex. */
  index: number
  /** 1-based line of the file where the business starts, so warnings can point at it. */
  line: number
  name: string
  slug: string
  category: BusinessCategory
  /** Normalised as '(501) 555-0123'. */
  phone: string | null
  /** An absolute http(s) URL. */
  website: string | null
  address: string | null
  hours: string | null
  short_description: string | null
  /** Paragraphs separated by a blank line ('\n\n'). */
  full_description: string | null
  /** Services and features in file order; the first is the featured one. */
  services: string[]
  hours_detail: HoursRow[]
  /** Plain-language notes for the operator about what was missing or changed. */
  warnings: string[]
}

/** A block of the file that is not a business (a title, a separator note), with the reason. */
export interface SkippedBlock {
  line: number
  text: string
  reason: string
}

/** What parsing a whole file found: the businesses and the blocks it left out. */
export interface RolandParseReport {
  businesses: ParsedBusiness[]
  skipped: SkippedBlock[]
}

/** What is wrong with a Roland.txt file as a whole. */
export type RolandFileProblem = 'empty' | 'too-large' | 'binary' | 'bad-character' | 'no-businesses'

/** Raised when Roland.txt cannot be read as a business list; the message says how to fix the file. */
export class RolandFileError extends Error {
  readonly problem: RolandFileProblem

  constructor(problem: RolandFileProblem, message: string) {
    super(message)
    this.name = 'RolandFileError'
    this.problem = problem
  }
}

/** Decodes the bytes of Roland.txt as UTF-8 text, rejecting empty, oversized and binary files. */
export function decodeRolandFile(bytes: Uint8Array): string {
  if (bytes.length === 0) {
    throw new RolandFileError(
      'empty',
      'Roland.txt is empty: add the businesses, one per block with a blank line between them, and upload it again.',
    )
  }
  if (bytes.length > MAX_FILE_BYTES) {
    const megabytes = (bytes.length / (1024 * 1024)).toFixed(1)
    throw new RolandFileError(
      'too-large',
      `Roland.txt is ${megabytes} MB, over the ${MAX_FILE_BYTES / 1024 / 1024} MB limit: check that it is the business list (a plain text file of a few hundred KB at most) and not another file.`,
    )
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new RolandFileError(
      'binary',
      'Roland.txt is saved as UTF-16 text: open it in a text editor and save it again with the UTF-8 encoding.',
    )
  }
  const nul = bytes.indexOf(0)
  if (nul !== -1) {
    throw new RolandFileError(
      'binary',
      `Roland.txt contains binary data (a NUL byte at byte ${nul}), so it is not a plain text file: export the list as plain text (.txt, UTF-8) and upload that.`,
    )
  }
  const invalid = firstInvalidUtf8Byte(bytes)
  if (invalid !== -1) {
    const line = bytes.subarray(0, invalid).reduce((count, byte) => count + (byte === 0x0a ? 1 : 0), 1)
    throw new RolandFileError(
      'binary',
      `Roland.txt is not valid UTF-8 text (first bad byte on line ${line}): it was probably saved as Windows-1252 ("ANSI") or is not a text file; save it again with the UTF-8 encoding.`,
    )
  }
  // The decoder drops a byte-order mark, which Windows editors like to add.
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  if (text.trim() === '') {
    throw new RolandFileError(
      'empty',
      'Roland.txt has only blank lines: add the businesses, one per block with a blank line between them, and upload it again.',
    )
  }
  return text
}

/** How to read a list. */
export interface ParseOptions {
  /** The country the list's phone numbers are dialled in (the town's, ISO 3166 code); 'US' by default. */
  country?: CountryCode
  /** The town's state (town_settings), whose towns a list names without a ZIP ('Pine Hollow, CO'); none by default. */
  place?: ListPlace | undefined
}

/** The town's state, by name and postal code ('Colorado', 'CO'), as the town settings give them. */
export interface ListPlace {
  state: string
  state_code: string
}

/** Parses the text of Roland.txt into businesses; throws RolandFileError when none can be found. */
export function parseRolandText(text: string, options: ParseOptions = {}): ParsedBusiness[] {
  return parseRolandTextReport(text, options).businesses
}

/** Parses the text of Roland.txt into businesses and the skipped blocks, for a job's summary. */
export function parseRolandTextReport(text: string, options: ParseOptions = {}): RolandParseReport {
  return readList(text, options)
}

function readList(text: string, { country = 'US', place }: ParseOptions): RolandParseReport {
  refuseBadCharacters(text)
  const list = listReader(country, place)
  const drafts: Draft[] = []
  const skipped: SkippedBlock[] = []
  for (const { lines: block, joined } of splitBlocks(text, list).flatMap((block) => splitEntries(block, list))) {
    const first = block[0]
    if (first === undefined) continue
    const result = readBlock(block, list)
    if (result.kind === 'business') {
      const previous = drafts.at(-1)
      // The operator checks these in the dry run: a name-like line inside a description could be mistaken.
      if (joined && previous)
        result.draft.warnings.push(
          `started a new business at line ${first.line} without a blank line above it: check that "${result.draft.name}" is not part of "${previous.name}"`,
        )
      drafts.push(result.draft)
    } else if (result.kind === 'paragraph') {
      const previous = drafts.at(-1)
      if (previous) previous.paragraphs.push(result.text)
      else
        skipped.push({
          line: first.line,
          text: first.text,
          reason: 'text before the first business (an introduction, not a business)',
        })
    } else {
      skipped.push({ line: first.line, text: first.text, reason: result.reason })
    }
  }
  if (drafts.length === 0) {
    throw new RolandFileError(
      'no-businesses',
      'Roland.txt has no recognisable business: give each business its own block, separated by a blank line, with the name on the first line and a phone, website, address or description on the lines below it.',
    )
  }
  const slugs = new SlugClaims()
  return { businesses: drafts.map((draft, index) => finish(draft, index, slugs)), skipped }
}

/**
 * A line of the file, its blanks made plain; tab is where a tab between words was (a spreadsheet's
 * column); header marks the column names of a table pasted from a spreadsheet.
 */
type Line = { text: string; line: number; tab?: number; header?: true }

/**
 * Refuses a file with an invisible control character (issue 43): the text fields' own rule
 * (textCharacterProblem), so what the editors refuse never comes in by the import either. The
 * whole file is refused, naming the line, rather than the character dropped: nothing is imported
 * that the operator has not seen, and a stray character often means a damaged or mis-saved file.
 * A vertical tab or form feed (Word's line and page breaks, pasted) is read as a space, as tabs are.
 */
function refuseBadCharacters(text: string): void {
  const lines = text.split(/\r\n|\r|\n/)
  for (const [index, raw] of lines.entries()) {
    const problem = textCharacterProblem(`line ${index + 1}`, raw.replace(/[\v\f]/g, ' '))
    if (problem === null) continue
    // eslint-disable-next-line no-control-regex -- showing where the control character is
    const shown = raw.replace(/[\u0000-\u001F\u007F-\u009F]/g, '\uFFFD').trim()
    throw new RolandFileError(
      'bad-character',
      `Roland.txt ${problem}. The line, with it shown as \uFFFD: "${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown}". Nothing was imported: fix the line in a text editor and import the file again.`,
    )
  }
}

// Lines made only of dashes, equals signs, stars and the like separate entries just as a blank line does.
const SEPARATOR = /^[-=_*~#.•·+\s]{3,}$/

/** The cells of a line, split at its tabs, each with its blanks made plain ('' for an empty cell). */
function cellsOf(raw: string): string[] {
  return raw.split('\t').map((cell) =>
    cell
      .replace(/[\u00a0\u2000-\u200b\u202f\u3000]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  )
}

/** Reads one line of the file: tabs, non-breaking spaces and trailing blanks are how copied text differs from typed text. */
function readLine(raw: string, line: number): Line {
  const columns = cellsOf(raw).filter((column) => column !== '')
  const text = columns.join(' ')
  return columns.length > 1 ? { text, line, tab: columns[0]?.length ?? 0 } : { text, line }
}

// A row of a table copied from a spreadsheet: this many cells with text or more, tabs between them
// (a name and its tagline make two). Each row is one business, its cells its fields.
const TABLE_ROW_CELLS = 3

// The column names people give a spreadsheet of businesses, and the label each column's cells are
// read under (null: the name). A row of them, above the businesses, says what each column holds.
const COLUMN_NAMES: ReadonlyArray<readonly [RegExp, string | null]> = [
  [/^(?:(?:business|company|member)(?:\s+name)?|name|organi[sz]ation)$/i, null],
  [/^(?:phone|telephone|tel|ph)\.?(?:\s+(?:number|no\.?|#))?$/i, 'Phone'],
  [/^(?:(?:street|physical|mailing)\s+)?(?:address|location)$/i, 'Address'],
  [/^(?:(?:opening\s+|business\s+)?hours(?:\s+of\s+operation)?|hrs|open)$/i, 'Hours'],
  [/^(?:website|web\s*site|web|url|site|homepage|facebook(?:\s+page)?)$/i, 'Website'],
  [/^e-?mail(?:\s+address)?$/i, 'Email'],
  [/^(?:description|about(?:\s+us)?|what\s+they\s+do|details|notes?)$/i, 'Description'],
  [/^(?:services|features|special\s+features|amenities|specialties)$/i, 'Services'],
  [/^category$/i, 'Category'],
]

/** A table's columns: the label of each (null: the name; undefined: not a column the parser knows). */
type TableColumns = (string | null | undefined)[]

/** Reads a row of column names ('Business Name', 'Phone', 'Hours' …), or null when the row is not one. */
function readColumnNames(cells: string[]): TableColumns | null {
  const columns = cells.map((cell) =>
    cell === '' ? undefined : COLUMN_NAMES.find(([pattern]) => pattern.test(cell.replace(/:$/, '')))?.[1],
  )
  const known = columns.filter((column) => column !== undefined)
  const named = cells.filter((cell) => cell !== '')
  return known.length === named.length && columns.includes(null) ? columns : null
}

/**
 * The lines of a business typed as a table row: its name (in the name column, else the first cell),
 * then each other cell under its column's label ('Phone: 870-555-0401'), or as it is without one.
 */
function tableRow(cells: string[], columns: TableColumns | null, line: number): Line[] {
  const nameAt = columns?.indexOf(null) ?? -1
  const at = nameAt !== -1 && cells[nameAt] !== '' ? nameAt : cells.findIndex((cell) => cell !== '')
  const lines: Line[] = [{ text: cells[at] ?? '', line }]
  for (const [i, cell] of cells.entries()) {
    if (i === at || cell === '') continue
    const label = columns?.[i]
    lines.push({ text: label ? `${label}: ${cell}` : cell, line })
  }
  return lines
}

function splitBlocks(text: string, list: ListReader): Line[][] {
  const raws = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
  const lines = raws.map((raw, i) => readLine(raw, i + 1))
  const blocks: Line[][] = []
  let current: Line[] = []
  let columns: TableColumns | null = null
  for (const [i, line] of lines.entries()) {
    // A table pasted from a spreadsheet: a row of column names, then a business on each row. Without
    // the names, a row is one when a cell after its first gives a phone, a website or an address.
    const cells = line.tab === undefined ? [] : cellsOf(raws[i] ?? '')
    if (cells.filter((cell) => cell !== '').length >= TABLE_ROW_CELLS) {
      const names = readColumnNames(cells)
      const row = names === null ? tableRow(cells, columns, line.line) : [{ ...line, header: true as const }]
      if (names !== null || columns !== null || row.slice(1).some((cell) => isContact(classify(cell.text, list)))) {
        if (current.length > 0) blocks.push(current)
        current = []
        if (names !== null) columns = names
        blocks.push(row)
        continue
      }
    }
    // A rule right under a lone first line underlines a name ('Big Rock Coffee' / '-----') rather than ending it.
    // A title ruled off above the first business is not an underline: a name line followed by fields comes next.
    const next = lines[i + 1]?.text ?? ''
    const nextStartsEntry = classify(next, list).kind === 'description' && looksLikeName(next, lines[i + 1]?.tab)
    const underline = current.length === 1 && current[0]?.line === line.line - 1 && next !== '' && !nextStartsEntry
    if (SEPARATOR.test(line.text) && underline) continue
    if (line.text === '' || SEPARATOR.test(line.text)) {
      if (current.length > 0) blocks.push(current)
      current = []
    } else {
      current.push(line)
    }
  }
  if (current.length > 0) blocks.push(current)
  return blocks
}

/** The lines of one entry, and whether it was split from the entry above without a blank line. */
type Entry = { lines: Line[]; joined: boolean }

/**
 * Splits a block into entries where a volunteer left out the blank line: a name line followed by
 * its fields, after an entry that already has its own, starts the next business.
 */
function splitEntries(block: Line[], list: ListReader): Entry[] {
  const kinds = block.map((line) => classify(line.text, list))
  const entries: Entry[] = []
  let start = 0
  for (let i = 1; i < block.length; i += 1) {
    if (!startsEntry(block, kinds, start, i, list)) continue
    entries.push({ lines: block.slice(start, i), joined: entries.length > 0 })
    start = i
  }
  entries.push({ lines: block.slice(start), joined: entries.length > 0 })
  return entries
}

type ContactKind = 'phone' | 'website' | 'address'

const isContact = (kind: LineKind | undefined): kind is LineKind & { kind: ContactKind } =>
  kind?.kind === 'phone' || kind?.kind === 'website' || kind?.kind === 'address'

// How much each piece of evidence says that a line starts the next business (see boundaryScore).
const BOUNDARY = {
  /** Reads like a name: short, every main word capitalised. */
  nameShaped: 0.4,
  /** Short, but typed in lower case. */
  shortLine: 0.05,
  /** 'Name - what we do': the usual shape of a first line. */
  tagline: 0.1,
  /** A field the entry above already has comes again below (a second phone, a second address). */
  repeatedField: 0.3,
  /** A phone, website or address right below. */
  fieldNext: 0.15,
  /** That field is one the entry above has too. */
  fieldNextRepeats: 0.05,
  /** Two kinds of field below. */
  twoFieldsBelow: 0.15,
  /** Typed in capitals inside an entry: a shouted note ('CALL AHEAD…'), rarely a name. */
  shouted: -0.3,
  /** A phone, web address or 'Label:' in the name part: a field, not a name. */
  fieldInName: -0.5,
} as const

/**
 * Tells whether line i starts a new business inside a block with no blank line before it: only
 * when that is more likely than not, weighing the line's shape and the fields around it.
 */
function startsEntry(block: Line[], kinds: LineKind[], start: number, i: number, list: ListReader): boolean {
  return boundaryScore(block, kinds, start, i, list) > 0.5
}

/** Scores from 0 to 1 how likely line i of a block is the name line of the next business. */
function boundaryScore(block: Line[], kinds: LineKind[], start: number, i: number, list: ListReader): number {
  const kind = kinds[i]
  const text = block[i]?.text ?? ''
  if (kind?.kind !== 'description') return 0
  // A bulleted name ('- Lost Creek Coffee House') may start an entry, after the fields of the one
  // above as after its description. Under another bullet, a features label or a line that announces
  // a list ('We carry:') it reads as an item of that list, unless a new set of fields comes below it
  // (two kinds, one of them a field the entry above already has): then the list has ended and a
  // bulleted name begins the next entry.
  const lineAbove = kinds[i - 1]
  const listItem =
    kind.bullet &&
    ((lineAbove?.kind === 'description' && lineAbove.bullet) ||
      lineAbove?.kind === 'features' ||
      /:$/.test(block[i - 1]?.text ?? ''))
  const below = contactsBelow(block, kinds, i)
  if (below.size === 0) return 0
  // 'Name:' opens every entry of a labelled list, so a second one is the next business.
  if (NAME_LABEL.test(text)) return 1
  // '=== DINING ===', 'Shopping:' or the list's title typed right above the first business.
  // (A title block carries the town's own address, never a phone or a website.)
  if (i === start + 1) {
    const above = block[start]?.text ?? ''
    const heading = isSectionHeading(above) || (DIRECTORY_WORDS.test(above) && looksLikeShortName(above, 60))
    return heading && looksLikeName(text, block[i]?.tab) && !(below.size === 1 && below.has('address')) ? 0.9 : 0
  }
  // A line ending in a comma or 'and' goes on in the next one: 'Tools, paint,' / 'Feed and Seed'.
  if (/(?:[,;&]|\band)$/i.test(block[i - 1]?.text ?? '')) return 0
  const above = new Set(
    kinds
      .slice(start + 1, i)
      .filter(isContact)
      .map((line) => line.kind),
  )
  if (above.size === 0) return 0
  const repeated = [...below].some((field) => above.has(field))
  if (listItem && !(repeated && below.size >= 2)) return 0
  const next = kinds[i + 1]
  const nextRepeats = isContact(next) && above.has(next.kind)
  const tab = block[i]?.tab
  const [namePart, tagline] = splitNameLine(text, tab)
  const nameShaped = looksLikeName(text, tab)
  // Plain lines under an empty 'Features:' label are items; only a repeated field right below ends the list.
  if (inFeatureList(kinds, start, i) && !(repeated && nextRepeats && looksLikeShortName(text))) return 0
  let score = nameShaped ? BOUNDARY.nameShaped : looksLikeShortName(text) ? BOUNDARY.shortLine : 0
  if (score === 0) return 0
  if (tagline !== null) score += BOUNDARY.tagline
  if (repeated) score += BOUNDARY.repeatedField
  if (isContact(next)) score += BOUNDARY.fieldNext
  if (nextRepeats) score += BOUNDARY.fieldNextRepeats
  if (below.size >= 2) score += BOUNDARY.twoFieldsBelow
  if (isShouted(namePart) && !isSectionHeading(text)) score += BOUNDARY.shouted
  if (
    list.phones(namePart).length > 0 ||
    findUrl(namePart) !== null ||
    findDomain(namePart) !== null ||
    /\S:\s/.test(namePart)
  )
    score += BOUNDARY.fieldInName
  return Math.max(0, Math.min(1, score))
}

function isShouted(text: string): boolean {
  const letters = text.replace(/[^\p{L}]/gu, '')
  return letters.length >= 3 && letters === letters.toUpperCase() && letters !== letters.toLowerCase()
}

/** The contact fields under a would-be name line, up to the next name-like line. */
function contactsBelow(block: Line[], kinds: LineKind[], i: number): Set<ContactKind> {
  const found = new Set<ContactKind>()
  for (let j = i + 1; j < Math.min(block.length, i + 6); j += 1) {
    const kind = kinds[j]
    if (isContact(kind)) found.add(kind.kind)
    else if (kind?.kind === 'description' && !kind.bullet && looksLikeName(block[j]?.text ?? '', block[j]?.tab)) break
  }
  return found
}

/** Tells whether line i would be read as an item of a plain features list (see readLines). */
function inFeatureList(kinds: LineKind[], start: number, i: number): boolean {
  for (let j = i - 1; j > start; j -= 1) {
    const kind = kinds[j]
    if (kind?.kind === 'features') return kind.value === '' || /[,;]$/.test(kind.value)
    // Bullet items end where a plain line comes: that line is not one of them.
    if (kind?.kind !== 'description' || kind.bullet || /[.!?]$/.test(kind.value)) return false
  }
  return false
}

/** Tells whether a line reads like a business name: short, every main word capitalised, no sentence. */
function looksLikeName(text: string, tab?: number): boolean {
  const [namePart] = splitNameLine(text, tab)
  const name = cleanName(namePart)
  if (!looksLikeShortName(name, 60)) return false
  const words = name.split(/\s+/).filter((word) => /[\p{L}\d]/u.test(word) && !SMALL_WORDS.has(word.toLowerCase()))
  return words.length > 0 && words.every((word) => /^["“'(]?[\p{Lu}\d]/u.test(word))
}

function looksLikeShortName(text: string, maxLength = 40): boolean {
  const name = cleanName(text)
  if (name.length < 2 || name.length > maxLength || name.split(/\s+/).length > 8) return false
  return !/[.!?:;,]$/.test(name) || ABBREVIATIONS.test(name)
}

function isSectionHeading(text: string): boolean {
  const decorated = /^[=#*~_-]{2,}|[=#*~_-]{2,}$/.test(text) || /:$/.test(text)
  const name = cleanName(text)
  const letters = name.replace(/[^\p{L}]/gu, '')
  const shouting = letters.length >= 3 && letters === letters.toUpperCase()
  return decorated || (shouting && matchCategoryLabel(name) !== null)
}

type Draft = {
  line: number
  name: string
  phone: string | null
  extraPhones: string[]
  website: string | null
  address: string | null
  hours: string | null
  /** The season the hours line's label named, kept in case another season's line follows it. */
  hoursSeason: string | null
  hoursWarnings: string[]
  /** The services as typed, first spelling kept, by their lower-case name. */
  services: Map<string, string>
  paragraphs: string[]
  categoryLabel: string | null
  warnings: string[]
}

type BlockResult =
  { kind: 'business'; draft: Draft } | { kind: 'paragraph'; text: string } | { kind: 'skip'; reason: string }

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g
const SCHEME_URL = /\bhttps?:\/\/[^\s<>"'()]+/i
const WWW_URL = /(?<![@\w.-])www\.[^\s<>"'()]+/i
const BARE_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}(?::\d{1,5})?(?:[/?#]\S*)?$/i
// A list's bullet or number in front of a line: '- ', '• ', '▪ ', '> ', '1. ', '12) ', '(3) ', '#4 ' (never
// an area code: '(501) 555-0123')
// (and the Symbol-font bullets a word processor leaves in pasted text).
const BULLET = /^(?:[-*•·◦‣▪▫►▸▹→⁃∙○●■□–—+>\uf0a7\uf0b7\uf0d8\uf076]|\d{1,2}[.)]|\(\d{1,2}\)|#\d{1,2}[.):]?)\s+/

const NAME_LABEL = /^(?:business\s+)?name\s*:\s*/i
const FAX_LABEL = /^fax\b/i
const EMAIL_LABEL = /^e-?mail\b\s*[:\-–]?\s*/i
const CATEGORY_LABEL = /^category\s*:\s*/i
const FEATURES_LABEL =
  /^(?:special\s+features|features|services(?:\s+offered)?|amenities|specialties)\s*(?::|\s[-–—]\s)\s*/i
const WEBSITE_LABEL = /^(?:website|web\s*site|web|url|site|homepage|online|facebook)\s*(?::|\s[-–—]\s)\s*/i
const ADDRESS_LABEL = /^(?:(?:street|physical|mailing)\s+)?(?:address|addr|location|located\s+at)\s*(?::|\s[-–—]\s)\s*/i
const PHONE_LABEL = /^(?:phone|telephone|tel|ph|call|cell|mobile|office)\b\.?\s*(?:number|no\.?|#)?\s*(?::|\s[-–—]\s)/i
const DESCRIPTION_LABEL = /^(?:description|about|notes?)\s*:\s*/i

const STREET_WORDS =
  'rd|road|st|street|hwy|highway|ave|avenue|dr|drive|ln|lane|blvd|boulevard|way|ct|court|pkwy|parkway|loop|trail|trl|cir|circle|pl|place|pike|route|rte|cove|cv|bend|ridge|ter|terrace|plaza|hollow|run|landing'
const STREET_ADDRESS = new RegExp(`^\\d{1,6}[a-z]?\\s+(?:[\\w.'-]+\\s+){0,4}?(?:${STREET_WORDS})\\b`, 'i')
// Other towns' lists give their own state: any state's postal code with a ZIP reads as an address.
const STATES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY'
const ROAD_FIRST = new RegExp(
  `^(?:(?:state\\s+)?(?:highway|hwy)\\s*\\d+|corner\\s+of|intersection\\s+of|p\\.?\\s?o\\.?\\s+box\\s+\\d+)\\b`,
  'i',
)

/**
 * How a list names a place: a state with a ZIP ('CO 80401', 'Colorado 80401'), and a town on its own
 * line ('Willow Bend, TX 75455'). A town of the list's own state (`place`, the town settings') needs
 * no ZIP: 'Pine Hollow, CO', 'Pine Hollow, Colo.', 'Pine Hollow, Colorado'.
 */
function addressPatterns(place: ListPlace | undefined): AddressPatterns {
  const own = place ? ownStateWords(place) : null
  const zip = '\\d{5}(?:-\\d{4})?'
  const city = '^[A-Z][A-Za-z.]*(?:\\s[A-Z][A-Za-z.]*){0,2}\\s*,?\\s+'
  return {
    stateAndZip: new RegExp(`\\b(?:${STATES}${own ? `|${own}` : ''})\\s*,?\\s+${zip}\\b`),
    cityState: new RegExp(
      `${city}(?:${own ? `(?:${own})\\b(?:\\s*,?\\s*${zip})?|` : ''}(?:${STATES})\\s*,?\\s*${zip})\\.?$`,
    ),
  }
}

/** A state's name, its shortenings with or without a dot ('Ark.', 'Colo') when it is one word, and its postal code. */
function ownStateWords({ state, state_code }: ListPlace): string {
  const name = state.trim()
  const shortenings = /^[A-Za-z]+$/.test(name)
    ? Array.from(
        { length: Math.max(0, name.length - 3) },
        (_, i) => `${escapeRegExp(name.slice(0, name.length - 1 - i))}\\.?`,
      )
    : []
  return [escapeRegExp(name), ...shortenings, escapeRegExp(state_code.trim())].filter((word) => word !== '').join('|')
}

const DIRECTORY_WORDS = /\b(?:directory|listings?|last\s+updated|updated|compiled|table\s+of\s+contents|page\s+\d+)\b/i

type LineKind =
  | { kind: 'phone' }
  | { kind: 'website'; value: string }
  | { kind: 'address'; value: string }
  | { kind: 'hours'; value: string; season?: string | undefined }
  | { kind: 'features'; value: string }
  | { kind: 'category'; value: string }
  | { kind: 'description'; value: string; bullet: boolean }
  | { kind: 'ignored' }

function readBlock(block: Line[], list: ListReader): BlockResult {
  const [first, ...rest] = block
  if (first === undefined) return { kind: 'skip', reason: 'empty block' }
  if (first.header) return { kind: 'skip', reason: 'the column names of a table, not a business' }
  const [nameText, tagline] = splitNameLine(first.text, first.tab)
  const nameKind = classify(nameText, list)
  // An unlabelled line that merely looks like an address or hours is still a name: '24/7 Fitness'.
  const labelled = ADDRESS_LABEL.test(nameText) || stripHoursLabel(nameText) !== null
  if (nameKind.kind !== 'description' && ((nameKind.kind !== 'address' && nameKind.kind !== 'hours') || labelled)) {
    return { kind: 'skip', reason: `starts with ${describeKind(nameKind)} instead of a business name` }
  }
  // A paragraph on its own (a blank line inside a long description) carries on the business above it.
  if (
    looksLikeProse(nameText, first.text) &&
    rest.every((line) => ['description', 'ignored'].includes(classify(line.text, list).kind))
  ) {
    return { kind: 'paragraph', text: block.map((line) => line.text).join(' ') }
  }

  const name = cleanName(nameText)
  const draft: Draft = {
    line: first.line,
    name,
    phone: null,
    extraPhones: [],
    website: null,
    address: null,
    hours: null,
    hoursSeason: null,
    hoursWarnings: [],
    services: new Map(),
    paragraphs: [],
    categoryLabel: null,
    warnings: [],
  }

  // The text after the name's dash is read like any other line: usually a tagline, sometimes a phone.
  const lines: { text: string; tagline: boolean }[] = [
    ...(tagline === null ? [] : [{ text: tagline, tagline: true }]),
    ...rest.map((line) => ({ text: line.text, tagline: false })),
  ]
  const fields = readLines(lines, draft, list)

  const bare = fields === 0 && draft.services.size === 0
  // A title block often carries the town's own address ('Golden, CO 80401'), but never a phone or website.
  const title = DIRECTORY_WORDS.test(name) && draft.phone === null && draft.website === null
  if ((bare && isHeading(name)) || title) return { kind: 'skip', reason: 'a heading, not a business' }
  if (name === '') return { kind: 'skip', reason: 'the first line has no business name' }
  if (fields === 0 && draft.paragraphs.length === 0) {
    return { kind: 'skip', reason: 'no phone, website, address or description below the name' }
  }
  return { kind: 'business', draft }
}

/** Reads the lines below the name into the draft; returns how many contact or hours fields were found. */
function readLines(lines: { text: string; tagline: boolean }[], draft: Draft, list: ListReader): number {
  let fields = 0
  let paragraph: string[] = []
  let previous: LineKind['kind'] | null = null
  // A features list goes on over bullet lines; over plain lines too after an empty 'Features:' label
  // ('list'), or for the next line when the last one ended with a comma ('comma').
  let inFeatures: 'bullets' | 'list' | 'comma' | null = null
  let hoursSeen = false

  const endParagraph = () => {
    if (paragraph.length > 0) draft.paragraphs.push(paragraph.join(' '))
    paragraph = []
  }

  for (const [i, { text, tagline }] of lines.entries()) {
    const bare = text.replace(BULLET, '')
    if (!FAX_LABEL.test(bare) && !EMAIL_LABEL.test(bare)) {
      for (const { phone } of list.phones(text)) {
        if (draft.phone === null) draft.phone = phone
        else if (phone !== draft.phone && !draft.extraPhones.includes(phone)) draft.extraPhones.push(phone)
      }
    }
    const kind = classify(text, list)

    if (inFeatures !== null && kind.kind === 'description') {
      const plainItem =
        inFeatures !== 'bullets' && !kind.bullet && kind.value.length <= 60 && !/[.!?]$/.test(kind.value)
      if (kind.bullet || plainItem) {
        addServices(draft, kind.value)
        if (inFeatures === 'comma' && !kind.bullet) inFeatures = /[,;]$/.test(kind.value) ? 'comma' : 'bullets'
        // Under an empty label, bullets make a bullet list: the first plain line after them ends it.
        if (inFeatures === 'list' && kind.bullet) inFeatures = 'bullets'
        previous = 'features'
        continue
      }
    }
    inFeatures = null

    switch (kind.kind) {
      case 'phone':
        fields += 1
        break
      case 'website': {
        fields += 1
        if (draft.website === null) {
          const website = normaliseWebsite(kind.value)
          if (website === null && !NO_WEBSITE.test(stripTrailing(kind.value)))
            draft.warnings.push(`website "${kind.value}" is not a web address: left out`)
          draft.website = website
        }
        break
      }
      case 'address': {
        fields += 1
        if (draft.address === null) {
          // A two-line address: the street, then 'Golden, CO 80401' on its own line.
          const next = lines[i + 1]?.text
          const joined =
            next !== undefined && list.addresses.cityState.test(next) && !list.addresses.stateAndZip.test(kind.value)
              ? `${kind.value}, ${next}`
              : kind.value
          // A phone typed on the address line is not part of the address.
          draft.address = withoutPhones(joined, list)
            .replace(/\s*[,.;·|•-]*\s*$/, '')
            .replace(/\s+/g, ' ')
            .trim()
        }
        break
      }
      case 'hours': {
        fields += 1
        if (previous === 'hours' && draft.hours !== null) {
          // Hours spread over consecutive lines belong together: 'Mon-Fri 7am-5pm' / 'Sat 8am-noon';
          // lines of two seasons keep their seasons: 'Summer: Daily 6am-8pm; Winter: Sat-Sun 9am-3pm'.
          const seasons = draft.hoursSeason !== null || kind.season !== undefined
          const first = draft.hoursSeason === null ? draft.hours : `${draft.hoursSeason}: ${draft.hours}`
          const joined = seasons
            ? `${first}; ${kind.season === undefined ? '' : `${kind.season}: `}${kind.value}`
            : `${draft.hours}, ${kind.value}`
          // Cut at the line's boundary rather than lose all the hours for being too long (SPEC §5).
          if (joined.length >= MAX_HOURS_LENGTH) {
            draft.hoursWarnings.push(
              `hours "${kind.value}" left out: with them the hours would be ${MAX_HOURS_LENGTH} characters or more`,
            )
          } else {
            draft.hours = joined
            draft.hoursSeason = null
          }
        } else if (hoursSeen && previous !== 'hours') {
          draft.hoursWarnings.push('more than one hours line: kept the first')
        } else {
          draft.hours = kind.value === '' ? null : kind.value
          draft.hoursSeason = kind.season ?? null
        }
        hoursSeen = true
        break
      }
      case 'features':
        addServices(draft, kind.value)
        inFeatures = kind.value === '' ? 'list' : /[,;]$/.test(kind.value) ? 'comma' : 'bullets'
        break
      case 'category':
        draft.categoryLabel ??= kind.value
        break
      case 'description': {
        const url = findUrl(text)
        if (url !== null && draft.website === null) draft.website = normaliseWebsite(url)
        // SPEC §5: description lines are longer than 10 characters; a short line still counts
        // when it ends a sentence the line before began (text wrapped by hand).
        const continues =
          previous === 'description' && !tagline && paragraph.length > 0 && !endsSentence(paragraph.at(-1) ?? '')
        if (kind.value.length > 10 || (continues && kind.value.length > 0)) {
          if (tagline || kind.bullet) endParagraph()
          // A short line without a full stop, then a capitalised one, is a tagline and a sentence
          // ('Open 24/7 for emergencies' / 'Wreckers and lockouts…'), not one sentence wrapped by hand.
          const last = paragraph.at(-1)
          if (last !== undefined && last.length < 50 && !endsSentence(last) && /^\p{Lu}/u.test(kind.value))
            paragraph[paragraph.length - 1] = `${last}.`
          // A tagline typed in lower case after the name's separator still starts the description.
          paragraph.push(tagline ? kind.value.charAt(0).toUpperCase() + kind.value.slice(1) : kind.value)
          if (tagline) endParagraph()
          previous = 'description'
          continue
        }
        break
      }
      case 'ignored':
        break
    }
    endParagraph()
    previous = kind.kind
  }
  endParagraph()
  return fields
}

// How sure each reading of a line is; the line is read the way that scores highest.
const SURE = 1
const LIKELY = 0.9
const PLAIN_ADDRESS = 0.6
const DESCRIPTION = 0.3

/** Reads one line of an entry as the kind of field it most likely is, weighing every reading. */
function classify(text: string, list: ListReader): LineKind {
  let kind = list.kinds.get(text)
  if (kind === undefined) list.kinds.set(text, (kind = classifyLine(text, list)))
  return kind
}

function classifyLine(text: string, list: ListReader): LineKind {
  const bullet = BULLET.exec(text)
  const bare = bullet ? text.slice(bullet[0].length).trim() : text
  const readings = scoreLine(bare, list)
  const best = readings.reduce((top, reading) => (reading.score > top.score ? reading : top), {
    kind: { kind: 'description', value: bare, bullet: bullet !== null },
    score: DESCRIPTION,
  })
  return best.kind
}

/** Every way a line could be read, each with how sure that reading is (0 to 1). */
function scoreLine(bare: string, list: ListReader): { kind: LineKind; score: number }[] {
  const readings: { kind: LineKind; score: number }[] = []
  const add = (kind: LineKind, score: number) => readings.push({ kind, score })
  // Labels say outright what a line is.
  if (FAX_LABEL.test(bare) || EMAIL_LABEL.test(bare)) return [{ kind: { kind: 'ignored' }, score: SURE }]
  if (bare.includes('@') && bare.search(EMAIL) !== -1 && leftover(bare, EMAIL).length <= 12)
    add({ kind: 'ignored' }, LIKELY)
  const category = CATEGORY_LABEL.exec(bare)
  if (category) return [{ kind: { kind: 'category', value: bare.slice(category[0].length).trim() }, score: SURE }]
  const features = FEATURES_LABEL.exec(bare)
  if (features) return [{ kind: { kind: 'features', value: bare.slice(features[0].length).trim() }, score: SURE }]
  const hours = readHoursLine(bare)
  if (hours?.labelled && stripHoursLabel(bare) !== null)
    return [{ kind: { kind: 'hours', value: hours.value }, score: SURE }]
  const website = WEBSITE_LABEL.exec(bare)
  if (website) {
    const value = bare.slice(website[0].length).trim()
    const url = findUrl(value) ?? findDomain(value) ?? value
    return [{ kind: { kind: 'website', value: url }, score: SURE }]
  }
  const address = ADDRESS_LABEL.exec(bare)
  if (address) return [{ kind: { kind: 'address', value: bare.slice(address[0].length).trim() }, score: SURE }]
  const found = list.phones(bare)
  const hasPhone = found.length > 0
  // 'Office:' names a phone as often as the office's hours ('Office: Mon-Fri 9am-5pm').
  if (PHONE_LABEL.test(bare) && (hasPhone || hours === null))
    return [{ kind: hasPhone ? { kind: 'phone' } : { kind: 'ignored' }, score: SURE }]
  const description = DESCRIPTION_LABEL.exec(bare)
  if (description)
    return [
      { kind: { kind: 'description', value: bare.slice(description[0].length).trim(), bullet: false }, score: SURE },
    ]

  // Unlabelled lines: by their content.
  if (hours !== null)
    add({ kind: 'hours', value: hours.value, season: hours.season }, hours.labelled ? LIKELY : hours.score * 0.85)
  const shouted = isShouted(bare) && !endsSentence(bare)
  if (hasPhone) {
    // 'CALL AHEAD: 870-555-0184 AFTER HOURS': a shouted note around a phone is a phone line too, and
    // so is one in the words people put around a number ('Call or text …', 'Text Carla at …').
    add({ kind: 'phone' }, phoneLineScore(bare, found, shouted))
  }
  const url = findUrl(bare)
  const domain = url ?? findDomain(bare)
  if (domain !== null) {
    const rest = leftover(
      bare,
      new RegExp(`${SCHEME_URL.source}|${WWW_URL.source}|\\S+\\.[a-z]{2,24}\\S*`, 'gi'),
    ).length
    // A web address in capitals is still one, with or without 'VISIT US AT' in front of it.
    const score = rest <= 12 ? LIKELY : shouted ? 0.8 : 0.1
    add({ kind: 'website', value: domain }, score)
  }
  if (isAddressLike(bare, list.addresses))
    add({ kind: 'address', value: bare }, list.addresses.stateAndZip.test(bare) ? 0.75 : PLAIN_ADDRESS)
  return readings
}

/** The first bare domain of a line ('BUFFALOCLIMB.EXAMPLE', 'facebook.com/page'), or null. */
function findDomain(text: string): string | null {
  for (const word of withoutEmails(text).split(/\s+/)) {
    const candidate = stripTrailing(word.replace(/^[("'“]+/, ''))
    // 'st.louis' or 'ST.LOUIS' could be a domain; 'St.Louis', typed in mixed case, is a place.
    const host = candidate.split(/[/?#]/)[0] ?? ''
    const oneCase = host === host.toLowerCase() || host === host.toUpperCase()
    if (BARE_DOMAIN.test(candidate) && oneCase && !/^\d+(\.\d+)*$/.test(candidate) && /[a-z]{2,}\./i.test(candidate))
      return candidate
  }
  return null
}

function describeKind(kind: LineKind): string {
  switch (kind.kind) {
    case 'phone':
      return 'a phone number'
    case 'website':
      return 'a website'
    case 'address':
      return 'an address'
    case 'hours':
      return 'opening hours'
    case 'features':
      return 'a features list'
    case 'category':
      return 'a category'
    case 'description':
      return 'a list item'
    case 'ignored':
      return 'an e-mail or fax line'
  }
}

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
function splitNameLine(text: string, tab?: number): [string, string | null] {
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

function cleanName(text: string): string {
  const name = text
    .replace(BULLET, '')
    // Decorations a volunteer puts around a name: '== Name ==', '**Name**', '# Name', 'Name:'.
    .replace(/^[\s=#*_~>•·]+|[\s=#*_~<:•·]+$/g, '')
    .trim()
  const quoted = /^["“'](.*)["”']$/.exec(name)
  return (quoted?.[1] ?? name).trim()
}

function looksLikeProse(nameText: string, firstLine: string): boolean {
  const words = nameText.trim().split(/\s+/).length
  return words >= 8 && (endsSentence(firstLine) || firstLine.length > 60)
}

function isHeading(name: string): boolean {
  return isShouted(name) || DIRECTORY_WORDS.test(name) || /:$/.test(name)
}

function isAddressLike(text: string, addresses: AddressPatterns): boolean {
  const words = text.split(/\s+/).length
  if (words > 15) return false
  if (addresses.stateAndZip.test(text)) return true
  if (words <= 10 && (STREET_ADDRESS.test(text) || ROAD_FIRST.test(text))) return true
  return addresses.cityState.test(text)
}

function endsSentence(text: string): boolean {
  return /[.!?:]["”')]?$/.test(text)
}

/** A phone number found in a line: as the site shows it, and where it was typed. */
type FoundPhone = { phone: string; start: number; end: number }

/** Finds the phone numbers of a line, in the order typed. */
type PhoneFinder = (text: string) => FoundPhone[]

/** How a list names a place: its state with a ZIP, and a town on its own line (addressPatterns). */
interface AddressPatterns {
  stateAndZip: RegExp
  cityState: RegExp
}

/**
 * What reading one list needs beside its text: its country's phone numbers, its state's address
 * patterns, and what each line was read as. A line is looked at again and again, whether it ends
 * an entry, starts one or carries a field; it is read once per list (its reading depends on both).
 */
interface ListReader {
  phones: PhoneFinder
  addresses: AddressPatterns
  kinds: Map<string, LineKind>
}

function listReader(country: CountryCode, place: ListPlace | undefined): ListReader {
  return { phones: phoneFinder(country), addresses: addressPatterns(place), kinds: new Map() }
}

/**
 * Finds phone numbers with libphonenumber-js, as they are dialled in the country: every way people
 * type them (slashes, dots, spaces, run together, '+1' or '1-', an extension). A number of the country
 * reads as '(501) 555-0123' (with ' ext. 2' when it has one); another country's in international form.
 * Each line is read once per list, however often the parser asks.
 */
function phoneFinder(country: CountryCode): PhoneFinder {
  const seen = new Map<string, FoundPhone[]>()
  return (text) => {
    let found = seen.get(text)
    if (found === undefined) {
      // Only a line with enough digits can hold a number; most lines are spared the search.
      found =
        (text.match(/\d/g)?.length ?? 0) < 7
          ? []
          : findPhoneNumbersInText(text, country).map(({ number, startsAt, endsAt }) => ({
              phone: number.country === country ? number.formatNational() : number.formatInternational(),
              start: startsAt,
              end: endsAt,
            }))
      seen.set(text, found)
    }
    return found
  }
}

// Words people put around a phone number on its own line: 'Call or text', 'cell', 'after hours'.
const PHONE_WORDS = new Set([
  'call',
  'text',
  'txt',
  'or',
  'and',
  'cell',
  'mobile',
  'office',
  'home',
  'shop',
  'store',
  'main',
  'line',
  'phone',
  'ph',
  'tel',
  'us',
  'me',
  'at',
  'for',
  'to',
  'the',
  'a',
  'ahead',
  'after',
  'hours',
  'anytime',
  'any',
  'time',
  'day',
  'night',
  'evenings',
  'weekends',
  'orders',
  'order',
  'carry',
  'out',
  'carryout',
  'pickup',
  'pick',
  'up',
  'takeout',
  'reservations',
  'appointments',
  'bookings',
  'book',
  'info',
  'toll',
  'free',
  'local',
  'direct',
  'emergency',
  'emergencies',
  'please',
  'only',
  'ext',
  'extension',
  'voice',
  'leave',
  'message',
  'number',
  'no',
])

/** Scores how surely a line with a phone number in it is a phone line rather than a sentence. */
function phoneLineScore(text: string, found: FoundPhone[], shouted: boolean): number {
  let rest = text
  for (const { start, end } of [...found].reverse()) rest = `${rest.slice(0, start)} ${rest.slice(end)}`
  const words = rest.toLowerCase().match(/\p{L}+/gu) ?? []
  if (words.join('').length <= 12) return LIKELY
  if (shouted) return 0.7
  // The words around the number say how to call it, with at most a name among them ('Text Carla at').
  const others = words.filter((word) => !PHONE_WORDS.has(word))
  return others.length <= 1 && words.length <= 10 ? 0.8 : 0.1
}

/** The text without its phone numbers (an address line with the phone typed after it). */
function withoutPhones(text: string, list: ListReader): string {
  let rest = text
  for (const { start, end } of [...list.phones(text)].reverse()) rest = `${rest.slice(0, start)} ${rest.slice(end)}`
  return rest
}

function findUrl(text: string): string | null {
  const rest = withoutEmails(text)
  const scheme = SCHEME_URL.exec(rest)
  const www = WWW_URL.exec(rest)
  const found = [scheme, www].filter((match) => match !== null).sort((a, b) => a.index - b.index)[0]
  return found ? stripTrailing(found[0]) : null
}

/** The text with its e-mail addresses blanked out (the search skipped on the lines without an '@'). */
function withoutEmails(text: string): string {
  return text.includes('@') ? text.replace(EMAIL, ' ') : text
}

function stripTrailing(text: string): string {
  return text.replace(/[.,;:!?'"”’)\]]+$/, '')
}

function leftover(text: string, pattern: RegExp): string {
  return text
    .replace(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`), ' ')
    .replace(/[^\p{L}]/gu, '')
}

const NO_WEBSITE = /^(?:none|n\/?a|no|-+|tbd|coming soon)$/i

function normaliseWebsite(raw: string): string | null {
  const text = stripTrailing(raw.trim())
  if (text === '' || text.includes('@') || NO_WEBSITE.test(text)) return null
  const absolute = /^https?:\/\//i.test(text) ? text : `https://${text.replace(/^\/+/, '')}`
  let url: URL
  try {
    url = new URL(absolute)
  } catch {
    return null
  }
  if (!/^(?:[a-z0-9-]+\.)+[a-z]{2,}$/i.test(url.hostname)) return null
  // Keep what the volunteer typed recognisable: 'https://lakeviewmarina.example', not '…example/'.
  return url.pathname === '/' && url.search === '' && url.hash === '' ? `${url.protocol}//${url.host}` : url.href
}

function addServices(draft: Draft, text: string): void {
  for (const part of text.split(/[,;•·|]/)) {
    const service = part
      .replace(BULLET, '')
      .replace(/^\s*and\s+/i, '')
      .replace(/[.\s]+$/, '')
      .trim()
    if (service === '') continue
    const key = service.toLowerCase()
    if (!draft.services.has(key)) draft.services.set(key, service)
  }
}

function finish(draft: Draft, index: number, slugs: SlugClaims): ParsedBusiness {
  const warnings = [...draft.warnings]
  if (draft.phone === null) warnings.push('no phone found')
  for (const phone of draft.extraPhones) warnings.push(`more than one phone number: kept the first, left out ${phone}`)
  if (draft.address === null) warnings.push('no address found')

  let hours = draft.hours
  let hoursDetail: HoursRow[] = []
  if (hours !== null && hours.length >= MAX_HOURS_LENGTH) {
    warnings.push(`hours line too long (${hours.length} characters): left out, keep it under ${MAX_HOURS_LENGTH}`)
    hours = null
  } else if (hours !== null) {
    hoursDetail = parseHours(hours)
    if (hoursDetail.length === 0)
      warnings.push('hours kept as text only: the days and times could not be read with confidence')
  }
  warnings.push(...draft.hoursWarnings)

  const paragraphs = draft.paragraphs.map((paragraph) => paragraph.trim()).filter((paragraph) => paragraph !== '')
  if (paragraphs.length === 0) warnings.push('no description found')
  const fullDescription =
    paragraphs.length === 0
      ? null
      : paragraphs.map((p, i) => (i < paragraphs.length - 1 && !endsSentence(p) ? `${p}.` : p)).join('\n\n')
  const shortDescription = paragraphs[0] === undefined ? null : shorten(paragraphs[0])

  let category: BusinessCategory | null = null
  if (draft.categoryLabel !== null) {
    category = matchCategoryLabel(draft.categoryLabel)
    if (category === null)
      warnings.push(`category "${draft.categoryLabel}" is not one of the site's categories: guessed instead`)
  }
  if (category === null) {
    category = guessCategory(draft.name, [...paragraphs, ...draft.services.values()].join(' '))
    if (category === DEFAULT_CATEGORY)
      warnings.push(`no category could be told from the name or description: set to ${DEFAULT_CATEGORY}`)
  }

  const badName = textCharacterProblem(`the name of the business on line ${draft.line}`, draft.name, 'name')
  if (badName !== null) {
    throw new RolandFileError('bad-character', `Roland.txt: ${badName}. Nothing was imported.`)
  }

  let base = slugify(draft.name)
  if (base === '') {
    base = 'business'
    warnings.push('the name has no letters or digits to make a web address from: used "business"')
  }
  const slug = slugs.claim(base)
  if (slug !== base) warnings.push(`duplicate name: renamed slug to ${slug}`)

  return {
    index,
    line: draft.line,
    name: draft.name,
    slug,
    category,
    phone: draft.phone,
    website: draft.website,
    address: draft.address,
    hours,
    short_description: shortDescription,
    full_description: fullDescription,
    services: [...draft.services.values()],
    hours_detail: hoursDetail,
    warnings,
  }
}

// Abbreviations whose dot does not end a sentence in a Roland listing.
const ABBREVIATIONS = /\b(?:St|Rd|Dr|Mr|Mrs|Ms|Jr|Sr|Hwy|Ave|Ln|Mt|No|Co|Inc|Est|approx|vs|etc|[A-Z])\.$/

/** Cuts a paragraph to its leading sentences within 150 characters, else to 147 plus '...'. */
export function shorten(paragraph: string): string {
  if (paragraph.length <= SHORT_DESCRIPTION_LIMIT) return paragraph
  let short = ''
  for (const sentence of sentences(paragraph)) {
    const next = short === '' ? sentence : `${short} ${sentence}`
    if (next.length > SHORT_DESCRIPTION_LIMIT) break
    short = next
  }
  return short !== '' ? short : `${paragraph.slice(0, SHORT_DESCRIPTION_LIMIT - 3).trimEnd()}...`
}

function sentences(text: string): string[] {
  const result: string[] = []
  let current = ''
  for (const word of text.split(' ')) {
    current = current === '' ? word : `${current} ${word}`
    if (/[.!?]["”')]?$/.test(word) && !ABBREVIATIONS.test(word)) {
      result.push(current)
      current = ''
    }
  }
  if (current !== '') result.push(current)
  return result
}

function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const byte = bytes[i] ?? 0
    const length =
      byte < 0x80
        ? 1
        : byte >= 0xc2 && byte <= 0xdf
          ? 2
          : byte >= 0xe0 && byte <= 0xef
            ? 3
            : byte >= 0xf0 && byte <= 0xf4
              ? 4
              : 0
    if (length === 0) return i
    for (let k = 1; k < length; k += 1) {
      const next = bytes[i + k]
      if (next === undefined || (next & 0xc0) !== 0x80) return i
    }
    const second = bytes[i + 1] ?? 0
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are invalid UTF-8 too.
    if (
      (byte === 0xe0 && second < 0xa0) ||
      (byte === 0xed && second > 0x9f) ||
      (byte === 0xf0 && second < 0x90) ||
      (byte === 0xf4 && second > 0x8f)
    )
      return i
    i += length
  }
  return -1
}
