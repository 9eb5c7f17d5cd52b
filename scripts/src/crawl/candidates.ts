import type { AnyNode, Document, Element } from 'domhandler'
import { isTag } from 'domhandler'
import { findAll, getAttributeValue, textContent } from 'domutils'
import { parseDocument } from 'htmlparser2'

/** Where on a page an image address was found. */
export type CandidateSource =
  | 'og:image'
  | 'twitter:image'
  | 'json-ld-logo'
  | 'json-ld-image'
  | 'itemprop-logo'
  | 'itemprop-image'
  | 'icon'
  | 'apple-touch-icon'
  | 'preload'
  | 'img'
  | 'picture'
  | 'linked-image'
  | 'poster'
  | 'background'
  | 'stylesheet'
  | 'markdown'

/** An image address found on a page, before any filtering, with what the page says about it. */
export interface ImageCandidate {
  /** Absolute http(s) address, or a data: URI exactly as the page had it. */
  url: string
  source: CandidateSource
  pageUrl: string
  alt: string | undefined
  /** Pixel size when the page declares it (attributes, srcset width, sizes, og:image:width…). */
  width: number | undefined
  height: number | undefined
  /** Marked as a logo by file name, class, id, alt or structured data. */
  isLogo: boolean
  /** Sits in a hero or banner section, or the page asks the browser to load it first. */
  isHero: boolean
  /** Order on its page, so earlier images win ties. */
  position: number
  /** Why the page shows it is not a picture at all (an SVG sprite, an icon font), when it does. */
  junk?: string | undefined
}

type Draft = Omit<ImageCandidate, 'pageUrl' | 'position' | 'alt' | 'width' | 'height' | 'isLogo' | 'isHero' | 'junk'> &
  Partial<Pick<ImageCandidate, 'alt' | 'width' | 'height' | 'isLogo' | 'isHero' | 'junk'>>

// Attributes lazy-loading plugins (lazysizes, WP Rocket, Jetpack, a3, Squarespace, Wix) keep the real address in.
const LAZY_SRC_ATTRIBUTES = [
  'data-orig-file',
  'data-large-file',
  'data-image',
  'data-src',
  'data-lazy-src',
  'data-original',
  'data-lazy',
  'data-url',
  'data-hi-res-src',
  'data-full-url',
  'data-pin-media',
]
const LAZY_SRCSET_ATTRIBUTES = ['srcset', 'data-srcset', 'data-lazy-srcset']
const LAZY_BACKGROUND_ATTRIBUTES = ['data-bg', 'data-background', 'data-background-image', 'data-bg-image']

