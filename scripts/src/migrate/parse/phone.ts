import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js'
import { LIKELY } from './confidence.ts'

// Fields, phone: the numbers of a line as the town dials them, and how surely a line is a phone line.

/** A phone number found in a line: as the site shows it, and where it was typed. */
export type FoundPhone = { phone: string; start: number; end: number }

/** Finds the phone numbers of a line, in the order typed. */
export type PhoneFinder = (text: string) => FoundPhone[]

/**
 * Finds phone numbers with libphonenumber-js, as they are dialled in the country: every way people
 * type them (slashes, dots, spaces, run together, '+1' or '1-', an extension). A number of the country
 * reads as '(501) 555-0123' (with ' ext. 2' when it has one); another country's in international form.
 * Each line is read once per list, however often the parser asks.
 */
export function phoneFinder(country: CountryCode): PhoneFinder {
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
export function phoneLineScore(text: string, found: FoundPhone[], shouted: boolean): number {
  const words =
    cutOut(text, found)
      .toLowerCase()
      .match(/\p{L}+/gu) ?? []
  if (words.join('').length <= 12) return LIKELY
  if (shouted) return 0.7
  // The words around the number say how to call it, with at most a name among them ('Text Carla at').
  const others = words.filter((word) => !PHONE_WORDS.has(word))
  return others.length <= 1 && words.length <= 10 ? 0.8 : 0.1
}

/** The text without its phone numbers (an address line with the phone typed after it). */
export function withoutPhones(text: string, phones: PhoneFinder): string {
  return cutOut(text, phones(text))
}

/** The text with the numbers found in it blanked out. */
function cutOut(text: string, found: FoundPhone[]): string {
  let rest = text
  for (const { start, end } of [...found].reverse()) rest = `${rest.slice(0, start)} ${rest.slice(end)}`
  return rest
}
