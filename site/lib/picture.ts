import type { ImageVariant } from '@roland/scripts/catalog/types'

// The markup of a business photo, card photo or logo, worked out once for both renderers
// (components/Picture.astro on static pages, components/Picture.tsx in the businesses island).
// A processed photo is offered as AVIF, then WebP, then its JPEG (or PNG) fallback, each in a few
// widths, and the browser picks the smallest that fills the place at the phone's pixel density.

/**
 * An image ready for a <picture>: where it is, what it shows, and what processing made of it
 * (the last fields are left out for an image not processed yet, so the search index stays small).
 */
export interface ShownImage {
  url: string
  alt: string
  /** Drawn by the images job, not a photo of the place: the page says so. */
  generated: boolean
  /** Intrinsic size in pixels. */
  width?: number
  height?: number
  /** Its average colour (#rrggbb), shown until it loads. */
  color?: string
  /** A blurred preview (a PNG data URL), made only for a business page's featured image. */
  blur?: string
  /** Its derivatives: what its <picture> offers. */
  variants?: ShownVariant[]
}

/** The places a business image is drawn in; each has its own drawn width and loading. */
export type PicturePlace = 'hero' | 'photo' | 'card' | 'lead-card' | 'featured-card' | 'logo'

/** How the browser should fetch an image: first, as usual, or only when it nears the viewport. */
export type PictureLoading = 'priority' | 'eager' | 'lazy'

interface PlaceLayout {
  /** How wide the place is drawn at each viewport width (the `sizes` of its sources), from the site's grid. */
  sizes: string
  /** Width and height to give an image whose intrinsic size is unknown: the aspect of its box. */
  box: { width: number; height: number }
  /** The widest derivative worth offering there: the widest slot at 2x, or a phone's at 3x. */
  largest: number
  loading: PictureLoading
}

// The widths follow the layout's Tailwind classes: containers are max-w-7xl (80rem) with px-4, so
// the content is 100vw - 2rem up to 1280px and 1248px beyond; grids have gap-6 (cards) or gap-4.
const cardSizes =
  '(min-width: 1280px) 400px, (min-width: 1024px) calc((100vw - 5rem) / 3), (min-width: 640px) calc((100vw - 3.5rem) / 2), calc(100vw - 2rem)'

/** Where each place sits in the layout, and how its image loads. */
export const pictureLayouts: Record<PicturePlace, PlaceLayout> = {
  // The featured image of a business page: the main column beside the 22rem contact card on lg;
  // the page's largest element, so its LCP, fetched first.
  hero: {
    sizes: '(min-width: 1280px) 864px, (min-width: 1024px) calc(100vw - 26rem), calc(100vw - 2rem)',
    box: { width: 1200, height: 675 },
    largest: Number.POSITIVE_INFINITY,
    loading: 'priority',
  },
  // The two-column photo grid under the about card: below the fold.
  photo: {
    sizes: '(min-width: 1280px) 424px, (min-width: 1024px) calc(50vw - 13rem), calc(50vw - 1.5rem)',
    box: { width: 600, height: 450 },
    largest: 960,
    loading: 'lazy',
  },
  // Cards of the home page, /businesses and category pages: one to three columns.
  card: { sizes: cardSizes, box: { width: 640, height: 360 }, largest: 960, loading: 'lazy' },
  // The first card of /businesses or of a category page without a featured location: on a phone
  // the largest element above the fold, so its LCP, fetched first rather than lazily.
  'lead-card': { sizes: cardSizes, box: { width: 640, height: 360 }, largest: 960, loading: 'priority' },
  // The featured location at the top of a category page: two fifths of the row from md; the
  // page's largest element on a phone, so its LCP, fetched first.
  'featured-card': {
    sizes: '(min-width: 1280px) 500px, (min-width: 768px) calc((100vw - 2rem) * 0.4), calc(100vw - 2rem)',
    box: { width: 640, height: 480 },
    largest: 960,
    loading: 'priority',
  },
  // The 80px logo beside a business page's name.
  logo: { sizes: '80px', box: { width: 80, height: 80 }, largest: 320, loading: 'eager' },
}

/** A `<source>` of a `<picture>`: one format in every width the place may use. */
export interface PictureSource {
  type: `image/${ImageVariant['format']}`
  srcset: string
  sizes: string
}

