import type { Catalog, Page, PageItem } from '@roland/scripts/catalog/types'

// The words of the site's pages are rows (issue 39, the pages table): each page of the site below
// takes its title, description, intro, Markdown body and list entries from its published row, and
// is not built when its row is unpublished; the navigation, the footer, the sitemap and the cards
// leave out links to it. The layouts, cards and styles stay in the pages.

/** The pages whose words are rows, by URL. */
export const textPagePaths = [
  '/',
  '/businesses',
  '/events',
  '/contact',
  '/404',
  '/about',
  '/about/education',
  '/about/history',
  '/community',
  '/community/centers',
  '/community/emergency',
  '/community/faith',
  '/community/garden',
  '/nearby',
  '/recreation',
] as const

const published = new WeakMap<readonly Page[], Map<string, Page>>()

/** The published page at a URL, or null: unpublished (or never written), it is not on the site. */
export function pageAt(catalog: Pick<Catalog, 'pages'>, path: string): Page | null {
  let byPath = published.get(catalog.pages)
  if (!byPath) {
    byPath = new Map(catalog.pages.map((page) => [page.path, page]))
    published.set(catalog.pages, byPath)
  }
  return byPath.get(path) ?? null
}

/**
 * Tells whether a link of the site leads to a page it builds: a text page only when its row is
 * published; any other (a category, a business) as before.
 */
export function isOnSite(catalog: Pick<Catalog, 'pages'>, href: string): boolean {
  const path = href.split(/[?#]/)[0]!.replace(/(.)\/+$/, '$1')
  return !(textPagePaths as readonly string[]).includes(path) || pageAt(catalog, path) !== null
}

/** A list page's entries that lead somewhere on the site (their website is a path of it that is built). */
export function linkEntries(
  catalog: Pick<Catalog, 'pages'>,
  items: readonly PageItem[],
): Array<PageItem & { website: string }> {
  return items.filter(
    (item): item is PageItem & { website: string } =>
      item.website !== undefined && item.website.startsWith('/') && isOnSite(catalog, item.website),
  )
}

/** The home page's entries, in the order its layout shows them (see supabase/migrations/20261128002000_roland_town.sql). */
export interface HomeSections {
  gardenTeaser: PageItem | undefined
  featuredBusinesses: PageItem | undefined
  recreation: PageItem | undefined
  community: PageItem | undefined
  gardenCard: PageItem | undefined
  /** The four headline figures' labels (and, for the last two, their values). */
  figures: PageItem[]
}

/** Names the home page's entries by where its layout shows them. */
export function homeSections(home: Page): HomeSections {
  const [gardenTeaser, featuredBusinesses, recreation, community, gardenCard, ...figures] = home.items
  return { gardenTeaser, featuredBusinesses, recreation, community, gardenCard, figures }
}

/** The first sentence of a text ('Welcome to Roland, where nature meets community.'), or all of it. */
export function firstSentence(text: string): string {
  return /^.*?[.!?](?=\s|$)/s.exec(text.trim())?.[0] ?? text.trim()
}

/** A page's meta description: its own, else its intro, else its title. */
export function metaDescription(page: Page): string {
  return page.description ?? page.intro ?? page.title
}
