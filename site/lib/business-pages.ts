// Lists in pages of static HTML: the businesses list (/businesses, /businesses/page/2…) and each
// category's list (/{slug}, /{slug}/page/2…). The first page is the list's own address, the later
// ones are {base}/page/N. Every page is a real, crawlable address that works without JavaScript.

/** How many cards a page of a list shows (a multiple of the 2- and 3-column grids). */
export const itemsPerPage = 24

/** How many business cards a page of the businesses list shows. */
export const businessesPerPage = itemsPerPage

/** The path of page `page` (1-based) of the list at `base`: the base itself for the first page. */
export function pagedPath(base: string, page: number): string {
  return page <= 1 ? base : `${base}/page/${page}`
}

/**
 * The rest parameter ([...page]) of page `page` of a list: none for the first page, "page/2" for
 * the second… so that `pagedPath(base, page)` is the route's base followed by it.
 */
export function pageParam(page: number): string | undefined {
  return page <= 1 ? undefined : `page/${page}`
}

/** The path of page `page` (1-based) of the businesses list. */
export function businessListPath(page: number): string {
  return pagedPath('/businesses', page)
}

/** How many pages a list of `count` items takes: at least one, so an empty list still has its page. */
export function pageCount(count: number, perPage = itemsPerPage): number {
  return Math.max(1, Math.ceil(count / perPage))
}

/** How many pages the businesses list takes for `count` businesses. */
export function businessPageCount(count: number, perPage = businessesPerPage): number {
  return pageCount(count, perPage)
}

/** The paths of the pages after the first of a list of `count` items at `base`. */
export function laterPagePaths(base: string, count: number, perPage = itemsPerPage): string[] {
  return Array.from({ length: pageCount(count, perPage) - 1 }, (_, index) => pagedPath(base, index + 2))
}

/** The paths of the pages after the first of the businesses list. */
export function laterBusinessListPaths(count: number, perPage = businessesPerPage): string[] {
  return laterPagePaths('/businesses', count, perPage)
}

/** One page of a list: its items, its number, and where it stands in the whole list. */
export interface ListPage<T> {
  page: number
  pageCount: number
  total: number
  /** 1-based positions of the first and last item shown (0 and 0 on an empty list). */
  first: number
  last: number
  items: T[]
}

/** One page of the businesses list. */
export type BusinessListPage<T> = ListPage<T>

/** Cuts page `page` (1-based) out of the whole ordered list; `name` says which list in the error. */
export function listPage<T>(all: readonly T[], page: number, perPage = itemsPerPage, name = 'the list'): ListPage<T> {
  const count = pageCount(all.length, perPage)
  if (!Number.isInteger(page) || page < 1 || page > count) {
    throw new RangeError(`There is no page ${page} of ${name}: it has ${count} page(s).`)
  }
  const start = (page - 1) * perPage
  const items = all.slice(start, start + perPage)
  return {
    page,
    pageCount: count,
    total: all.length,
    first: items.length > 0 ? start + 1 : 0,
    last: start + items.length,
    items,
  }
}

/** Every page of a list, in order: one empty page for an empty list. */
export function listPages<T>(all: readonly T[], perPage = itemsPerPage): ListPage<T>[] {
  return Array.from({ length: pageCount(all.length, perPage) }, (_, index) => listPage(all, index + 1, perPage))
}

/** Cuts page `page` (1-based) out of the whole list of businesses. */
export function businessListPage<T>(all: readonly T[], page: number, perPage = businessesPerPage): BusinessListPage<T> {
  return listPage(all, page, perPage, 'the businesses list')
}

/** A link of the pagination bar: a page number, or a gap standing for the pages left out. */
export type PageLink = { kind: 'page'; page: number; href: string; current: boolean } | { kind: 'gap' }

/**
 * The page links of the pagination bar of a list whose page N is at `pathOf(N)`: the first and
 * last pages, and the pages around the current one, with gaps between; never more than eleven
 * links, however long the list.
 */
export function pageLinks(
  current: number,
  pageCount: number,
  pathOf: (page: number) => string,
  around = 2,
): PageLink[] {
  const shown = new Set<number>([1, pageCount])
  for (let page = current - around; page <= current + around; page++) {
    if (page >= 1 && page <= pageCount) shown.add(page)
  }
  const pages = [...shown].sort((a, b) => a - b)
  const links: PageLink[] = []
  for (const [index, page] of pages.entries()) {
    const previous = pages[index - 1]
    if (previous !== undefined && page - previous === 2) {
      links.push({ kind: 'page', page: previous + 1, href: pathOf(previous + 1), current: false })
    } else if (previous !== undefined && page - previous > 2) {
      links.push({ kind: 'gap' })
    }
    links.push({ kind: 'page', page, href: pathOf(page), current: page === current })
  }
  return links
}
