import type { Business, Town } from '@roland/scripts/catalog/types'
import { cardImage, type ShownImage } from './business-images.ts'
import { cardDescription, categoryBadgeLabel } from './business-text.ts'
import { telUrl } from './links.ts'

/**
 * What a business card shows (SPEC §2), plus the fields search reads. Plain data, so the
 * businesses island can take it as props.
 */
export type BusinessCardData = Pick<
  Business,
  | 'slug'
  | 'name'
  | 'category'
  | 'short_description'
  | 'full_description'
  | 'address'
  | 'phone'
  | 'hours'
  | 'is_featured'
> & {
  badge: string
  description: string
  /** The phone's tel: link, by the rules of the town's country; null without one. */
  tel: string | null
  image: ShownImage | null
}

/** Makes the card of a business. */
export function toBusinessCard(business: Business, town: Pick<Town, 'name' | 'state' | 'country'>): BusinessCardData {
  return {
    slug: business.slug,
    name: business.name,
    category: business.category,
    short_description: business.short_description,
    full_description: business.full_description,
    address: business.address,
    phone: business.phone,
    hours: business.hours,
    is_featured: business.is_featured,
    badge: categoryBadgeLabel(business.category),
    description: cardDescription(business, town),
    tel: business.phone ? telUrl(business.phone, town.country) : null,
    image: cardImage(business),
  }
}
