import type { CountryCode } from 'libphonenumber-js'
import type { BusinessCategory } from '../category.ts'
import type { HoursRow } from '../hours.ts'
import type { ListPlace } from './address.ts'

// The parser's public shapes: what it is asked to read, and what it hands the importer.

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

/** How to read a list. */
export interface ParseOptions {
  /** The country the list's phone numbers are dialled in (the town's, ISO 3166 code); 'US' by default. */
  country?: CountryCode
  /** The town's state (town_settings), whose towns a list names without a ZIP ('Pine Hollow, CO'); none by default. */
  place?: ListPlace | undefined
}
