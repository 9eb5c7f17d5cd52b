import { businessStats } from '@roland/scripts/catalog/queries'
import type { Catalog } from '@roland/scripts/catalog/types'
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

/** The four headline figures (SPEC §1), counted from the catalog where it can say. */
export function headlineFigures(catalog: Pick<Catalog, 'businesses' | 'attractions'>): Figure[] {
  return [
    { value: roundedFigure(businessStats(catalog).total), label: 'Local Businesses' },
    { value: roundedFigure(catalog.attractions.length), label: 'Attractions' },
    { value: String(staticFigures.faithCommunities), label: 'Faith Communities' },
    { value: String(staticFigures.communities), label: 'Community' },
  ]
}
