import type { Town } from '@roland/scripts/catalog/types'
import { listingCheckedFormat } from './business-text.ts'
import { eventFormats, type EventFormats } from './events.ts'
import { timeZoneName } from './hours.ts'

// The town's dates and times as the pages write them. Intl formatters cost more than the text they
// write, so a build makes them once, not once per page: they belong to the town object of the
// catalog the build read (the build's lifetime, as directory.ts keeps its sections by catalog), and
// go with it; `astro dev` reads a fresh catalog, and so makes fresh ones.

/** The town's formats: event dates and times, the "Listing checked" line, the time zone's name. */
export interface TownFormats {
  events: EventFormats
  /** "Listing checked November 2026", or null when never verified. */
  listingChecked(verifiedAt: string | null): string | null
  /** "Central Time": what the opening hours are in. */
  zoneName: string
}

const formatsByTown = new WeakMap<Pick<Town, 'time_zone'>, TownFormats>()

/** The formats of the town the build read (made on the first page that asks, in the town's time zone). */
export function townFormats(town: Pick<Town, 'time_zone'>): TownFormats {
  let formats = formatsByTown.get(town)
  if (!formats) {
    formats = {
      events: eventFormats(town.time_zone),
      listingChecked: listingCheckedFormat(town.time_zone),
      zoneName: timeZoneName(town.time_zone),
    }
    formatsByTown.set(town, formats)
  }
  return formats
}
