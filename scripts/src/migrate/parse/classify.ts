import { readHoursLine, stripHoursLabel, type HoursReading } from '../hours.ts'
import { DESCRIPTION, LIKELY, PLAIN_ADDRESS, SURE } from './confidence.ts'
import { isAddressLike } from './address.ts'
import { readLabelledHours } from './hours.ts'
import type { LineKind } from './kinds.ts'
import { phoneLineScore } from './phone.ts'
import type { ListReader } from './reader.ts'
import { BULLET, endsSentence, isShouted, leftover } from './text.ts'
import { EMAIL, findDomain, findUrl, SCHEME_URL, WWW_URL } from './website.ts'

// Stage: classify. Reads each line of an entry as the field it most likely is, weighing every reading.

/** A fax number: not the phone. */
export const FAX_LABEL = /^fax\b/i
/** An e-mail address: the site keeps none. */
export const EMAIL_LABEL = /^e-?mail\b\s*[:\-–]?\s*/i
const CATEGORY_LABEL = /^category\s*:\s*/i
const FEATURES_LABEL =
  /^(?:special\s+features|features|services(?:\s+offered)?|amenities|specialties)\s*(?::|\s[-–—]\s)\s*/i
const WEBSITE_LABEL = /^(?:website|web\s*site|web|url|site|homepage|online|facebook)\s*(?::|\s[-–—]\s)\s*/i
/** 'Address:', 'Location:', 'Located at -'. */
export const ADDRESS_LABEL =
  /^(?:(?:street|physical|mailing)\s+)?(?:address|addr|location|located\s+at)\s*(?::|\s[-–—]\s)\s*/i
const PHONE_LABEL = /^(?:phone|telephone|tel|ph|call|cell|mobile|office)\b\.?\s*(?:number|no\.?|#)?\s*(?::|\s[-–—]\s)/i
const DESCRIPTION_LABEL = /^(?:description|about|notes?)\s*:\s*/i

/** Reads one line of an entry as the kind of field it most likely is, weighing every reading. */
export function classify(text: string, list: ListReader): LineKind {
  let kind = list.kinds.get(text)
  if (kind === undefined) list.kinds.set(text, (kind = classifyLine(text, list)))
  return kind
}

/** Reads a line not read before: its best reading, else a line of the description. */
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

/** One way a line could be read, with how sure that reading is (0 to 1). */
type Reading = { kind: LineKind; score: number }

/** Every way a line could be read: the one its label says, else each its content allows. */
function scoreLine(bare: string, list: ListReader): Reading[] {
  // Labels say outright what a line is.
  if (FAX_LABEL.test(bare) || EMAIL_LABEL.test(bare)) return [{ kind: { kind: 'ignored' }, score: SURE }]
  const category = CATEGORY_LABEL.exec(bare)
  if (category) return [{ kind: { kind: 'category', value: bare.slice(category[0].length).trim() }, score: SURE }]
  const features = FEATURES_LABEL.exec(bare)
  if (features) return [{ kind: { kind: 'features', value: bare.slice(features[0].length).trim() }, score: SURE }]
  const hours = readHoursLine(bare) ?? readLabelledHours(bare)
  if (hours?.labelled && stripHoursLabel(bare) !== null)
    return [{ kind: { kind: 'hours', value: hours.value }, score: SURE }]
  const labelled = readFieldLabel(bare, hours, list)
  return labelled === null ? readContent(bare, hours, list) : [{ kind: labelled, score: SURE }]
}

/** The field a website, address, phone or description label names, or null when there is none. */
function readFieldLabel(bare: string, hours: HoursReading | null, list: ListReader): LineKind | null {
  const website = WEBSITE_LABEL.exec(bare)
  if (website) {
    const value = bare.slice(website[0].length).trim()
    return { kind: 'website', value: findUrl(value) ?? findDomain(value) ?? value }
  }
  const address = ADDRESS_LABEL.exec(bare)
  if (address) return { kind: 'address', value: bare.slice(address[0].length).trim() }
  // 'Office:' names a phone as often as the office's hours ('Office: Mon-Fri 9am-5pm').
  if (PHONE_LABEL.test(bare)) {
    const hasPhone = list.phones(bare).length > 0
    if (hasPhone || hours === null) return hasPhone ? { kind: 'phone' } : { kind: 'ignored' }
  }
  const description = DESCRIPTION_LABEL.exec(bare)
  if (description) return { kind: 'description', value: bare.slice(description[0].length).trim(), bullet: false }
  return null
}

/** The readings of an unlabelled line, by its content. */
function readContent(bare: string, hours: HoursReading | null, list: ListReader): Reading[] {
  const readings: Reading[] = []
  const add = (kind: LineKind, score: number) => readings.push({ kind, score })
  if (bare.includes('@') && bare.search(EMAIL) !== -1 && leftover(bare, EMAIL).length <= 12)
    add({ kind: 'ignored' }, LIKELY)
  if (hours !== null)
    add(
      { kind: 'hours', value: hours.value, keepsLabels: hours.keepsLabels },
      hours.labelled ? LIKELY : hours.score * 0.85,
    )
  const shouted = isShouted(bare) && !endsSentence(bare)
  const found = list.phones(bare)
  if (found.length > 0) {
    // 'CALL AHEAD: 870-555-0184 AFTER HOURS': a shouted note around a phone is a phone line too, and
    // so is one in the words people put around a number ('Call or text …', 'Text Carla at …').
    add({ kind: 'phone' }, phoneLineScore(bare, found, shouted))
  }
  const domain = findUrl(bare) ?? findDomain(bare)
  if (domain !== null) {
    const rest = leftover(
      bare,
      new RegExp(`${SCHEME_URL.source}|${WWW_URL.source}|\\S+\\.[a-z]{2,24}\\S*`, 'gi'),
    ).length
    // A web address in capitals is still one, with or without 'VISIT US AT' in front of it.
    add({ kind: 'website', value: domain }, rest <= 12 ? LIKELY : shouted ? 0.8 : 0.1)
  }
  if (isAddressLike(bare, list.addresses))
    add({ kind: 'address', value: bare }, list.addresses.stateAndZip.test(bare) ? 0.75 : PLAIN_ADDRESS)
  return readings
}

/** Says what a line was read as, for a skipped block's reason ('starts with a phone number'). */
export function describeKind(kind: LineKind): string {
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
