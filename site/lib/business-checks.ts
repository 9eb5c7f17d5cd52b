import type { Business } from '@roland/scripts/catalog/types'

/** Raised when a business cannot be published as it is; the message names it and says how to fix it. */
export class UnpublishableBusinessError extends Error {
  override name = 'UnpublishableBusinessError'
}

const blank = (value: string | null) => !value?.trim()

/**
 * Fails the build when a business has no name or no address: its page would give search engines
 * a LocalBusiness without one (issue 8). Every business at fault is named, with how to fix it.
 */
export function assertPublishableBusinesses(
  businesses: ReadonlyArray<Pick<Business, 'slug' | 'name' | 'address'>>,
): void {
  const faults = businesses.flatMap((business) => {
    const missing = [blank(business.name) && 'no name', blank(business.address) && 'no address'].filter(Boolean)
    const label = blank(business.name)
      ? `The business with slug ${business.slug}`
      : `${business.name.trim()} (slug ${business.slug})`
    return missing.length > 0 ? [`  - ${label} has ${missing.join(' and ')}`] : []
  })
  if (faults.length === 0) return
  throw new UnpublishableBusinessError(
    `Every business needs a name and an address, so the site was not built:\n${faults.join('\n')}\n` +
      'Add the missing line to its entry in Roland.txt and run the migration again (`pnpm roland migrate`), ' +
      'or fill in the name and address columns of its row in the businesses table.',
  )
}
