import { MIN_PICTURE_PIXELS, type CandidateSource, type ImageCandidate } from './candidates.ts'

/** What a chosen image is used for on the business page. */
export type ImageRole = 'hero' | 'thumbnail' | 'logo'

/** An image that passed every rule, merged from all the places it appeared. */
export interface AcceptedImage {
  url: string
  /** Every place it was found, first one first. */
  sources: CandidateSource[]
  /** The page it was first found on. */
  pageUrl: string
  alt: string | undefined
  width: number | undefined
  height: number | undefined
  isLogo: boolean
  isHero: boolean
  roles: ImageRole[]
}

/** An image address that was found and left out, and why. */
export interface RejectedImage {
  url: string
  source: CandidateSource
  pageUrl: string
  reason: string
}

/** The hero, thumbnail and logo chosen from a site's images, with everything accepted and rejected on the way. */
export interface ImageChoice {
  heroUrl: string | null
  thumbnailUrl: string | null
  logoUrl: string | null
  images: AcceptedImage[]
  rejected: RejectedImage[]
}

// Analytics and advertising beacons dressed up as images.
const PIXEL_ENDPOINTS: readonly RegExp[] = [
  /(^|\.)facebook\.com\/tr\b/,
  /(^|\.)google-analytics\.com\//,
  /(^|\.)googletagmanager\.com\//,
  /(^|\.)doubleclick\.net\//,
  /(^|\.)googleadservices\.com\//,
  /(^|\.)bat\.bing\.com\//,
  /(^|\.)pixel\.wp\.com\//,
  /(^|\.)stats\.wp\.com\//,
  /(^|\.)px\.ads\.linkedin\.com\//,
  /(^|\.)analytics\.twitter\.com\//,
  /^t\.co\/i\/adsct/,
  /(^|\.)scorecardresearch\.com\//,
  /(^|\.)quantserve\.com\//,
  /(^|\.)ct\.pinterest\.com\//,
  /(^|\.)tr\.snapchat\.com\//,
  /(^|\.)adnxs\.com\//,
  /(^|\.)analytics\.tiktok\.com\//,
  /\/(?:pixel|beacon|tracking|track|collect)(?:\.gif|\.png)?(?:$|[/?])/,
]
// Transparent placeholders lazy-loaders show before the real picture arrives.
const PLACEHOLDER_FILES =
  /\/(?:spacer|blank|transparent|trans|clear|clearpixel|shim|dot|pixel|1x1|lazy|loading|placeholder)[-_.]?(?:\d+x\d+)?\.(?:gif|png)$/

const CONTENT_SOURCES = new Set<CandidateSource>([
  'og:image',
  'twitter:image',
  'json-ld-image',
  'itemprop-image',
  'preload',
  'img',
  'picture',
  'linked-image',
  'poster',
  'background',
  'stylesheet',
  'markdown',
])
const ICON_SOURCES = new Set<CandidateSource>(['icon', 'apple-touch-icon'])
const SHOWN_SOURCES = new Set<CandidateSource>(['img', 'picture', 'background', 'stylesheet'])
const RESIZE_PARAMETERS = new Set([
  'w',
  'h',
  'width',
  'height',
  'format',
  'fit',
  'crop',
  'q',
  'quality',
  'auto',
  'dpr',
  'resize',
  'size',
  'fm',
])

/**
 * Tell whether an address looks like an image by SPEC §5: a known image extension (AVIF too, which <picture>
 * sources offer and the downloader reads), or the word image or photo.
 */
export function isImageUrl(url: string): boolean {
  const lower = url.toLowerCase()
  return (
    /\.(?:jpe?g|png|webp|avif|gif|svg)(?![a-z0-9])/.test(lower) || lower.includes('image') || lower.includes('photo')
  )
}

