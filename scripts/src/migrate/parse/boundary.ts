import { classify } from './classify.ts'
import { isContact, type ContactKind, type LineKind } from './kinds.ts'
import type { Line } from './lines.ts'
import {
  DIRECTORY_WORDS,
  isSectionHeading,
  looksLikeName,
  looksLikeShortName,
  NAME_LABEL,
  splitNameLine,
} from './name.ts'
import type { ListReader } from './reader.ts'
import { isShouted } from './text.ts'
import { findDomain, findUrl } from './website.ts'

// Stage: boundary. Finds where a business starts inside a block a volunteer typed without blank lines.

/** The lines of one entry, and whether it was split from the entry above without a blank line. */
export type Entry = { lines: Line[]; joined: boolean }

/**
 * Splits a block into entries where a volunteer left out the blank line: a name line followed by
 * its fields, after an entry that already has its own, starts the next business.
 */
export function splitEntries(block: Line[], list: ListReader): Entry[] {
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
  const text = block[i]?.text ?? ''
  if (kinds[i]?.kind !== 'description') return 0
  const below = contactsBelow(block, kinds, i)
  if (below.size === 0) return 0
  // 'Name:' opens every entry of a labelled list, so a second one is the next business.
  if (NAME_LABEL.test(text)) return 1
  if (i === start + 1) return underHeadingScore(block, start, i, below)
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
  if (isListItem(block, kinds, i) && !(repeated && below.size >= 2)) return 0
  const next = kinds[i + 1]
  const nextRepeats = isContact(next) && above.has(next.kind)
  // Plain lines under an empty 'Features:' label are items; only a repeated field right below ends the list.
  if (inFeatureList(kinds, start, i) && !(repeated && nextRepeats && looksLikeShortName(text))) return 0
  return evidenceScore(block[i], { repeated, fieldNext: isContact(next), nextRepeats, kindsBelow: below.size }, list)
}

/**
 * Scores the second line of a block, under '=== DINING ===', 'Shopping:' or the list's title typed
 * right above the first business. (A title block carries the town's own address, never a phone or a
 * website.)
 */
function underHeadingScore(block: Line[], start: number, i: number, below: Set<ContactKind>): number {
  const above = block[start]?.text ?? ''
  const heading = isSectionHeading(above) || (DIRECTORY_WORDS.test(above) && looksLikeShortName(above, 60))
  return heading && looksLikeName(block[i]?.text ?? '', block[i]?.tab) && !(below.size === 1 && below.has('address'))
    ? 0.9
    : 0
}

/**
 * Tells whether line i reads as an item of a bulleted list. A bulleted name ('- Lost Creek Coffee
 * House') may start an entry, after the fields of the one above as after its description. Under
 * another bullet, a features label or a line that announces a list ('We carry:') it reads as an item
 * of that list, unless a new set of fields comes below it (two kinds, one of them a field the entry
 * above already has): then the list has ended and a bulleted name begins the next entry.
 */
function isListItem(block: Line[], kinds: LineKind[], i: number): boolean {
  const kind = kinds[i]
  const lineAbove = kinds[i - 1]
  return (
    kind?.kind === 'description' &&
    kind.bullet &&
    ((lineAbove?.kind === 'description' && lineAbove.bullet) ||
      lineAbove?.kind === 'features' ||
      /:$/.test(block[i - 1]?.text ?? ''))
  )
}

/** What the fields around a would-be name line say (see BOUNDARY). */
type FieldEvidence = { repeated: boolean; fieldNext: boolean; nextRepeats: boolean; kindsBelow: number }

/** Weighs a would-be name line's shape and the fields around it (BOUNDARY) into a score from 0 to 1. */
function evidenceScore(line: Line | undefined, evidence: FieldEvidence, list: ListReader): number {
  const text = line?.text ?? ''
  const [namePart, tagline] = splitNameLine(text, line?.tab)
  let score = looksLikeName(text, line?.tab) ? BOUNDARY.nameShaped : looksLikeShortName(text) ? BOUNDARY.shortLine : 0
  if (score === 0) return 0
  if (tagline !== null) score += BOUNDARY.tagline
  if (evidence.repeated) score += BOUNDARY.repeatedField
  if (evidence.fieldNext) score += BOUNDARY.fieldNext
  if (evidence.nextRepeats) score += BOUNDARY.fieldNextRepeats
  if (evidence.kindsBelow >= 2) score += BOUNDARY.twoFieldsBelow
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