const LOGO_MARK = /logo/i
const LOGO_CONTAINER = /logo|navbar-brand|site-brand|brand-logo|header-brand/i
const HERO_CONTAINER = /hero|banner|masthead|jumbotron|slider|slideshow|carousel|splash|cover|featured-image/i
const IMAGE_EXTENSION = /\.(?:jpe?g|png|webp|gif|svg|avif)(?:$|[?#])/i
// The header or top bar of a page, where site builders put the logo as a link to the home page.
const HEADER_CONTAINER = /header|top-?bar|navbar|nav-?wrap|masthead|site-?branding|site-?title|brand/i
const HOME_PATHS = new Set(['/', '/index.html', '/index.htm', '/index.php', '/home', '/home/'])
// Icon fonts (Font Awesome, IcoMoon, a theme's glyphs) ship an SVG font that pages reference like an image.
const ICON_FONT =
  /\/fonts?\/|webfont|fontawesome|font-awesome|icomoon|glyphicons|dashicons|ionicons|material-?icons|glyphs/i
// A file of icons shown one at a time ('icons.svg#phone', 'social-sprite.png').
const SPRITE_FILE_NAME = /sprite/i
const SVG_FRAGMENT = /\.svg(?:\?[^\s"'()<>#]*)?#[\w:-]/gi
// Third-party widgets that bring their own images (a consent banner's logo, a chat agent's face, an ad, a
// payment or review badge), known by the classes, ids and labels their vendors give their containers.
// Vendors' names are found anywhere in a mark ('CybotCookiebotDialog'); plain words only as a whole word.
const WIDGET_VENDOR_MARKS =
  /cookiebot|onetrust|optanon|cookieyes|cookie-?law|cookie-?notice|cookie-?consent|termly|iubenda|usercentrics|osano|didomi|quantcast|trustarc|intercom|drift-?(?:widget|frame|conductor)|tawk|zendesk|zopim|livechat|tidio|olark|crisp-?client|hubspot-?messages|freshchat|adsbygoogle|google-?ads?\b|gpt-?ad|dfp-?ad|ad-?slot|ad-?unit|ad-?container|ad-?banner|taboola|outbrain|trustpilot|yelp-?(?:badge|review|widget)|bbb-?(?:seal|badge|logo)|paypal|klarna|afterpay|sezzle|affirm-?(?:badge|promo)|sitelock|trustedsite|mcafee-?secure|norton-?seal/i
const WIDGET_WORDS = new Set([
  'cookie',
  'cookies',
  'consent',
  'gdpr',
  'ccpa',
  'cmp',
  'chat',
  'chatbot',
  'messenger',
  'ad',
  'ads',
  'advert',
  'advertisement',
  'sponsored',
  'sponsor',
  'adsense',
  'payment',
  'payments',
  'seal',
])
// The hosts widget vendors serve their images from.
const WIDGET_HOSTS =
  /(?:^|\.)(?:cookiebot\.com|cookielaw\.org|onetrust\.com|cookieyes\.com|termly\.io|iubenda\.com|usercentrics\.eu|intercomcdn\.com|intercom\.io|intercomassets\.com|driftt\.com|drift\.com|tawk\.to|zdassets\.com|zopim\.com|livechatinc\.com|crisp\.chat|tidio\.co|olark\.com|googlesyndication\.com|doubleclick\.net|googleadservices\.com|amazon-adsystem\.com|adnxs\.com|taboola\.com|outbrain\.com|paypalobjects\.com|paypal\.com|trustpilot\.com|yelpcdn\.com|yelp\.com|bbb\.org|sitelock\.com|trustedsite\.com|mcafeesecure\.com|klarna\.com|afterpay\.com|sezzle\.com)$/i
// The file names of badges and seals a site pastes in from a vendor ('bbb-accredited-seal.png', 'paypal-badge.svg').
const WIDGET_FILE_NAME =
  /(?:^|[-_.])(?:cookiebot|onetrust|paypal|trustpilot|yelp|bbb|accredited|ssl-?seal|secure-?seal|trust-?seal|sitelock|norton|mcafee|verisign|visa|mastercard|amex|discover|apple-?pay|google-?pay|klarna|afterpay|chat-?(?:icon|bubble|avatar|widget)|ad-?choices|adchoices)(?:[-_.]|$)/i

/** Below this many pixels each way an image is an icon, a badge or a spacer, never a photo or a logo. */
export const MIN_PICTURE_PIXELS = 64

/** Resolve an address the way a browser would (relative, protocol-relative, base href); undefined when unusable. */
export function resolveUrl(raw: string | undefined, base: string): string | undefined {
  if (!raw) return undefined
  // Browsers strip whitespace and newlines inside URL attributes; themes do wrap them.
  const cleaned = raw.trim().replace(/[\t\n\r]/g, '')
  if (!cleaned || cleaned.startsWith('#')) return undefined
  if (/^data:/i.test(cleaned)) return cleaned
  try {
    const url = new URL(cleaned, base)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
    url.hash = ''
    return url.href
  } catch {
    return undefined
  }
}

/** Split a srcset into its addresses and width or density descriptors (commas inside addresses survive). */
export function parseSrcset(value: string): { url: string; width: number | undefined; density: number | undefined }[] {
  const entries: { url: string; width: number | undefined; density: number | undefined }[] = []
  let index = 0
  while (index < value.length) {
    while (index < value.length && /[\s,]/.test(value[index] ?? '')) index++
    if (index >= value.length) break
    const start = index
    while (index < value.length && !/\s/.test(value[index] ?? '')) index++
    let url = value.slice(start, index)
    let descriptor = ''
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '')
    } else {
      const descriptorStart = index
      while (index < value.length && value[index] !== ',') index++
      descriptor = value.slice(descriptorStart, index).trim()
    }
    const width = /^(\d+)w$/.exec(descriptor)?.[1]
    const density = /^(\d*\.?\d+)x$/.exec(descriptor)?.[1]
    if (url) {
      entries.push({
        url,
        width: width === undefined ? undefined : Number(width),
        density: density === undefined ? undefined : Number(density),
      })
    }
  }
  return entries
}

function bestOfSrcset(value: string): { url: string; width: number | undefined } | undefined {
  const entries = parseSrcset(value)
  // A srcset uses either width or density descriptors, so one score compares them all.
  const score = (entry: { width: number | undefined; density: number | undefined }): number =>
    entry.width ?? entry.density ?? 1
  const best = entries.reduce<(typeof entries)[number] | undefined>(
    (current, entry) => (current === undefined || score(entry) > score(current) ? entry : current),
    undefined,
  )
  return best ? { url: best.url, width: best.width } : undefined
}

function toPixels(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*$/i.exec(value)
  if (!match) return undefined
  const pixels = Math.round(Number(match[1]))
  return pixels > 0 ? pixels : undefined
}

function styleValue(style: string | undefined, property: string): string | undefined {
  if (!style) return undefined
  return new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([^;]+)`, 'i').exec(style)?.[1]?.trim()
}

function cssUrls(css: string): string[] {
  const urls: string[] = []
  for (const match of css.matchAll(/url\(\s*(['"]?)(.*?)\1\s*\)/gi)) {
    if (match[2]) urls.push(match[2])
  }
  return urls
}

function ownMarks(element: Element): string {
  return [getAttributeValue(element, 'class'), getAttributeValue(element, 'id')].filter(Boolean).join(' ')
}

function ancestors(element: Element, levels: number): Element[] {
  const found: Element[] = []
  let node: AnyNode | null = element.parent
  // Body and main classes describe the whole page (WordPress puts wp-custom-logo on body), not one image.
  while (node && isTag(node) && found.length < levels && !['body', 'html', 'main'].includes(node.name)) {
    found.push(node)
    node = node.parent
  }
  return found
}

function fileName(url: string): string {
  try {
    const segments = decodeURIComponent(new URL(url).pathname).split('/')
    // Image CDNs put resize steps after the file ('…/logo.png/:/rs=h:120,cg:true'): the file is the named image.
    return segments.findLast((segment) => IMAGE_EXTENSION.test(segment)) ?? segments.at(-1) ?? ''
  } catch {
    return ''
  }
}

/** Tell whether an image's file name says it is a logo (site builders name the uploaded file after what it is). */
export function isLogoFileName(url: string): boolean {
  return LOGO_MARK.test(fileName(url))
}

function looksLikeLogo(element: Element, url: string, alt: string | undefined): boolean {
  if (LOGO_MARK.test(ownMarks(element)) || LOGO_MARK.test(alt ?? '') || LOGO_MARK.test(fileName(url))) return true
  if (getAttributeValue(element, 'itemprop') === 'logo') return true
  return ancestors(element, 3).some((ancestor) => LOGO_CONTAINER.test(ownMarks(ancestor)))
}

function looksLikeHero(element: Element): boolean {
  if (getAttributeValue(element, 'fetchpriority') === 'high') return true
  return [element, ...ancestors(element, 4)].some((node) => HERO_CONTAINER.test(ownMarks(node)))
}

function declaredSize(element: Element): { width: number | undefined; height: number | undefined } {
  const style = getAttributeValue(element, 'style')
  let width = toPixels(getAttributeValue(element, 'width')) ?? toPixels(styleValue(style, 'width'))
  let height = toPixels(getAttributeValue(element, 'height')) ?? toPixels(styleValue(style, 'height'))
  // Squarespace and Jetpack declare the original size of the picture rather than the displayed one.
  const dimensions = getAttributeValue(element, 'data-image-dimensions') ?? getAttributeValue(element, 'data-orig-size')
  const original = dimensions ? /^(\d+)\s*[x,]\s*(\d+)$/.exec(dimensions.trim()) : null
  if (original) {
    width = Number(original[1])
    height = Number(original[2])
  }
  return { width, height }
}

interface Collector {
  add(draft: Draft): void
  base: string
  pageUrl: string
  /** Whether the header's first image linking to the home page has been seen (it is the logo). */
  homeLogoSeen: boolean
}

/** Tell whether an image sits in the page's header or top bar inside a link to the site's home page. */
function linksHomeFromHeader(img: Element, collector: Collector): boolean {
  const around = ancestors(img, 12)
  const link = around.slice(0, 3).find((element) => element.name === 'a')
  const href = link ? resolveUrl(getAttributeValue(link, 'href'), collector.base) : undefined
  if (!href || href.startsWith('data:')) return false
  const target = new URL(href)
  const page = new URL(collector.pageUrl)
  const home =
    target.hostname.replace(/^www\./, '') === page.hostname.replace(/^www\./, '') &&
    HOME_PATHS.has(target.pathname) &&
    target.search === ''
  return (
    home &&
    around.some(
      (element) =>
        element.name === 'header' ||
        getAttributeValue(element, 'role') === 'banner' ||
        HEADER_CONTAINER.test(ownMarks(element)),
    )
  )
}

/** The marks of an element a widget's container is known by: class, id, ARIA label, and data-ad-… attributes. */
function widgetMarks(element: Element): string {
  const dataAttributes = Object.keys(element.attribs).filter((name) => /^data-(?:ad|cookie|consent|chat)/i.test(name))
  return [ownMarks(element), getAttributeValue(element, 'aria-label') ?? '', ...dataAttributes].join(' ')
}

function isWidgetMark(marks: string): boolean {
  if (WIDGET_VENDOR_MARKS.test(marks)) return true
  return marks
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => WIDGET_WORDS.has(word))
}

/**
 * Says why an image belongs to a third-party widget (a consent banner, a chat bubble, an ad slot, a payment or
 * review badge, an overlay fixed over the page) rather than to the business, or undefined when it does not.
 */
function widgetReason(element: Element): string | undefined {
  const around = [element, ...ancestors(element, 10)]
  const widget = around.find((node) => isWidgetMark(widgetMarks(node)))
  if (widget) return `third-party widget (inside ${describeElement(widget)})`
  // A fixed overlay outside the header: a chat button, a promotion pop-up, a cookie bar styled inline.
  const inHeader = around.some(
    (node) => ['header', 'nav'].includes(node.name) || getAttributeValue(node, 'role') === 'banner',
  )
  const fixed = around.find((node) => /^fixed$/i.test(styleValue(getAttributeValue(node, 'style'), 'position') ?? ''))
  if (fixed && !inHeader) return `third-party widget (a fixed-position overlay, ${describeElement(fixed)})`
  return undefined
}

function describeElement(element: Element): string {
  const id = getAttributeValue(element, 'id')
  const classes = getAttributeValue(element, 'class')?.trim().split(/\s+/).slice(0, 2).join('.')
  return `<${element.name}${id ? `#${id}` : ''}${classes ? `.${classes}` : ''}>`
}

/** Says why an image address is a widget vendor's (its host or its file name), or undefined. */
function widgetUrlReason(url: string): string | undefined {
  if (url.startsWith('data:')) return undefined
  try {
    const { hostname } = new URL(url)
    if (WIDGET_HOSTS.test(hostname)) return `third-party widget (an image from ${hostname})`
  } catch {
    return undefined
  }
  const name = fileName(url)
  return WIDGET_FILE_NAME.test(name) ? `third-party badge or widget (${name})` : undefined
}

function isTiny(size: { width: number | undefined; height: number | undefined }): boolean {
  return size.width !== undefined && size.height !== undefined && Math.max(size.width, size.height) < MIN_PICTURE_PIXELS
}

function collectFromImg(img: Element, collector: Collector): void {
  const { base } = collector
  const alt = getAttributeValue(img, 'alt')?.trim() || undefined
  const size = declaredSize(img)
  const parent = img.parent && isTag(img.parent) ? img.parent : undefined
  const inPicture = parent?.name === 'picture'

  // The real address, from most to least trustworthy: a lazy attribute or srcset beats a placeholder src.
  // A <picture> is one image: its <source>s are copies in other formats or sizes, each maybe declaring its size.
  const srcsets: { value: string; size: { width: number | undefined; height: number | undefined } }[] = []
  for (const name of LAZY_SRCSET_ATTRIBUTES) {
    const value = getAttributeValue(img, name)
    if (value) srcsets.push({ value, size })
  }
  if (inPicture && parent) {
    for (const source of parent.children.filter(isTag).filter((child) => child.name === 'source')) {
      for (const name of LAZY_SRCSET_ATTRIBUTES) {
        const value = getAttributeValue(source, name)
        if (value) srcsets.push({ value, size: declaredSize(source) })
      }
    }
  }
  const largest = srcsets
    .map(({ value, size: declared }) => {
      const best = bestOfSrcset(value)
      // A source without a width descriptor may still declare its size with width and height attributes.
      return best && { ...best, width: best.width ?? declared.width, declared }
    })
    .filter((entry) => entry !== undefined)
    .sort((a, b) => (b.width ?? 0) - (a.width ?? 0))[0]
  const lazy = LAZY_SRC_ATTRIBUTES.map((name) => getAttributeValue(img, name)).find(
    (value) => value && !/^data:/i.test(value),
  )
  const src = getAttributeValue(img, 'src')

  let chosen: string | undefined
  let width = size.width
  let height = size.height
  if (largest && (largest.width ?? 0) > (size.width ?? 0)) {
    chosen = resolveUrl(largest.url, base)
    const ratio = largest.declared.width && largest.declared.height ? largest.declared : size
    if (chosen && largest.width && ratio.width && ratio.height)
      height = Math.round((ratio.height * largest.width) / ratio.width)
    width = largest.width ?? width
  }
  // In a <picture>, sources no larger than the <img> are other formats of it (AVIF, WebP): the <img> is the one
  // every browser and every image library reads.
  const fallback = inPicture ? (resolveUrl(src, base) ?? resolveUrl(largest?.url, base)) : undefined
  chosen ??= resolveUrl(lazy, base) ?? fallback ?? resolveUrl(largest?.url, base) ?? resolveUrl(src, base)
  if (!chosen) return

  const widget = widgetReason(img)
  // SPEC's header logo, as site builders make it: the first real image in the header that links home.
  const homeLogo = !widget && !collector.homeLogoSeen && !isTiny(size) && linksHomeFromHeader(img, collector)
  if (homeLogo) collector.homeLogoSeen = true
  const isLogo = homeLogo || looksLikeLogo(img, chosen, alt)
  const isHero = looksLikeHero(img)
  collector.add({
    url: chosen,
    source: inPicture ? 'picture' : 'img',
    alt,
    width,
    height,
    isLogo,
    isHero,
    junk: widget,
  })

  // Galleries link a thumbnail to the full-size picture: that one is the better photo.
  const link = parent?.name === 'a' ? getAttributeValue(parent, 'href') : undefined
  const linked = resolveUrl(link, base)
  if (linked && IMAGE_EXTENSION.test(linked) && linked !== chosen) {
    collector.add({ url: linked, source: 'linked-image', alt, isLogo, isHero, junk: widget })
  }
}

function collectFromMeta(meta: Element, collector: Collector, ogSizes: { width?: number; height?: number }): void {
  const key = (getAttributeValue(meta, 'property') ?? getAttributeValue(meta, 'name') ?? '').trim().toLowerCase()
  const itemprop = getAttributeValue(meta, 'itemprop')
  const content = getAttributeValue(meta, 'content')
  if (key === 'og:image:width') ogSizes.width = toPixels(content)
  if (key === 'og:image:height') ogSizes.height = toPixels(content)
  const url = resolveUrl(content, collector.base)
  if (!url) return
  if (key === 'og:image' || key === 'og:image:url' || key === 'og:image:secure_url') {
    collector.add({ url, source: 'og:image', isHero: true })
  } else if (key === 'twitter:image' || key === 'twitter:image:src') {
    collector.add({ url, source: 'twitter:image', isHero: true })
  } else if (key === 'msapplication-tileimage') {
    collector.add({ url, source: 'icon' })
  } else if (itemprop === 'logo') {
    collector.add({ url, source: 'itemprop-logo', isLogo: true })
  } else if (itemprop === 'image') {
    collector.add({ url, source: 'itemprop-image' })
  }
}

function collectFromLink(link: Element, collector: Collector): void {
  const rel = (getAttributeValue(link, 'rel') ?? '').toLowerCase().split(/\s+/)
  const sizes = /^(\d+)x(\d+)$/i.exec(getAttributeValue(link, 'sizes') ?? '')
  const width = sizes ? Number(sizes[1]) : undefined
  const height = sizes ? Number(sizes[2]) : undefined
  if (rel.includes('preload') && getAttributeValue(link, 'as') === 'image') {
    const srcset = getAttributeValue(link, 'imagesrcset')
    const url = resolveUrl(srcset ? bestOfSrcset(srcset)?.url : getAttributeValue(link, 'href'), collector.base)
    if (url) collector.add({ url, source: 'preload', isHero: true })
    return
  }
  const url = resolveUrl(getAttributeValue(link, 'href'), collector.base)
  if (!url) return
  if (rel.includes('apple-touch-icon') || rel.includes('apple-touch-icon-precomposed')) {
    collector.add({ url, source: 'apple-touch-icon', width: width ?? 180, height: height ?? 180 })
  } else if (rel.includes('icon')) {
    collector.add({ url, source: 'icon', width, height })
  }
}

function collectFromStyle(element: Element, collector: Collector): void {
  const urls = cssUrls(getAttributeValue(element, 'style') ?? '')
  for (const name of LAZY_BACKGROUND_ATTRIBUTES) {
    const value = getAttributeValue(element, name)
    if (value) urls.push(...(value.includes('url(') ? cssUrls(value) : [value]))
  }
  for (const raw of urls) {
    const url = resolveUrl(raw, collector.base)
    if (!url) continue
    const marks = ownMarks(element)
    collector.add({
      url,
      source: 'background',
      isHero: looksLikeHero(element),
      isLogo: LOGO_MARK.test(marks) || LOGO_MARK.test(fileName(url)),
      ...declaredSize(element),
      junk: widgetReason(element),
    })
  }
}

function collectFromStylesheet(css: string, collector: Collector): void {
  for (const rule of css.matchAll(/([^{}]+)\{([^}]*)\}/g)) {
    const selector = rule[1] ?? ''
    const body = rule[2] ?? ''
    if (!/background/i.test(body)) continue
    for (const raw of cssUrls(body)) {
      const url = resolveUrl(raw, collector.base)
      if (!url) continue
      collector.add({
        url,
        source: 'stylesheet',
        isHero: HERO_CONTAINER.test(selector),
        isLogo: LOGO_MARK.test(selector) || LOGO_MARK.test(fileName(url)),
        // '#onetrust-banner-sdk .ot-logo { background: url(…) }' styles a widget, not the page.
        junk: isWidgetMark(selector) ? `third-party widget (a style for ${selector.trim().slice(0, 60)})` : undefined,
      })
    }
  }
}

function jsonLdImages(value: unknown): { url: string; width: number | undefined; height: number | undefined }[] {
  if (typeof value === 'string') return [{ url: value, width: undefined, height: undefined }]
  if (Array.isArray(value)) return value.flatMap(jsonLdImages)
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>
    const url = object['url'] ?? object['contentUrl']
    if (typeof url !== 'string') return []
    const number = (raw: unknown): number | undefined =>
      typeof raw === 'number' ? raw : typeof raw === 'string' ? toPixels(raw) : undefined
    return [{ url, width: number(object['width']), height: number(object['height']) }]
  }
  return []
}

function collectFromJsonLd(value: unknown, collector: Collector, depth = 0): void {
  if (depth > 8 || !value || typeof value !== 'object') return
  if (Array.isArray(value)) {
    for (const item of value) collectFromJsonLd(item, collector, depth + 1)
    return
  }
  const object = value as Record<string, unknown>
  const types = ([] as unknown[]).concat(object['@type'] ?? [])
  // A person's avatar (the post author) says nothing about the business.
  const isPerson = types.includes('Person')
  for (const [key, child] of Object.entries(object)) {
    if (key === 'logo') {
      for (const image of jsonLdImages(child)) {
        const url = resolveUrl(image.url, collector.base)
        if (url) collector.add({ url, source: 'json-ld-logo', isLogo: true, width: image.width, height: image.height })
      }
    } else if (
      (key === 'image' || key === 'photo' || key === 'thumbnailUrl' || key === 'primaryImageOfPage') &&
      !isPerson
    ) {
      for (const image of jsonLdImages(child)) {
        const url = resolveUrl(image.url, collector.base)
        if (url) collector.add({ url, source: 'json-ld-image', width: image.width, height: image.height })
      }
    } else if (typeof child === 'object') {
      collectFromJsonLd(child, collector, depth + 1)
    }
  }
}

function baseOf(document: Document, pageUrl: string): string {
  const base = findAll((element) => element.name === 'base', document)[0]
  return resolveUrl(base ? getAttributeValue(base, 'href') : undefined, pageUrl) ?? pageUrl
}

/** The files a page uses as sprites: an SVG shown by fragment ('icons.svg#phone', '<use href>'). */
function spriteFiles(html: string, base: string): Set<string> {
  const files = new Set<string>()
  for (const match of html.matchAll(SVG_FRAGMENT)) {
    // Walk back to the start of the address: a bounded scan, where a regex would backtrack over long minified lines.
    let start = match.index
    while (start > 0 && match.index - start < 2048 && !/[\s"'()<>]/.test(html[start - 1] ?? ' ')) start -= 1
    const url = resolveUrl(html.slice(start, match.index + 4).replace(/&amp;/g, '&'), base)
    if (url) files.add(url)
  }
  return files
}

/** Say why an image address is an icon font or a sprite rather than a picture, or undefined. */
function junkReason(url: string, sprites: Set<string>): string | undefined {
  if (url.startsWith('data:')) return undefined
  const withoutQuery = url.replace(/[?#].*$/, '')
  if (/\.svg$/i.test(withoutQuery) && ICON_FONT.test(withoutQuery)) return 'icon font (glyphs, not a picture)'
  if (sprites.has(withoutQuery) || SPRITE_FILE_NAME.test(fileName(url)))
    return 'sprite (a file of icons shown one at a time)'
  return undefined
}

/** Parse a page and list every image address it offers, in page order, with the hints the page gives. */
export function extractImageCandidates(html: string, pageUrl: string): ImageCandidate[] {
  const document = parseDocument(html, { lowerCaseAttributeNames: true, lowerCaseTags: true })
  const candidates: ImageCandidate[] = []
  const base = baseOf(document, pageUrl)
  const sprites = spriteFiles(html, base)
  const collector: Collector = {
    base,
    pageUrl,
    homeLogoSeen: false,
    add(draft) {
      const junk = junkReason(draft.url, sprites) ?? draft.junk ?? widgetUrlReason(draft.url)
      candidates.push({
        alt: undefined,
        width: undefined,
        height: undefined,
        isHero: false,
        ...draft,
        // Site builders share the logo as og:image and JSON-LD image; its file name still gives it away.
        isLogo: junk === undefined && ((draft.isLogo ?? false) || isLogoFileName(draft.url)),
        pageUrl,
        position: candidates.length,
        ...(junk === undefined ? {} : { junk }),
      })
    },
  }
  const ogSizes: { width?: number; height?: number } = {}

  for (const element of findAll(() => true, document)) {
    switch (element.name) {
      case 'meta':
        collectFromMeta(element, collector, ogSizes)
        break
      case 'link':
        collectFromLink(element, collector)
        break
      case 'img':
        collectFromImg(element, collector)
        break
      case 'video': {
        const url = resolveUrl(getAttributeValue(element, 'poster'), collector.base)
        if (url)
          collector.add({
            url,
            source: 'poster',
            isHero: looksLikeHero(element),
            ...declaredSize(element),
            junk: widgetReason(element),
          })
        break
      }
      case 'script':
        if ((getAttributeValue(element, 'type') ?? '').toLowerCase() === 'application/ld+json') {
          try {
            collectFromJsonLd(JSON.parse(textContent(element)), collector)
          } catch {
            // Broken JSON-LD is common (plugins concatenating blocks); the rest of the page still counts.
          }
        }
        break
      case 'style':
        collectFromStylesheet(textContent(element), collector)
        break
    }
    if (element.name !== 'img' && element.name !== 'style') collectFromStyle(element, collector)
  }

  // og:image:width and :height may follow og:image; they describe the first og:image.
  const og = candidates.find((candidate) => candidate.source === 'og:image')
  if (og) {
    og.width ??= ogSizes.width
    og.height ??= ogSizes.height
  }
  return candidates
}

/** List the images of a Markdown page (Firecrawl's markdown format), for pages that come without HTML. */
export function extractMarkdownImages(markdown: string, pageUrl: string): ImageCandidate[] {
  const candidates: ImageCandidate[] = []
  for (const match of markdown.matchAll(/!\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const url = resolveUrl(match[2], pageUrl)
    if (!url) continue
    const alt = match[1]?.trim() || undefined
    candidates.push({
      url,
      source: 'markdown',
      pageUrl,
      alt,
      width: undefined,
      height: undefined,
      isLogo: LOGO_MARK.test(alt ?? '') || isLogoFileName(url),
      isHero: false,
      position: candidates.length,
      junk: widgetUrlReason(url),
    })
  }
  return candidates
}