/** Say why an address is a tracking pixel or placeholder, or undefined when it is not one. */
export function pixelReason(candidate: Pick<ImageCandidate, 'url' | 'width' | 'height'>): string | undefined {
  if (
    candidate.width !== undefined &&
    candidate.height !== undefined &&
    candidate.width <= 2 &&
    candidate.height <= 2
  ) {
    return `tracking pixel (${candidate.width}×${candidate.height})`
  }
  // A 1-pixel-wide or -tall image stretched by the layout: an old table site's spacer or rule.
  if (
    candidate.width !== undefined &&
    candidate.height !== undefined &&
    Math.min(candidate.width, candidate.height) <= 2
  ) {
    return `spacer (${candidate.width}×${candidate.height})`
  }
  let url: URL
  try {
    url = new URL(candidate.url)
  } catch {
    return undefined
  }
  const address = `${url.hostname}${url.pathname}`.toLowerCase()
  if (PIXEL_ENDPOINTS.some((pattern) => pattern.test(address))) return `tracking pixel (${url.hostname})`
  if (PLACEHOLDER_FILES.test(url.pathname.toLowerCase())) return 'placeholder image'
  return undefined
}

/** Say why an image is too small to be a photo or a logo (an icon, a badge), or undefined when it is not. */
export function tinyReason(candidate: Pick<ImageCandidate, 'width' | 'height'>): string | undefined {
  const { width, height } = candidate
  if (width === undefined || height === undefined || Math.max(width, height) >= MIN_PICTURE_PIXELS) return undefined
  return `icon or badge (${width}×${height}, under ${MIN_PICTURE_PIXELS} px)`
}

/** Reduce an image address to the picture it shows, so resized copies (WordPress, Wix, CDN parameters) count once. */
export function imageKey(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return url
  }
  let path = decodeURIComponent(parsed.pathname)
  // Wix serves one picture under /media/<id>~mv2.jpg/v1/fill/w_…,h_…/<name>.jpg.
  path = path.replace(/(~mv2\.[a-z]+)\/v1\/.*$/i, '$1')
  // WordPress names its resized copies photo-1024x683.jpg, photo-scaled.jpg and photo@2x.jpg.
  path = path.replace(/(?:-\d+x\d+|-scaled|@\dx)(\.[a-z]+)$/i, '$1')
  const kept = [...parsed.searchParams.entries()]
    .filter(([name]) => !RESIZE_PARAMETERS.has(name.toLowerCase()))
    .map(([name, value]) => `${name}=${value}`)
    .sort()
  return `${parsed.hostname.toLowerCase()}${path.toLowerCase()}${kept.length > 0 ? `?${kept.join('&')}` : ''}`
}

function area(image: Pick<AcceptedImage, 'width' | 'height'>): number | undefined {
  const { width, height } = image
  if (width !== undefined && height !== undefined) return width * height
  if (width !== undefined) return width * width * 0.66
  if (height !== undefined) return height * height * 1.5
  return undefined
}

