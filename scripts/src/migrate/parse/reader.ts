import type { CountryCode } from 'libphonenumber-js'
import { addressPatterns, type AddressPatterns, type ListPlace } from './address.ts'
import type { LineKind } from './kinds.ts'
import { phoneFinder, type PhoneFinder } from './phone.ts'

// The one ListReader a list is read with, passed down to every stage.

/**
 * What reading one list needs beside its text: its country's phone numbers, its state's address
 * patterns, and what each line was read as. A line is looked at again and again, whether it ends
 * an entry, starts one or carries a field; it is read once per list (its reading depends on both).
 */
export interface ListReader {
  phones: PhoneFinder
  addresses: AddressPatterns
  kinds: Map<string, LineKind>
}

/** Makes the reader of one list, for the country its phones are dialled in and its state. */
export function listReader(country: CountryCode, place: ListPlace | undefined): ListReader {
  return { phones: phoneFinder(country), addresses: addressPatterns(place), kinds: new Map() }
}
