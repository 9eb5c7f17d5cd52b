// What the service worker (site/service-worker/sw.ts) does to the pages it serves with no signal,
// as pure functions over their HTML: the note on a saved page, the list of saved pages on the
// offline page. Kept apart from the worker so they are tested like the rest of lib/.

/** Where the site's service worker is served; at the root, so it may answer for every page. */
export const serviceWorkerPath = '/sw.js'

/** The offline page: precached, and served for any page never opened when there is no signal. */
export const offlinePath = '/offline'

/** The worker's cache of the search's manifest, script and files ("Save for offline" fills it). */
export const searchCacheName = 'roland-search'

/**
 * The header "Save for offline" sends with each file it fetches: it writes the file to the search's
 * cache itself, and the worker answers the request as any of the search's (the network first, else
 * the saved copy) without writing it there too.
 */
export const savingHeader = 'x-roland-saving'

/** The header a saved page is stored with: when it was saved (ISO 8601). */
export const savedAtHeader = 'x-roland-saved-at'

/** The header a saved page is stored with: its title, URI-encoded. */
export const savedTitleHeader = 'x-roland-title'

/** A page of the site as the offline page lists it. */
export interface SavedPage {
  path: string
  title: string
}

/** The element the offline page marks for the list of saved pages; the worker fills it. */
export const savedListMarker = 'data-saved-pages'

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The title of a page, as its <title> says it, without the site's name after it. */
export function pageTitle(html: string): string {
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? ''
  return decodeHtml(title.replace(/ \| [^|]*$/, '').trim())
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** Reads the character references a page's text may hold (Astro writes &amp;, &#39; and the like). */
function decodeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole
    }
    return entities[name.toLowerCase()] ?? whole
  })
}

/** "November 27, 2026": the day a page was saved, in the visitor's own calendar. */
export function savedDay(savedAt: Date): string {
  return savedAt.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
}

/** The time of day a page was saved, in the visitor's clock: "3:04 PM". */
export function savedTime(savedAt: Date): string {
  return savedAt.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })
}

/** The town alerts' banner in a page (components/AlertBanner.astro), found by its landmark's name. */
const alertBanner = /<section aria-label="Alerts"[^>]*>/

/**
 * A saved page as served with no signal: the same HTML with, at the top of its main content, a
 * note saying when it was saved and that the visitor is offline. A page that showed alerts gets the
 * note at the top of its banner instead, with the time and a warning: a saved banner is never taken for
 * the alerts of now (issue 48).
 */
export function withSavedNote(html: string, savedAt: Date): string {
  const banner = alertBanner.exec(html)
  const words = banner
    ? `Saved on ${savedDay(savedAt)} at ${savedTime(savedAt)}: you are offline, and these alerts may have changed since.`
    : `Saved on ${savedDay(savedAt)}: you are offline.`
  const note =
    `<p role="status" data-saved-note style="margin:0;padding:.75rem 1rem;background:#fef3c7;color:#78350f;` +
    `border-bottom:1px solid #fcd34d;text-align:center;font-weight:600">${escapeHtml(words)}</p>`
  const at = banner ?? /<main\b[^>]*>/.exec(html)
  if (!at) return html.replace(/<body\b[^>]*>/, (body) => body + note)
  // Inside the banner's landmark, first: read before the alerts it is about.
  const index = at.index + at[0].length
  return html.slice(0, index) + note + html.slice(index)
}

/**
 * The offline page with its list of saved pages filled in (the element marked `data-saved-pages`);
 * with none saved, the page's own text stays.
 */
export function withSavedPages(html: string, pages: readonly SavedPage[]): string {
  if (pages.length === 0) return html
  const items = [...pages]
    .sort((a, b) => a.title.localeCompare(b.title, 'en'))
    .map(
      (page) =>
        `<li><a href="${escapeHtml(page.path)}" class="font-semibold text-forest-700 underline">${escapeHtml(page.title || page.path)}</a></li>`,
    )
    .join('')
  return html.replace(new RegExp(`(<ul\\b[^>]*${savedListMarker}[^>]*>)[\\s\\S]*?</ul>`), `$1${items}</ul>`)
}

/** The path a page is saved under: without a trailing slash, without its query or fragment. */
export function pagePath(url: string | URL): string {
  const { pathname } = new URL(url)
  return pathname.replace(/\/+$/, '') || '/'
}
