// The site's service worker (DESIGN.md, "Offline and print"), bundled with Workbox's modules and
// given its precache list at build time (site/integrations/service-worker.ts). With no signal:
// a page the visitor opened is served as saved, with a note saying when; a page never opened gets
// the offline page (what is saved, the emergency numbers, a way back), never the browser's error
// page; the search works from its saved files. A new deploy brings a new worker, which takes over
// at once, replaces the precache and drops the search files of the last build's numbering.
import { CacheableResponsePlugin } from 'workbox-cacheable-response'
import { clientsClaim, type WorkboxPlugin } from 'workbox-core'
import { ExpirationPlugin } from 'workbox-expiration'
import { cleanupOutdatedCaches, matchPrecache, precache, type PrecacheEntry } from 'workbox-precaching'
import { registerRoute, setCatchHandler } from 'workbox-routing'
import { CacheFirst, NetworkFirst } from 'workbox-strategies'
import {
  offlinePath,
  pagePath,
  pageTitle,
  savedAtHeader,
  savedTitleHeader,
  savingHeader,
  searchCacheName,
  withSavedNote,
  withSavedPages,
  type SavedPage,
} from '../lib/offline.ts'

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> }
/** The numbering of this build's search files (the manifest's `v`), written in at build time. */
declare const SEARCH_VERSION: string
/** This build's stylesheet: a saved page of an older build, whose stylesheet is gone, gets this one. */
declare const STYLESHEET: string

const pagesCache = 'roland-pages'
const searchCache = searchCacheName
const photosCache = 'roland-photos'
const assetsCache = 'roland-assets'
const filesCache = 'roland-files'
const searchFiles = '/businesses/search/'
/** A network slower than this is taken for no signal: the saved copy is served. */
const networkTimeoutSeconds = 4
const month = 30 * 24 * 60 * 60

void self.skipWaiting()
clientsClaim()
precache(self.__WB_MANIFEST)
cleanupOutdatedCaches()

const precached = (url: string | URL) => matchPrecache(pagePath(new URL(url, self.location.href)))

/** When a response was saved: the time we stored with it, else the server's date. */
function savedAt(response: Response): Date {
  const stamp = response.headers.get(savedAtHeader) ?? response.headers.get('date')
  const date = stamp ? new Date(stamp) : new Date()
  return Number.isNaN(date.getTime()) ? new Date() : date
}

async function rewriteHtml(response: Response, rewrite: (html: string) => string | Promise<string>): Promise<Response> {
  const html = await response.text()
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  return new Response(await rewrite(html), { status: 200, headers })
}

/** The pages saved so far, for the offline page's list. */
async function savedPages(): Promise<SavedPage[]> {
  const cache = await caches.open(pagesCache)
  const pages: SavedPage[] = []
  for (const request of await cache.keys()) {
    const response = await cache.match(request)
    const title = response?.headers.get(savedTitleHeader)
    pages.push({ path: pagePath(request.url), title: title ? decodeURIComponent(title) : '' })
  }
  return pages.filter((page) => page.path !== offlinePath)
}

/** The offline page, listing what is saved. */
async function offlinePage(): Promise<Response> {
  const page = await matchPrecache(offlinePath)
  if (!page) return Response.error()
  const pages = await savedPages()
  return rewriteHtml(page, (html) => withSavedPages(html, pages))
}

// Pages: the network first; with none (or none in time), the copy saved when the visitor last
// opened the page, else the precached one, both with the note; else the offline page.
const pageNote: WorkboxPlugin = {
  cacheKeyWillBeUsed: async ({ request }) => pagePath(request.url),
  cacheWillUpdate: async ({ response }) => {
    if (response.status !== 200 || !response.headers.get('content-type')?.includes('text/html')) return null
    const html = await response.clone().text()
    const headers = new Headers(response.headers)
    headers.set(savedAtHeader, new Date().toISOString())
    headers.set(savedTitleHeader, encodeURIComponent(pageTitle(html)))
    return new Response(html, { status: 200, headers })
  },
  cachedResponseWillBeUsed: async ({ cachedResponse }) =>
    cachedResponse && rewriteHtml(cachedResponse, (html) => withSavedNote(html, savedAt(cachedResponse))),
  handlerDidError: async ({ request }) => {
    const saved = await precached(request.url)
    if (saved && pagePath(request.url) !== offlinePath)
      return rewriteHtml(saved, (html) => withSavedNote(html, savedAt(saved)))
    return offlinePage()
  },
}
const pages = new NetworkFirst({
  cacheName: pagesCache,
  networkTimeoutSeconds,
  plugins: [pageNote, new ExpirationPlugin({ maxEntries: 200, maxAgeSeconds: month, purgeOnQuotaError: true })],
})
registerRoute(({ request }) => request.mode === 'navigate', pages)

