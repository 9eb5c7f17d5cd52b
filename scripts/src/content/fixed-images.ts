// SPEC §4's "fixed image for one named big-box store", in one place that the site (which shows
// the image) and the freshness check (which then does not call the listing "no photo") both read.

/** The image (and logo) the site shows for a store by its business slug, whatever the database holds. */
export type FixedBusinessImage = { image: string; logo?: string }

/**
 * A business slug mapped to the image (and logo) the site always shows for it. Empty until an
 * operator names a store; the files belong in site/public.
 */
export const fixedBusinessImages: Readonly<Record<string, FixedBusinessImage>> = {}
