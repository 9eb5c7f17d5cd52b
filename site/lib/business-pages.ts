// The businesses list in pages of static HTML: /businesses is the first page, /businesses/page/2
// the second, and so on. Every page is a real, crawlable address that works without JavaScript.

/** How many business cards a page of the list shows (a multiple of the 2- and 3-column grids). */
export const businessesPerPage = 24

/** The path of page `page` (1-based) of the businesses list. */
export function businessListPath(page: number): string {
  return page <= 1 ? '/businesses' : `/businesses/page/${page}`
}

/** How many pages a list of `count` businesses takes: at least one, so an empty list still has its page. */
export function businessPageCount(count: number, perPage = businessesPerPage): number {
  return Math.max(1, Math.ceil(count / perPage))
}

/** The paths of the pages after the first, which /businesses/page/[page] builds. */
export function laterBusinessListPaths(count: number, perPage = businessesPerPage): string[] {
  const pages = businessPageCount(count, perPage)
  return Array.from({ length: pages - 1 }, (_, index) => businessListPath(index + 2))
}

/** One page of the list: its businesses, its number, and the neighbours a visitor can move to. */
export interface BusinessListPage<T> {
  page: number
  pageCount: number
  total: number
  /** 1-based positions of the first and last business shown (0 and 0 on an empty list). */
  first: number
  last: number
  items: T[]
}

/** Cuts page `page` (1-based) out of the whole ordered list. */
export function businessListPage<T>(all: readonly T[], page: number, perPage = businessesPerPage): BusinessListPage<T> {
  const pageCount = businessPageCount(all.length, perPage)
  if (!Number.isInteger(page) || page < 1 || page > pageCount) {
    throw new RangeError(`There is no page ${page} of the businesses list: it has ${pageCount} page(s).`)
  }
  const start = (page - 1) * perPage
  const items = all.slice(start, start + perPage)
  return {
    page,
    pageCount,
    total: all.length,
    first: items.length > 0 ? start + 1 : 0,
    last: start + items.length,
    items,
  }
}

/** A link of the pagination bar: a page number, or a gap standing for the pages left out. */
export type PageLink = { kind: 'page'; page: number; href: string; current: boolean } | { kind: 'gap' }

/**
 * The page links of the pagination bar: the first and last pages, and the pages around the
 * current one, with gaps between; never more than eleven links, however long the list.
 */
export function pageLinks(current: number, pageCount: number, around = 2): PageLink[] {
  const shown = new Set<number>([1, pageCount])
  for (let page = current - around; page <= current + around; page++) {
    if (page >= 1 && page <= pageCount) shown.add(page)
  }
  const pages = [...shown].sort((a, b) => a - b)
  const links: PageLink[] = []
  for (const [index, page] of pages.entries()) {
    const previous = pages[index - 1]
    if (previous !== undefined && page - previous === 2) {
      links.push({ kind: 'page', page: previous + 1, href: businessListPath(previous + 1), current: false })
    } else if (previous !== undefined && page - previous > 2) {
      links.push({ kind: 'gap' })
    }
    links.push({ kind: 'page', page, href: businessListPath(page), current: page === current })
  }
  return links
}
