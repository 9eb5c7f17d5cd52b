// Site settings that are not in the database. The town, its time zone and the people visitors
// write to are the town settings (the town_settings row, read with the catalog: catalog.town).

/** Headline figures with no table behind them (SPEC §1, §9). */
export const staticFigures = {
  faithCommunities: 6,
  communities: 1,
} as const

/**
 * SPEC §4's "fixed image for one named big-box store": a business slug mapped to the image
 * (and logo) the site always shows for it, whatever the database holds. Empty until an
 * operator names a store; the files belong in site/public.
 */
export const fixedBusinessImages: Record<string, { image: string; logo?: string }> = {}