/** What a `<picture>` of a business image is made of; renderers only write it out. */
export interface Picture {
  /** AVIF then WebP; empty for an image without derivatives (served as it is). */
  sources: PictureSource[]
  img: { src: string; srcset?: string; sizes?: string; width: number; height: number }
  /** The attributes of how the image loads (fetchpriority, loading, decoding). */
  loading: { fetchpriority?: 'high'; loading?: 'lazy'; decoding?: 'async' }
  /** The inline style showing the placeholder until the image loads, if the image has one. */
  style?: PlaceholderStyle
}

/** The background an image shows until it loads (camelCase: both Astro and React take it). */
export interface PlaceholderStyle {
  backgroundColor?: string
  backgroundImage?: string
  backgroundSize?: 'cover'
}

/** A derivative as a page needs it (ImageVariant without its height and size). */
export type ShownVariant = Pick<ImageVariant, 'format' | 'width' | 'url'>

const loadingAttributes: Record<PictureLoading, Picture['loading']> = {
  priority: { fetchpriority: 'high' },
  eager: {},
  lazy: { loading: 'lazy', decoding: 'async' },
}

const srcset = (variants: readonly ShownVariant[]) => variants.map((v) => `${v.url} ${v.width}w`).join(', ')

/**
 * Keeps the derivatives a place can use: those up to its largest width, narrowest first, and in
 * each format at least the narrowest (a logo smaller than 320px has only its own width).
 */
export function variantsFor(variants: readonly ShownVariant[], largest: number): ShownVariant[] {
  const sorted = [...variants].sort((a, b) => a.width - b.width)
  return sorted.filter(
    (variant) => variant.width <= largest || sorted.find((v) => v.format === variant.format) === variant,
  )
}

/**
 * Works out the `<picture>` of a business image in a place: AVIF and WebP sources and the
 * JPEG (PNG for transparency) fallback, width and height from its intrinsic size, its loading,
 * and its placeholder colour. An image without derivatives (not processed yet, an SVG logo, the
 * fixed image of site-config) is a plain `<img>` of its own URL in the place's box.
 */
export function pictureOf(image: ShownImage, place: PicturePlace, options: { blur?: boolean } = {}): Picture {
  const layout = pictureLayouts[place]
  const variants = variantsFor(image.variants ?? [], layout.largest)
  const ofFormat = (format: ShownVariant['format']) => variants.filter((v) => v.format === format)
  const fallback = ofFormat('png').length > 0 ? ofFormat('png') : ofFormat('jpeg')
  const size = image.width && image.height ? { width: image.width, height: image.height } : { ...layout.box }
  const style = placeholderStyle(image, options.blur === true)
  const picture: Picture = {
    sources: [],
    img: { src: image.url, ...size },
    loading: loadingAttributes[layout.loading],
    ...(style ? { style } : {}),
  }
  if (fallback.length === 0) return picture
  for (const format of ['avif', 'webp'] as const) {
    const found = ofFormat(format)
    if (found.length > 0) picture.sources.push({ type: `image/${format}`, srcset: srcset(found), sizes: layout.sizes })
  }
  // For a browser without srcset: the narrowest derivative that fills the place's usual box.
  const src = fallback.find((v) => v.width >= layout.box.width) ?? fallback.at(-1)!
  picture.img = { src: src.url, srcset: srcset(fallback), sizes: layout.sizes, ...size }
  return picture
}

/**
 * The address to share an image by (og:image, JSON-LD): its widest JPEG or PNG derivative, which
 * link previews read and which is at most 1440px and a fraction of the original's bytes; the image
 * itself when it has none.
 */
export function shareImageUrl(image: ShownImage): string {
  const shareable = (image.variants ?? []).filter((v) => v.format === 'jpeg' || v.format === 'png')
  return shareable.sort((a, b) => b.width - a.width)[0]?.url ?? image.url
}

function placeholderStyle(image: ShownImage, blur: boolean): PlaceholderStyle | null {
  const style: PlaceholderStyle = {}
  if (image.color) style.backgroundColor = image.color
  if (blur && image.blur) Object.assign(style, { backgroundImage: `url(${image.blur})`, backgroundSize: 'cover' })
  return Object.keys(style).length > 0 ? style : null
}
