import { stripHoursLabel } from '../hours.ts'
import { ADDRESS_LABEL, classify, describeKind, EMAIL_LABEL, FAX_LABEL } from './classify.ts'
import { addServices, newDraft, type BlockResult, type Draft, type LineState } from './draft.ts'
import { readHoursField } from './hours.ts'
import type { LineKind } from './kinds.ts'
import type { Line } from './lines.ts'
import { cleanName, DIRECTORY_WORDS, isHeading, looksLikeProse, splitNameLine } from './name.ts'
import { withoutPhones } from './phone.ts'
import type { ListReader } from './reader.ts'
import { BULLET, endsSentence, stripTrailing } from './text.ts'
import { findUrl, NO_WEBSITE, normaliseWebsite } from './website.ts'

// Stage: draft. Reads an entry's block into a draft business: the name line, then every line below
// it as the field the classifier says it is.

/** A line below the name; tagline marks the text after the name's dash. */
type EntryLine = { text: string; tagline: boolean }

/** Reads a block as a business, a paragraph of the business above, or a block to skip (with why). */
export function readBlock(block: Line[], list: ListReader): BlockResult {
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
  const draft = newDraft(cleanName(nameText), first.line)
  // The text after the name's dash is read like any other line: usually a tagline, sometimes a phone.
  const lines: EntryLine[] = [
    ...(tagline === null ? [] : [{ text: tagline, tagline: true }]),
    ...rest.map((line) => ({ text: line.text, tagline: false })),
  ]
  return judgeDraft(draft, readLines(lines, draft, list))
}

