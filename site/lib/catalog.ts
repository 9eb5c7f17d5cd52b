import type { Catalog } from '@roland/scripts/catalog/types'
import { catalogSource } from './catalog-slot.ts'

// Every page (and the header and footer on every page) asks for the catalog; a build reads it once
// (with 10,000 businesses, gathering and sorting it again per page made the build quadratic), and
// `astro dev` afresh each time, so an edit to the data shows on the next reload.

/** The catalog in the shape and order the catalog queries take. */
export function getCatalog(): Promise<Catalog> {
  const source = catalogSource()
  if (!source) {
    throw new Error(
      'The catalog was not read: the roland:catalog integration (site/integrations/site-catalog.ts) is missing from astro.config.mjs.',
    )
  }
  return source()
}
