import type { Town } from '@roland/scripts/catalog/types'
import { phoneE164 } from '@roland/scripts/content/schema'
import { addressNamesTown } from '@roland/scripts/text/index'
import { remembered } from './remembered.ts'

/**
 * A maps search for an address (SPEC §2 "Get Directions": the address plus the town and its
 * state code); the town is added only when the address does not say where it is already.
 */
export function mapsSearchUrl(address: string, town: Pick<Town, 'name' | 'state' | 'state_code'>): string {
  const query = addressNamesTown(address, town) ? address : `${address}, ${town.name}, ${town.state_code}`
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`
}

// An extension after the number, as the import writes it ('ext. 12') and as people type it ('x12', 'ext 12').
const EXTENSION = /\s*[,;]?\s*(?:ext\.?|extension|x|#)\s*(\d{1,7})\s*$/i

/**
 * A tel: link (RFC 3966) for a phone number as people write it, in E.164 by the rules of the town's
 * country (town_settings.country, an ISO 3166 code), with its extension as ';ext=' ('(501) 555-0100
 * ext. 12' in the US → 'tel:+15015550100;ext=12', '020 7946 0018' in GB → 'tel:+442079460018');
 * a number of no such length (911, 999) keeps its digits; null without digits.
 */
export const telUrl = remembered(
  telUrlOf,
  // A site's numbers, each parsed once: a build links a business's number from its page, its card
  // in the list and in its category, and the directory (libphonenumber-js parsed each number four
  // times).
  (phone: string, country: Town['country']) => `${country}\u0000${phone}`,
  200_000,
)

function telUrlOf(phone: string, country: Town['country']): string | null {
  const extension = EXTENSION.exec(phone)
  const number = extension ? phone.slice(0, extension.index) : phone
  const digits = number.replace(/\D/g, '')
  if (digits.length === 0) return null
  const ext = extension ? `;ext=${extension[1]}` : ''
  const e164 = phoneE164(number, country)
  if (e164) return `tel:${e164}${ext}`
  return `tel:${number.trim().startsWith('+') ? '+' : ''}${digits}${ext}`
}

/** The host of a website, for showing it: "https://www.coffee.example/menu" → "coffee.example". */
export function websiteHost(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '')
  } catch {
    return url
  }
}

/** A mailto: link with a subject line, and the text of the email when one is given. */
export function mailtoUrl(email: string, subject: string, body?: string): string {
  const text = body ? `&body=${encodeURIComponent(body)}` : ''
  return `mailto:${email}?subject=${encodeURIComponent(subject)}${text}`
}
