import { findAll, getAttributeValue, textContent } from 'domutils'
import { parseDocument } from 'htmlparser2'
import { resolveUrl } from './candidates.ts'

// Pages of a small-business site most likely to show its photos, best first.
const PAGE_KEYWORDS: readonly RegExp[] = [
  /about|our[-_\s]?story|who[-_\s]we[-_\s]are/,
  /gallery|photos?|portfolio|pictures/,
  /menu|food|drinks/,
  /services?|products?|shop|store/,
  /team|staff|location|visit|contact/,
]

const NOT_A_PAGE = /\.(?:pdf|jpe?g|png|gif|webp|svg|avif|zip|docx?|xlsx?|mp[34]|mov|ics|xml|json|css|js)$/i

function siteKey(hostname: string): string {
  return hostname.toLowerCase().replace(/^www\./, '')
}

/** Tell whether two addresses belong to the same site (www. and bare host count as one). */
export function isSameSite(a: string, b: string): boolean {
  try {
    return siteKey(new URL(a).hostname) === siteKey(new URL(b).hostname)
  } catch {
    return false
  }
}

/** Choose up to `limit` same-site pages linked from a page that are likely to show photos (about, gallery, menu…). */
export function findPhotoPages(html: string, pageUrl: string, limit: number): string[] {
  if (limit <= 0) return []
  const document = parseDocument(html, { lowerCaseAttributeNames: true, lowerCaseTags: true })
  const base = findAll((element) => element.name === 'base', document)[0]
  const baseUrl = resolveUrl(base ? getAttributeValue(base, 'href') : undefined, pageUrl) ?? pageUrl
  const page = new URL(pageUrl)
  page.hash = ''
  const ranked = new Map<string, { rank: number; order: number }>()

  for (const anchor of findAll((element) => element.name === 'a', document)) {
    const href = resolveUrl(getAttributeValue(anchor, 'href'), baseUrl)
    if (!href || href.startsWith('data:') || !isSameSite(href, pageUrl)) continue
    const url = new URL(href)
    if (NOT_A_PAGE.test(url.pathname)) continue
    // Query strings stay: WordPress without pretty links names its pages ?page_id=12.
    if (url.href === page.href || (url.pathname === '/' && !url.search) || ranked.has(url.href)) continue
    const words = `${decodeURIComponent(url.pathname)} ${textContent(anchor)}`.toLowerCase()
    const rank = PAGE_KEYWORDS.findIndex((pattern) => pattern.test(words))
    if (rank === -1) continue
    ranked.set(url.href, { rank, order: ranked.size })
  }
  return [...ranked.entries()]
    .sort(([, a], [, b]) => a.rank - b.rank || a.order - b.order)
    .slice(0, limit)
    .map(([url]) => url)
}
