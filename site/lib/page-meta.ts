import type { LocationCategory } from '@roland/scripts/catalog/types'

/** A page's title (the town is added after it) and its meta description. */
export interface PageMeta {
  title: string
  description: string
}

/**
 * The title and description of a category page (/{slug}). A business category is the page for
 * its name. Recreation, community and about categories share their name and description with
 * their guide page (/recreation/nature, /community/centers…), so theirs say they are the list of
 * locations, keeping every title and description on the site unique.
 */
export function categoryPageMeta(category: Pick<LocationCategory, 'name' | 'description' | 'category_type'>): PageMeta {
  const description = category.description?.trim()
  if (category.category_type === 'business') {
    return { title: category.name, description: description || `${category.name} in Roland, Arkansas.` }
  }
  return {
    title: `${category.name} Locations`,
    description: `Locations listed under ${category.name} in Roland, Arkansas${description ? `: ${description}` : '.'}`,
  }
}
