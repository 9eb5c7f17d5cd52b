import type { Business, BusinessImage } from '@roland/scripts/catalog/types'

/** An image ready for an <img>: where it is and what it shows. */
export interface ShownImage {
  url: string
  alt: string
  /** Drawn by the images job, not a photo of the place: the page says so. */
  generated: boolean
}

/** The fixed picture an operator set for one business (SPEC §4's named big-box store). */
export interface FixedImages {
  image: string
  logo?: string
}

/** The most photos a business page shows (SPEC §9). */
export const photoLimit = 4

type ImageOwner = Pick<Business, 'name' | 'images'>

const isLogo = (image: BusinessImage) => image.image_type === 'logo'
const isGenerated = (image: BusinessImage) => image.metadata?.generated === true

/** The alt text of a business image: its own, else one made from the business name. */
export function imageAlt(image: BusinessImage, business: Pick<Business, 'name'>, position: number): string {
  const own = image.alt_text?.trim()
  return own ? own : `${business.name} photo ${position}`
}

const shown = (image: BusinessImage, business: ImageOwner, position = 1): ShownImage => ({
  url: image.image_url,
  alt: imageAlt(image, business, position),
  generated: isGenerated(image),
})

/**
 * Chooses the big picture of a business page, in SPEC §4's order: the fixed image, else a
 * generated one, else the primary, else one typed hero, else the first. Logos are left to the
 * header (they are shown there); crawled photos are stored images, so they are among the
 * candidates already.
 */
export function featuredImage(business: ImageOwner, fixed?: FixedImages): ShownImage | null {
  if (fixed) return { url: fixed.image, alt: business.name, generated: false }
  const candidates = business.images.filter((image) => !isLogo(image))
  const chosen =
    candidates.find(isGenerated) ??
    candidates.find((image) => image.is_primary) ??
    candidates.find((image) => image.image_type === 'hero') ??
    candidates[0]
  return chosen ? shown(chosen, business) : null
}

/**
 * Chooses the header logo (SPEC §4: the primary image; the fixed logo for the named store):
 * the primary logo, else any logo, else the primary image.
 */
export function logoImage(business: ImageOwner, fixed?: FixedImages): ShownImage | null {
  if (fixed?.logo) return { url: fixed.logo, alt: `${business.name} logo`, generated: false }
  const logos = business.images.filter(isLogo)
  const chosen =
    logos.find((image) => image.is_primary) ?? logos[0] ?? business.images.find((image) => image.is_primary)
  return chosen
    ? { url: chosen.image_url, alt: chosen.alt_text?.trim() || `${business.name} logo`, generated: isGenerated(chosen) }
    : null
}

/** Chooses the picture of a business card (SPEC §2: the primary image, else the first). */
export function cardImage(business: ImageOwner): ShownImage | null {
  const chosen = business.images.find((image) => image.is_primary) ?? business.images[0]
  return chosen ? shown(chosen, business) : null
}

/** Chooses the picture of a category page card (SPEC §2: the first image). */
export function firstImage(business: ImageOwner): ShownImage | null {
  const first = business.images[0]
  return first ? shown(first, business) : null
}

/** Lists the photos of a business page: up to four images that are not logos, with alt text. */
export function photoImages(business: ImageOwner, limit = photoLimit): ShownImage[] {
  return business.images
    .filter((image) => !isLogo(image))
    .slice(0, limit)
    .map((image, index) => shown(image, business, index + 1))
}