// The search: its manifest, script and files, network first, kept as they are fetched ("Save for
// offline" on /businesses fetches them all); the manifest and script fall back to the precache.
const precacheFallback: WorkboxPlugin = { handlerDidError: async ({ request }) => precached(request.url) }
/**
 * A file "Save for offline" fetched is not kept here: the page writes it to this cache itself,
 * before it says all are saved. Pressed with no signal, it gets the copies saved before, as a search
 * would.
 */
const notWhenSaving: WorkboxPlugin = {
  cacheWillUpdate: async ({ request, response }) => (request.headers.has(savingHeader) ? null : response),
}
// Workbox keeps a 200 or an opaque answer only while no plugin decides what is kept: with the one
// above, that rule comes as Workbox's own plugin.
const okOrOpaque = new CacheableResponsePlugin({ statuses: [0, 200] })
registerRoute(
  ({ url }) =>
    url.origin === self.location.origin &&
    (url.pathname.startsWith(searchFiles) ||
      url.pathname === '/businesses/search-index.json' ||
      url.pathname === '/businesses/directory.js' ||
      url.pathname === '/businesses/save-offline.js'),
  new NetworkFirst({
    cacheName: searchCache,
    networkTimeoutSeconds,
    plugins: [notWhenSaving, okOrOpaque, precacheFallback],
  }),
)

// Bundles and stylesheets (their names change with their content): the precache or the saved copy,
// else the network. A saved page of an older build asks for its stylesheet, gone since: it gets this one.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/_astro/'),
  new CacheFirst({
    cacheName: assetsCache,
    plugins: [
      {
        cachedResponseWillBeUsed: async ({ cachedResponse, request }) => cachedResponse ?? precached(request.url),
        handlerDidError: async ({ request }) =>
          request.destination === 'style' ? matchPrecache(STYLESHEET) : undefined,
      },
      new ExpirationPlugin({ maxEntries: 60, purgeOnQuotaError: true }),
    ],
  }),
)

// Photos and art: from the saved copy first, kept a month, at most 300 of them.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin &&
    (request.destination === 'image' || url.pathname.startsWith('/files/')) &&
    !url.pathname.startsWith('/icons.svg'),
  new CacheFirst({
    cacheName: photosCache,
    plugins: [
      precacheFallback,
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: month, purgeOnQuotaError: true }),
    ],
  }),
)

// The other files of the site (the icon sprite, the web app manifest, the print stylesheet…): the
// network first, then the precache.
registerRoute(
  ({ url }) => url.origin === self.location.origin,
  new NetworkFirst({ cacheName: filesCache, networkTimeoutSeconds, plugins: [precacheFallback] }),
)

setCatchHandler(async ({ request }) => (request.mode === 'navigate' ? offlinePage() : Response.error()))

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // A new build numbers its search files anew: the files saved under another numbering go.
      const cache = await caches.open(searchCache)
      const current = `${searchFiles}${SEARCH_VERSION}/`
      for (const request of await cache.keys()) {
        const { pathname } = new URL(request.url)
        if (pathname.startsWith(searchFiles) && !pathname.startsWith(current)) await cache.delete(request)
      }
      // The pages open when the worker arrives (a first visit's page loaded before it) are saved as
      // if opened now: the page a visitor is reading is there when the signal goes.
      const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
      await Promise.all(
        open
          .map((client) => new URL(client.url))
          .filter((url) => url.origin === self.location.origin)
          .map((url) => pages.handle({ event, request: new Request(url.href) }).catch(() => undefined)),
      )
    })(),
  )
})
