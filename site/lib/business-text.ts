import type { Business, Town } from '@roland/scripts/catalog/types'

const present = (text: string | null | undefined): string | null => {
  const trimmed = text?.trim()
  return trimmed ? trimmed : null
}

/** The text of a business card (SPEC §2): the short description, else the full one, else a stock line. */
export function cardDescription(
  business: Pick<Business, 'name' | 'short_description' | 'full_description'>,
  town: Pick<Town, 'name' | 'state'>,
): string {
  return (
    present(business.short_description) ??
    present(business.full_description) ??
    `${business.name} - Local business in ${town.name}, ${town.state}.`
  )
}

/** The text of the "About {name}" card (SPEC §2): the full description, else the short one, else a stock line. */
export function aboutText(
  business: Pick<Business, 'name' | 'short_description' | 'full_description'>,
  town: Pick<Town, 'name' | 'state'>,
): string {
  return (
    present(business.full_description) ??
    present(business.short_description) ??
    `${business.name} is a local business in ${town.name}, ${town.state}.`
  )
}

/** The column the "About {name}" text comes from, or null for the stock line (the suggestion form reads it from the page). */
export function aboutField(
  business: Pick<Business, 'short_description' | 'full_description'>,
): 'full_description' | 'short_description' | null {
  return present(business.full_description)
    ? 'full_description'
    : present(business.short_description)
      ? 'short_description'
      : null
}

const badgeLabels: Record<string, string> = {
  'Dining & Refreshments': 'Local Favorite',
  'Shopping & Convenience': 'Convenience',
  'Professional Services': 'Professional',
  Recreation: 'Community Hub',
}

/** The category badge of a business (SPEC §3's labels); any other category is a "Local Business". */
export function categoryBadgeLabel(category: string): string {
  return Object.hasOwn(badgeLabels, category) ? badgeLabels[category]! : 'Local Business'
}

/** Formats a rating for a badge: one decimal, e.g. "4.8". */
export function formatRating(rating: number): string {
  return rating.toFixed(1)
}

/**
 * Makes the "Listing checked November 2026" line of a time zone (the town's calendar), from when
 * an operator last verified a listing; null when never. Its formatter is made once, with it.
 */
export function listingCheckedFormat(timeZone: string): (verifiedAt: string | null) => string | null {
  const checkedMonth = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone })
  return (verifiedAt) => {
    if (!verifiedAt) return null
    const at = new Date(verifiedAt)
    if (Number.isNaN(at.getTime())) return null
    return `Listing checked ${checkedMonth.format(at)}`
  }
}
