// Site settings that are not in the database. The town, its time zone and the people visitors
// write to are the town settings (the town_settings row, read with the catalog: catalog.town).

/** Headline figures with no table behind them (SPEC §1, §9). */
export const staticFigures = {
  faithCommunities: 6,
  communities: 1,
} as const

// SPEC §4's "fixed image for one named big-box store" lives in scripts/src/content/fixed-images.ts,
// which the freshness check reads too (a store with a fixed image has a photo). Edit it there.
export { fixedBusinessImages } from '@roland/scripts/content/fixed-images'
