import { businessStats } from '@roland/scripts/catalog/queries'
import type { Catalog, PageItem } from '@roland/scripts/catalog/types'
import { staticFigures } from './site-config.ts'

/** A headline figure of the hero: "25+" "Local Businesses". */
export interface Figure {
  value: string
  label: string
}

/** Rounds a count for a headline: exact below ten, else down to a multiple of five with a plus (27 → "25+"). */
export function roundedFigure(count: number): string {
  return count < 10 ? String(count) : `${Math.floor(count / 5) * 5}+`
}

/**
 * The four headline figures (SPEC §1), counted from the catalog where it can say. `words` are the
 * home page's entries for them (pages.items): each one's label, and the last two's values.
 */
export function headlineFigures(
  catalog: Pick<Catalog, 'businesses' | 'attractions'>,
  words: readonly PageItem[] = [],
): Figure[] {
  const [businesses, attractions, faith, community] = words
  return [
    { value: roundedFigure(businessStats(catalog).total), label: businesses?.name ?? 'Local Businesses' },
    { value: roundedFigure(catalog.attractions.length), label: attractions?.name ?? 'Attractions' },
    { value: faith?.note ?? String(staticFigures.faithCommunities), label: faith?.name ?? 'Faith Communities' },
    { value: community?.note ?? String(staticFigures.communities), label: community?.name ?? 'Community' },
  ]
}
