import type { Town } from '@roland/scripts/catalog/types'

/**
 * A maps search for an address (SPEC §2 "Get Directions": the address plus the town and its
 * state code); the town is added only when the address does not name it already.
 */
export function mapsSearchUrl(address: string, town: Pick<Town, 'name' | 'state_code'>): string {
  const named = new RegExp(`\\b${town.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(address)
  const query = named ? address : `${address}, ${town.name}, ${town.state_code}`
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`
}

/** A tel: link for a phone number as people write it, in E.164 for US numbers; null without digits. */
export function telUrl(phone: string): string | null {
  const digits = phone.replace(/\D/g, '')
  if (digits.length === 10) return `tel:+1${digits}`
  if (digits.length === 11 && digits.startsWith('1')) return `tel:+${digits}`
  return digits.length > 0 ? `tel:${phone.trim().startsWith('+') ? '+' : ''}${digits}` : null
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
