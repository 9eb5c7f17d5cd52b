import { textCharacterProblem } from '../../content/schema.ts'
import { DEFAULT_CATEGORY, guessCategory, matchCategoryLabel, type BusinessCategory } from '../category.ts'
import { MAX_HOURS_LENGTH, parseHours, type HoursRow } from '../hours.ts'
import { SlugClaims, slugify } from '../slug.ts'
import { RolandFileError } from './decode.ts'
import type { Draft } from './draft.ts'
import { ABBREVIATIONS, endsSentence } from './text.ts'
import type { ParsedBusiness } from './types.ts'

// Stage: finish. Turns a draft into the business the importer stores, with the operator's warnings.

/** short_description is cut to 147 characters plus '...' when longer than this (SPEC §5). */
export const SHORT_DESCRIPTION_LIMIT = 150

/** Finishes a draft: its hours read into rows, its description and category, its slug and warnings. */
export function finish(draft: Draft, index: number, slugs: SlugClaims): ParsedBusiness {
  const warnings = [...draft.warnings]
  if (draft.phone === null) warnings.push('no phone found')
  for (const phone of draft.extraPhones) warnings.push(`more than one phone number: kept the first, left out ${phone}`)
  if (draft.address === null) warnings.push('no address found')
  const { hours, hoursDetail } = finishHours(draft, warnings)
  const paragraphs = draft.paragraphs.map((paragraph) => paragraph.trim()).filter((paragraph) => paragraph !== '')
  if (paragraphs.length === 0) warnings.push('no description found')
  const fullDescription =
    paragraphs.length === 0
      ? null
      : paragraphs.map((p, i) => (i < paragraphs.length - 1 && !endsSentence(p) ? `${p}.` : p)).join('\n\n')
  const category = finishCategory(draft, paragraphs, warnings)
  const badName = textCharacterProblem(`the name of the business on line ${draft.line}`, draft.name, 'name')
  if (badName !== null) {
    throw new RolandFileError('bad-character', `Roland.txt: ${badName}. Nothing was imported.`)
  }
  return {
    index,
    line: draft.line,
    name: draft.name,
    slug: finishSlug(draft.name, slugs, warnings),
    category,
    phone: draft.phone,
    website: draft.website,
    address: draft.address,
    hours,
    short_description: paragraphs[0] === undefined ? null : shorten(paragraphs[0]),
    full_description: fullDescription,
    services: [...draft.services.values()],
    hours_detail: hoursDetail,
    warnings,
  }
}

/** The hours text and its rows: none when too long, no rows when the days and times are unclear. */
function finishHours(draft: Draft, warnings: string[]): { hours: string | null; hoursDetail: HoursRow[] } {
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
  return { hours, hoursDetail }
}

/** The category the entry names, else the one its name, description and services suggest. */
function finishCategory(draft: Draft, paragraphs: string[], warnings: string[]): BusinessCategory {
  if (draft.categoryLabel !== null) {
    const category = matchCategoryLabel(draft.categoryLabel)
    if (category !== null) return category
    warnings.push(`category "${draft.categoryLabel}" is not one of the site's categories: guessed instead`)
  }
  const category = guessCategory(draft.name, [...paragraphs, ...draft.services.values()].join(' '))
  if (category === DEFAULT_CATEGORY)
    warnings.push(`no category could be told from the name or description: set to ${DEFAULT_CATEGORY}`)
  return category
}

/** Claims the business's slug: its name's, numbered when another business of the list has it. */
function finishSlug(name: string, slugs: SlugClaims, warnings: string[]): string {
  let base = slugify(name)
  if (base === '') {
    base = 'business'
    warnings.push('the name has no letters or digits to make a web address from: used "business"')
  }
  const slug = slugs.claim(base)
  if (slug !== base) warnings.push(`duplicate name: renamed slug to ${slug}`)
  return slug
}

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

/** Splits a paragraph into its sentences, not at an abbreviation's dot. */
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
