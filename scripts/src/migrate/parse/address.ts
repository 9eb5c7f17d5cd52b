import { escapeRegExp } from '../../text/index.ts'

// Fields, address: how a list names a street and a place, in its own state and in others.

/** The town's state, by name and postal code ('Colorado', 'CO'), as the town settings give them. */
export interface ListPlace {
  state: string
  state_code: string
}

/** How a list names a place: its state with a ZIP, and a town on its own line (addressPatterns). */
export interface AddressPatterns {
  stateAndZip: RegExp
  cityState: RegExp
}

const STREET_WORDS =
  'rd|road|st|street|hwy|highway|ave|avenue|dr|drive|ln|lane|blvd|boulevard|way|ct|court|pkwy|parkway|loop|trail|trl|cir|circle|pl|place|pike|route|rte|cove|cv|bend|ridge|ter|terrace|plaza|hollow|run|landing'
const STREET_ADDRESS = new RegExp(`^\\d{1,6}[a-z]?\\s+(?:[\\w.'-]+\\s+){0,4}?(?:${STREET_WORDS})\\b`, 'i')
// Other towns' lists give their own state: any state's postal code with a ZIP reads as an address.
const STATES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY'
const ROAD_FIRST = new RegExp(
  `^(?:(?:state\\s+)?(?:highway|hwy)\\s*\\d+|corner\\s+of|intersection\\s+of|p\\.?\\s?o\\.?\\s+box\\s+\\d+)\\b`,
  'i',
)

/**
 * How a list names a place: a state with a ZIP ('CO 80401', 'Colorado 80401'), and a town on its own
 * line ('Willow Bend, TX 75455'). A town of the list's own state (`place`, the town settings') needs
 * no ZIP: 'Pine Hollow, CO', 'Pine Hollow, Colo.', 'Pine Hollow, Colorado'.
 */
export function addressPatterns(place: ListPlace | undefined): AddressPatterns {
  const own = place ? ownStateWords(place) : null
  const zip = '\\d{5}(?:-\\d{4})?'
  const city = '^[A-Z][A-Za-z.]*(?:\\s[A-Z][A-Za-z.]*){0,2}\\s*,?\\s+'
  return {
    stateAndZip: new RegExp(`\\b(?:${STATES}${own ? `|${own}` : ''})\\s*,?\\s+${zip}\\b`),
    cityState: new RegExp(
      `${city}(?:${own ? `(?:${own})\\b(?:\\s*,?\\s*${zip})?|` : ''}(?:${STATES})\\s*,?\\s*${zip})\\.?$`,
    ),
  }
}

/** A state's name, its shortenings with or without a dot ('Ark.', 'Colo') when it is one word, and its postal code. */
function ownStateWords({ state, state_code }: ListPlace): string {
  const name = state.trim()
  const shortenings = /^[A-Za-z]+$/.test(name)
    ? Array.from(
        { length: Math.max(0, name.length - 3) },
        (_, i) => `${escapeRegExp(name.slice(0, name.length - 1 - i))}\\.?`,
      )
    : []
  return [escapeRegExp(name), ...shortenings, escapeRegExp(state_code.trim())].filter((word) => word !== '').join('|')
}

/** Tells whether a line reads as an address: a state and ZIP, a street or road, or a town on its own line. */
export function isAddressLike(text: string, addresses: AddressPatterns): boolean {
  const words = text.split(/\s+/).length
  if (words > 15) return false
  if (addresses.stateAndZip.test(text)) return true
  if (words <= 10 && (STREET_ADDRESS.test(text) || ROAD_FIRST.test(text))) return true
  return addresses.cityState.test(text)
}