/** Tells a business from a heading or a name with nothing below it, once its lines are read. */
function judgeDraft(draft: Draft, fields: number): BlockResult {
  const { name } = draft
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
function readLines(lines: EntryLine[], draft: Draft, list: ListReader): number {
  const state: LineState = { fields: 0, paragraph: [], previous: null, inFeatures: null, hoursSeen: false }
  for (const i of lines.keys()) readEntryLine(lines, i, draft, list, state)
  endParagraph(draft, state)
  return state.fields
}

/** Reads line i below the name: its phones, then the field it is, or the description it goes on. */
function readEntryLine(lines: EntryLine[], i: number, draft: Draft, list: ListReader, state: LineState): void {
  const { text, tagline } = lines[i] ?? { text: '', tagline: false }
  collectPhones(text, draft, list)
  const kind = classify(text, list)
  if (kind.kind === 'description' && continuesFeatures(kind, draft, state)) return
  state.inFeatures = null
  if (kind.kind === 'description') {
    if (readDescription(text, tagline, kind, draft, state)) return
  } else {
    readField(kind, lines[i + 1]?.text, draft, list, state)
  }
  endParagraph(draft, state)
  state.previous = kind.kind
}

/** Keeps every phone number of a line (not a fax's or an e-mail line's): the first is the phone. */
function collectPhones(text: string, draft: Draft, list: ListReader): void {
  const bare = text.replace(BULLET, '')
  if (FAX_LABEL.test(bare) || EMAIL_LABEL.test(bare)) return
  for (const { phone } of list.phones(text)) {
    if (draft.phone === null) draft.phone = phone
    else if (phone !== draft.phone && !draft.extraPhones.includes(phone)) draft.extraPhones.push(phone)
  }
}

/** Reads a plain line as the next item of a features list when one is open; tells whether it was. */
function continuesFeatures(kind: Extract<LineKind, { kind: 'description' }>, draft: Draft, state: LineState): boolean {
  const { inFeatures } = state
  if (inFeatures === null) return false
  const plainItem = inFeatures !== 'bullets' && !kind.bullet && kind.value.length <= 60 && !/[.!?]$/.test(kind.value)
  if (!kind.bullet && !plainItem) return false
  addServices(draft, kind.value)
  if (inFeatures === 'comma' && !kind.bullet) state.inFeatures = /[,;]$/.test(kind.value) ? 'comma' : 'bullets'
  // Under an empty label, bullets make a bullet list: the first plain line after them ends it.
  if (inFeatures === 'list' && kind.bullet) state.inFeatures = 'bullets'
  state.previous = 'features'
  return true
}

/** Reads a line that is a field (not a description) into the draft. */
function readField(
  kind: Exclude<LineKind, { kind: 'description' }>,
  next: string | undefined,
  draft: Draft,
  list: ListReader,
  state: LineState,
): void {
  switch (kind.kind) {
    case 'phone':
      state.fields += 1
      break
    case 'website':
      state.fields += 1
      readWebsite(kind.value, draft)
      break
    case 'address':
      state.fields += 1
      readAddress(kind.value, next, draft, list)
      break
    case 'hours':
      state.fields += 1
      readHoursField(kind, draft, state)
      break
    case 'features':
      addServices(draft, kind.value)
      state.inFeatures = kind.value === '' ? 'list' : /[,;]$/.test(kind.value) ? 'comma' : 'bullets'
      break
    case 'category':
      draft.categoryLabel ??= kind.value
      break
    case 'ignored':
      break
  }
}

/** Keeps the first website, warning when what follows the label is not a web address. */
function readWebsite(value: string, draft: Draft): void {
  if (draft.website !== null) return
  const website = normaliseWebsite(value)
  if (website === null && !NO_WEBSITE.test(stripTrailing(value)))
    draft.warnings.push(`website "${value}" is not a web address: left out`)
  draft.website = website
}

/** Keeps the first address, with the town's line below it when the street is on a line of its own. */
function readAddress(value: string, next: string | undefined, draft: Draft, list: ListReader): void {
  if (draft.address !== null) return
  // A two-line address: the street, then 'Golden, CO 80401' on its own line.
  const joined =
    next !== undefined && list.addresses.cityState.test(next) && !list.addresses.stateAndZip.test(value)
      ? `${value}, ${next}`
      : value
  // A phone typed on the address line is not part of the address.
  draft.address = withoutPhones(joined, list.phones)
    .replace(/\s*[,.;·|•-]*\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * Adds a description line to the paragraph being read; tells whether it did (a short line that
 * carries no sentence on is dropped, and ends the paragraph).
 */
function readDescription(
  text: string,
  tagline: boolean,
  kind: Extract<LineKind, { kind: 'description' }>,
  draft: Draft,
  state: LineState,
): boolean {
  const url = findUrl(text)
  if (url !== null && draft.website === null) draft.website = normaliseWebsite(url)
  const { paragraph } = state
  // SPEC §5: description lines are longer than 10 characters; a short line still counts
  // when it ends a sentence the line before began (text wrapped by hand).
  const continues =
    state.previous === 'description' && !tagline && paragraph.length > 0 && !endsSentence(paragraph.at(-1) ?? '')
  if (!(kind.value.length > 10 || (continues && kind.value.length > 0))) return false
  if (tagline || kind.bullet) endParagraph(draft, state)
  // A short line without a full stop, then a capitalised one, is a tagline and a sentence
  // ('Open 24/7 for emergencies' / 'Wreckers and lockouts…'), not one sentence wrapped by hand.
  const last = state.paragraph.at(-1)
  if (last !== undefined && last.length < 50 && !endsSentence(last) && /^\p{Lu}/u.test(kind.value))
    state.paragraph[state.paragraph.length - 1] = `${last}.`
  // A tagline typed in lower case after the name's separator still starts the description.
  state.paragraph.push(tagline ? kind.value.charAt(0).toUpperCase() + kind.value.slice(1) : kind.value)
  if (tagline) endParagraph(draft, state)
  state.previous = 'description'
  return true
}

/** Ends the paragraph being read, adding it to the draft's description. */
function endParagraph(draft: Draft, state: LineState): void {
  if (state.paragraph.length > 0) draft.paragraphs.push(state.paragraph.join(' '))
  state.paragraph = []
}
