import type { Business, BusinessImage } from '@roland/scripts/catalog/types'
import { pictureLayouts, variantsFor, type ShownImage } from './picture.ts'
import { placeholderColor, placeholderDataUrl } from './placeholder.ts'

/** An image ready for a <picture>: defined beside the markup it makes (picture.ts). */
export type { ShownImage } from './picture.ts'

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

/** Makes the shown form of an image: its derivatives up to `largest` pixels wide, and its placeholder colour. */
function shown(image: BusinessImage, alt: string, largest = Number.POSITIVE_INFINITY): ShownImage {
  const result: ShownImage = { url: image.image_url, alt, generated: isGenerated(image) }
  if (image.width !== null && image.height !== null) Object.assign(result, { width: image.width, height: image.height })
  const color = placeholderColor(image.placeholder)
  if (color) result.color = color
  if (image.variants.length > 0) {
    result.variants = variantsFor(image.variants, largest).map(({ format, width, url }) => ({ format, width, url }))
  }
  return result
}

const shownAt = (image: BusinessImage, business: ImageOwner, position = 1, largest?: number) =>
  shown(image, imageAlt(image, business, position), largest)

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
  if (!chosen) return null
  const blur = placeholderDataUrl(chosen.placeholder)
  return { ...shownAt(chosen, business), ...(blur ? { blur } : {}) }
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
  return chosen ? shown(chosen, chosen.alt_text?.trim() || `${business.name} logo`, pictureLayouts.logo.largest) : null
}

/**
 * Chooses the picture of a business card (SPEC §2: the primary image, else the first), with only
 * the derivatives a card uses: the search index carries it for every business.
 */
export function cardImage(business: ImageOwner): ShownImage | null {
  const chosen = business.images.find((image) => image.is_primary) ?? business.images[0]
  return chosen ? shownAt(chosen, business, 1, pictureLayouts.card.largest) : null
}

/** Chooses the picture of a category page card (SPEC §2: the first image). */
export function firstImage(business: ImageOwner): ShownImage | null {
  const first = business.images[0]
  return first ? shownAt(first, business, 1, pictureLayouts.card.largest) : null
}

/** Lists the photos of a business page: up to four images that are not logos, with alt text. */
export function photoImages(business: ImageOwner, limit = photoLimit): ShownImage[] {
  return business.images
    .filter((image) => !isLogo(image))
    .slice(0, limit)
    .map((image, index) => shownAt(image, business, index + 1, pictureLayouts.photo.largest))
}
