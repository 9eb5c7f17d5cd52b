// Site settings that are not in the database: the town, the footer, and the people visitors
// write to. Edit here; every page reads them from this one place.

/** The town the site is about (SPEC §1: the site title is the town name with this tagline). */
export const town = {
  name: 'Roland',
  state: 'Arkansas',
  stateAbbreviation: 'AR',
  zip: '72135',
  tagline: 'Arkansas Community',
  county: 'Pulaski County',
} as const

/** The place a maps search is anchored to (SPEC §2: "the address plus Roland, AR"). */
export const mapsPlace = `${town.name}, ${town.stateAbbreviation}`

/** The footer's copyright year (SPEC §9). */
export const copyrightYear = 2024

/**
 * The community coordinator who manages events (SPEC §1 leaves the name open).
 * SAMPLE CONTENT: a made-up person and an address on a reserved .example domain, to be
 * replaced with the real coordinator before the site goes public.
 */
export const coordinator = {
  name: 'Dana Whitfield',
  role: 'Community Coordinator',
  email: 'events@roland-ar.example',
} as const

/** Headline figures with no table behind them (SPEC §1, §9). */
export const staticFigures = {
  faithCommunities: 6,
  communities: 1,
} as const

// SPEC §4's "fixed image for one named big-box store" lives in scripts/src/content/fixed-images.ts,
// which the freshness check reads too (a store with a fixed image has a photo). Edit it there.
export { fixedBusinessImages } from '@roland/scripts/content/fixed-images'