function isSvg(url: string): boolean {
  return /\.svg(?:$|[?#])/i.test(url)
}

/** Tell whether an accepted image can stand for the business as a photo: content, not a logo, not tiny, not a strip. */
function isGoodPhoto(image: AcceptedImage): boolean {
  if (image.isLogo || isSvg(image.url)) return false
  if (!image.sources.some((source) => CONTENT_SOURCES.has(source))) return false
  const { width, height } = image
  if (width !== undefined && height !== undefined) {
    if (Math.max(width, height) < 200 || Math.min(width, height) < 100) return false
    const ratio = width / height
    if (ratio > 4 || ratio < 0.25) return false
  } else if ((width ?? height ?? 200) < 200) {
    return false
  }
  return true
}

function photoScore(image: AcceptedImage): number {
  const known = area(image)
  // Unknown sizes rank below a large declared photo but above a small one; a hero section is trusted more.
  const base = known ?? (image.isHero ? 1_000_000 : 250_000)
  return image.isHero ? base * 1.5 : base
}

function merge(into: AcceptedImage, candidate: ImageCandidate): void {
  if (!into.sources.includes(candidate.source)) into.sources.push(candidate.source)
  into.isLogo ||= candidate.isLogo
  into.isHero ||= candidate.isHero
  into.alt ??= candidate.alt
  if (candidate.url === into.url) {
    // The same address declared twice: whichever mention knew its size tells it.
    into.width ??= candidate.width
    into.height ??= candidate.height
  } else if (sizeRank(candidate) > sizeRank(into)) {
    // Keep the largest copy of the same picture.
    into.url = candidate.url
    into.width = candidate.width
    into.height = candidate.height
  }
}

/** Rank copies of one picture by size; an unresized original of unknown size outranks every resized copy. */
function sizeRank(image: Pick<AcceptedImage, 'url' | 'width' | 'height'>): number {
  const known = area(image)
  if (known !== undefined) return known
  return isUnresized(image.url) ? Number.POSITIVE_INFINITY : 0
}

function isUnresized(url: string): boolean {
  try {
    const parsed = new URL(url)
    const path = decodeURIComponent(parsed.pathname)
    const hasSizeSuffix = /(?:-\d+x\d+|-scaled|@\dx)\.[a-z]+$/i.test(path) || /~mv2\.[a-z]+\/v1\//i.test(path)
    const hasResizeParameter = [...parsed.searchParams.keys()].some((name) => RESIZE_PARAMETERS.has(name.toLowerCase()))
    return !hasSizeSuffix && !hasResizeParameter
  } catch {
    return false
  }
}

function shortUrl(url: string): string {
  return url.startsWith('data:') ? `${url.slice(0, 30)}…` : url
}

/**
 * Filter candidates (SPEC §5's image rule, data: URIs, tracking pixels, duplicates) and choose the logo, the hero
 * and the thumbnail. Candidates are expected in crawl order: home page first, each page in document order.
 */
export function chooseImages(candidates: readonly ImageCandidate[]): ImageChoice {
  const rejected: RejectedImage[] = []
  const byKey = new Map<string, AcceptedImage>()

  for (const candidate of candidates) {
    const reject = (reason: string): void => {
      rejected.push({ url: shortUrl(candidate.url), source: candidate.source, pageUrl: candidate.pageUrl, reason })
    }
    if (candidate.url.startsWith('data:')) {
      reject('data: URI (an inline placeholder, not a picture we can store)')
      continue
    }
    const junk = candidate.junk ?? pixelReason(candidate) ?? tinyReason(candidate)
    if (junk) {
      reject(junk)
      continue
    }
    if (!isImageUrl(candidate.url)) {
      reject('not an image address (no jpg, jpeg, png, webp, avif, gif or svg extension, no "image" or "photo")')
      continue
    }
    const key = imageKey(candidate.url)
    const existing = byKey.get(key)
    if (existing) {
      merge(existing, candidate)
      continue
    }
    byKey.set(key, {
      url: candidate.url,
      sources: [candidate.source],
      pageUrl: candidate.pageUrl,
      alt: candidate.alt,
      width: candidate.width,
      height: candidate.height,
      isLogo: candidate.isLogo,
      isHero: candidate.isHero,
      roles: [],
    })
  }

  const images = [...byKey.values()]
  const logo = chooseLogo(images)
  // A site often shares its logo as og:image; the logo is never the hero.
  const photos = images.filter((image) => image !== logo && isGoodPhoto(image))
  const shared =
    photos.find((image) => image.sources.includes('og:image')) ??
    photos.find((image) => image.sources.includes('twitter:image'))
  const byScore = [...photos].sort((a, b) => photoScore(b) - photoScore(a))
  const hero = shared ?? byScore[0]
  const thumbnail = byScore.find((image) => image !== hero) ?? hero

  logo?.roles.push('logo')
  hero?.roles.push('hero')
  thumbnail?.roles.push('thumbnail')
  return {
    heroUrl: hero?.url ?? null,
    thumbnailUrl: thumbnail?.url ?? null,
    logoUrl: logo?.url ?? null,
    images,
    rejected,
  }
}

function chooseLogo(images: AcceptedImage[]): AcceptedImage | undefined {
  const declared = images.find(
    (image) => image.sources.includes('json-ld-logo') || image.sources.includes('itemprop-logo'),
  )
  if (declared) return declared
  const marked = images.filter((image) => image.isLogo && !image.sources.every((source) => ICON_SOURCES.has(source)))
  // The logo shown in the page beats one only named in meta tags; the first one shown is the site's own.
  const shown = marked.find((image) => image.sources.some((source) => SHOWN_SOURCES.has(source)))
  if (shown ?? marked[0]) return shown ?? marked[0]
  return images
    .filter((image) => image.sources.includes('apple-touch-icon'))
    .sort((a, b) => (area(b) ?? 0) - (area(a) ?? 0))[0]
}
