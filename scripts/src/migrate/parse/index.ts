/**
 * The import parser: reads Roland.txt, the volunteers' hand-typed business list, into businesses.
 * One stage a module, in the order a list goes through them; one ListReader (reader.ts) carries
 * the list's country, state and the reading of each line from stage to stage.
 *
 * - decode.ts: the file's bytes to text; refuses empty, binary, mis-encoded and oversized files.
 * - lines.ts: lines and blocks (blank lines, rules, tables pasted from a spreadsheet).
 * - boundary.ts: where a business starts inside a block typed without blank lines.
 * - classify.ts: what each line is (kinds.ts), weighing every reading (confidence.ts).
 * - fields: name.ts (name line, tagline, headings), phone.ts, address.ts, website.ts.
 * - hours.ts: an entry's hours lines and clauses kept together (days and times: ../hours.ts).
 * - draft.ts, block.ts: an entry's lines read into a draft business.
 * - finish.ts: the draft made a business: hours rows, description, category, slug, warnings.
 * - types.ts: the shapes the parser takes and gives; text.ts: small text helpers the stages share.
 */
import { SlugClaims } from '../slug.ts'
import { readBlock } from './block.ts'
import { splitEntries } from './boundary.ts'
import { refuseBadCharacters, RolandFileError } from './decode.ts'
import type { Draft } from './draft.ts'
import { finish } from './finish.ts'
import { splitBlocks } from './lines.ts'
import { listReader } from './reader.ts'
import type { ParsedBusiness, ParseOptions, RolandParseReport, SkippedBlock } from './types.ts'

export type { BusinessCategory } from '../category.ts'
export type { ClosedHoursRow, DayOfWeek, HoursRow, OpenHoursRow } from '../hours.ts'
export type { ListPlace } from './address.ts'
export { decodeRolandFile, MAX_FILE_BYTES, RolandFileError, type RolandFileProblem } from './decode.ts'
export { shorten, SHORT_DESCRIPTION_LIMIT } from './finish.ts'
export type { ParsedBusiness, ParseOptions, RolandParseReport, SkippedBlock } from './types.ts'

/** Parses the text of Roland.txt into businesses; throws RolandFileError when none can be found. */
export function parseRolandText(text: string, options: ParseOptions = {}): ParsedBusiness[] {
  return parseRolandTextReport(text, options).businesses
}

/** Parses the text of Roland.txt into businesses and the skipped blocks, for a job's summary. */
export function parseRolandTextReport(text: string, options: ParseOptions = {}): RolandParseReport {
  return readList(text, options)
}

/** Reads a whole list: its blocks, split into entries, each read and finished in file order. */
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
