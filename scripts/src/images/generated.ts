import type { BusinessRecord } from '../store/types.ts'

// How a generated image is labelled, so the site can say so (SPEC §4 puts a generated image
// first) and people using screen readers hear it: the alt text says "generated", and the
// business_images row's metadata carries generated: true with the provider that made it.

/** Which provider made an image: drawn here, or by an images API directly or through Supabase. */
export type ImageProviderName = 'local' | 'openai' | 'supabase'

/** The metadata of a generated business_images row. */
export interface GeneratedImageMetadata {
  generated: true
  provider: ImageProviderName
  model: string
  prompt: string
  width: number
  height: number
  generatedAt: string
}

/** Says whether a business_images row was generated rather than photographed. */
export function isGeneratedImage(image: { metadata: Record<string, unknown> | null | undefined }): boolean {
  return image.metadata?.generated === true
}

/** Says whether a business has no image at all (what `--missing` looks for). */
export function hasNoImage(business: Pick<BusinessRecord, 'images'>): boolean {
  return business.images.length === 0
}

/** Writes the alt text of a generated store image, saying that it is generated. */
export function generatedAltText(businessName: string, provider: ImageProviderName, place: string): string {
  return provider === 'local'
    ? `Illustrated storefront of ${businessName} in ${place} (generated image)`
    : `AI-generated image of the storefront of ${businessName} in ${place}`
}

const categoryPhrases: Record<string, string> = {
  'dining & refreshments': 'a local place to eat and drink',
  'shopping & convenience': 'a local shop',
  'professional services': 'a local professional office',
  recreation: 'a local recreation business',
}

/** Writes the prompt for a business's store image (SPEC §7 sends it with the business name); `place` is "{town}, {state}". */
export function storeImagePrompt(business: { name: string; category: string }, place: string): string {
  const phrase = categoryPhrases[business.category.trim().toLowerCase()] ?? 'a local business'
  return (
    `A welcoming small-town storefront for "${business.name}", ${phrase} in ${place}, ` +
    'a small community. Daylight, a tidy facade with an awning ' +
    `and a sign reading "${business.name}", plants by the door. Photorealistic, no people, no other text.`
  )
}
