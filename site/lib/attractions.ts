import type { Attraction } from '@roland/scripts/catalog/types'

/** The number of attraction cards the home page shows besides the featured one (SPEC §9). */
export const homeAttractionLimit = 5

/** The page of the featured attraction (SPEC §2). */
export const featuredAttractionPath = '/recreation/pinnacle-mountain'

/** The featured attraction: the one marked featured, else the first. */
export function featuredAttraction(attractions: readonly Attraction[]): Attraction | null {
  return attractions.find((a) => a.is_featured) ?? attractions[0] ?? null
}

/** The attraction cards of the home page: the attractions after the featured one (SPEC §2). */
export function otherAttractions(attractions: readonly Attraction[], limit = homeAttractionLimit): Attraction[] {
  const featured = featuredAttraction(attractions)
  return attractions.filter((a) => a !== featured).slice(0, limit)
}

/** The attractions of one recreation category, by its name (e.g. 'Natural Attractions'). */
export function attractionsIn(attractions: readonly Attraction[], categoryName: string): Attraction[] {
  return attractions.filter((a) => a.category === categoryName)
}

/** The page of an attraction: the featured one has its own address (SPEC §2). */
export function attractionPath(attraction: Attraction, attractions: readonly Attraction[]): string {
  return attraction.id === featuredAttraction(attractions)?.id ? featuredAttractionPath : `/attraction/${attraction.id}`
}

/** The art an attraction card draws, by its category: there are no attraction photos. */
export type ArtKind = 'nature' | 'sports' | 'premium'

/** Picks the art for an attraction category. */
export function artKind(category: string): ArtKind {
  if (/premium/i.test(category)) return 'premium'
  if (/sport/i.test(category)) return 'sports'
  return 'nature'
}

/** Reads a distance such as "5 miles" as a number of miles, for sorting; unknown distances go last. */
export function distanceMiles(distance: string | null): number {
  const match = distance?.match(/(\d+(?:\.\d+)?)/)
  return match ? Number(match[1]) : Number.POSITIVE_INFINITY
}

/** Lists attractions nearest first. */
export function byDistance(attractions: readonly Attraction[]): Attraction[] {
  return [...attractions].sort(
    (a, b) => distanceMiles(a.distance) - distanceMiles(b.distance) || a.name.localeCompare(b.name),
  )
}
