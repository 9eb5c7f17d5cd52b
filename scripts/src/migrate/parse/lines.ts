import { classify } from './classify.ts'
import { isContact } from './kinds.ts'
import { looksLikeName } from './name.ts'
import type { ListReader } from './reader.ts'

// Stage: lines. Splits the text into lines and blocks (a blank line or a rule between entries), and
// reads a table pasted from a spreadsheet one business a row.

/**
 * A line of the file, its blanks made plain; tab is where a tab between words was (a spreadsheet's
 * column); header marks the column names of a table pasted from a spreadsheet.
 */
export type Line = { text: string; line: number; tab?: number; header?: true }

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

/** Splits the text into blocks of lines: one entry each, or several typed without a blank line between. */
export function splitBlocks(text: string, list: ListReader): Line[][] {
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
