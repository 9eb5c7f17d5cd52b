import type { LocationCategory, Town } from '@roland/scripts/catalog/types'
import type { ListPage } from './business-pages.ts'

/** A page's title (the town is added after it) and its meta description. */
export interface PageMeta {
  title: string
  description: string
}

/** Where a page stands in a paginated list: its number, and the positions of what it shows. */
export type PagePosition = Pick<ListPage<unknown>, 'page' | 'pageCount' | 'first' | 'last' | 'total'>

/** The title of a page of a list: the list's own title on the first page, "{title} – Page 2 of 5" after it. */
export function pagedTitle(title: string, page: number, pageCount: number): string {
  return page <= 1 ? title : `${title} – Page ${page} of ${pageCount}`
}

/** The title and description of a page of the businesses list (/businesses, /businesses/page/N). */
export function businessListPageMeta(list: PagePosition, town: Pick<Town, 'name' | 'state'>): PageMeta {
  const { page, pageCount, first, last, total } = list
  const place = `${town.name}, ${town.state}`
  return {
    title: pagedTitle('Local Businesses', page, pageCount),
    description:
      page <= 1
        ? `Every local business in ${place}: dining, shopping, professional services and recreation, with addresses, phone numbers and hours.`
        : `Local businesses in ${place}, ${first} to ${last} of ${total}: addresses, phone numbers and hours.`,
  }
}

/**
 * The title and description of a category page (/{slug}). A business category is the page for
 * its name. Recreation, community and about categories share their name and description with
 * their guide page (/recreation/nature, /community/centers…), so theirs say they are the list of
 * locations, keeping every title and description on the site unique.
 *
 * The pages after the first (/{slug}/page/N) add their number to the title and say which of the
 * category's locations they show (positions in the whole list, the featured location first).
 */
export function categoryPageMeta(
  category: Pick<LocationCategory, 'name' | 'description' | 'category_type'>,
  town: Pick<Town, 'name' | 'state'>,
  position?: PagePosition,
): PageMeta {
  const description = category.description?.trim()
  const place = `${town.name}, ${town.state}`
  const first =
    category.category_type === 'business'
      ? { title: category.name, description: description || `${category.name} in ${place}.` }
      : {
          title: `${category.name} Locations`,
          description: `Locations listed under ${category.name} in ${place}${description ? `: ${description}` : '.'}`,
        }
  if (!position || position.page <= 1) return first
  const what = category.category_type === 'business' ? category.name : `Locations listed under ${category.name}`
  return {
    title: pagedTitle(first.title, position.page, position.pageCount),
    description: `${what} in ${place}, ${position.first} to ${position.last} of ${position.total}: addresses, phone numbers and websites.`,
  }
}
