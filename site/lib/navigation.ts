import type { LocationCategory, Town } from '@roland/scripts/catalog/types'
import { siteRedirects } from './redirects.ts'

/** A link of the navigation or the footer. */
export interface NavLink {
  label: string
  href: string
}

/** A top-level navigation entry, with a dropdown when it has children. */
export interface NavItem extends NavLink {
  children?: NavLink[]
}

/** A titled group of footer links. */
export interface FooterGroup {
  title: string
  links: NavLink[]
}

type Categories = readonly Pick<LocationCategory, 'slug' | 'name'>[]

// A link to a category page (/{slug}) or a page made per category (/recreation/{slug}) exists only
// when the category does; links to missing categories are left out rather than sent to the 404.
function categoryLink(categories: Categories, slug: string, href = `/${slug}`): NavLink[] {
  const category = categories.find((c) => c.slug === slug)
  return category ? [{ label: category.name, href }] : []
}

/** Tells whether a link leads to a page the site builds (lib/pages.ts, isOnSite): unpublished pages are left out. */
export type OnSite = (href: string) => boolean

/**
 * The navigation bar of SPEC §2, labelled with the category names from the catalog and the town's
 * name, without the links to pages that are not on the site.
 */
export function navigation(categories: Categories, town: Pick<Town, 'name'>, onSite: OnSite = () => true): NavItem[] {
  return navigationItems(categories, town)
    .filter((item) => onSite(item.href))
    .map((item) => (item.children ? { ...item, children: item.children.filter((child) => onSite(child.href)) } : item))
}

function navigationItems(categories: Categories, town: Pick<Town, 'name'>): NavItem[] {
  const links = (...slugs: string[]) => slugs.flatMap((slug) => categoryLink(categories, slug))
  return [
    { label: 'Home', href: '/' },
    {
      label: 'Businesses',
      href: '/businesses',
      children: [
        { label: 'All Businesses', href: '/businesses' },
        ...links('dining-refreshments', 'shopping-convenience', 'professional-services'),
      ],
    },
    {
      label: 'Recreation',
      href: '/recreation',
      children: [{ label: 'Recreation Overview', href: '/recreation' }, ...links('sports', 'nature', 'premium')],
    },
    {
      label: 'Community',
      href: '/community',
      children: [{ label: 'Community Overview', href: '/community' }, ...links('centers', 'emergency', 'faith')],
    },
    {
      label: 'About',
      href: '/about',
      children: [{ label: `About ${town.name}`, href: '/about' }, ...links('education', 'history')],
    },
    { label: 'Nearby', href: '/nearby' },
    { label: 'Events', href: '/events' },
    { label: 'Contact', href: '/contact' },
  ]
}

/** The footer links of SPEC §2, in groups, without the links to pages that are not on the site. */
export function footerGroups(categories: Categories, onSite: OnSite = () => true): FooterGroup[] {
  return footerGroupsOf(categories)
    .map((group) => ({ ...group, links: group.links.filter((link) => onSite(link.href)) }))
    .filter((group) => group.links.length > 0)
}

function footerGroupsOf(categories: Categories): FooterGroup[] {
  const redirectLink = (path: string, slug: string) => categoryLink(categories, slug, path)
  const businessPaths = Object.entries(siteRedirects).flatMap(([path, target]) => redirectLink(path, target.slice(1)))
  return [
    { title: 'Businesses', links: businessPaths },
    {
      title: 'Recreation',
      links: ['sports', 'nature', 'premium'].flatMap((slug) => categoryLink(categories, slug, `/recreation/${slug}`)),
    },
    {
      title: 'Community',
      links: [
        { label: 'Community Centers', href: '/community/centers' },
        { label: 'Emergency Services', href: '/community/emergency' },
        { label: 'Faith Communities', href: '/community/faith' },
        { label: 'Community Garden', href: '/community/garden' },
      ],
    },
    {
      title: 'About',
      links: [
        { label: 'Education', href: '/about/education' },
        { label: 'History', href: '/about/history' },
        { label: 'Contact', href: '/contact' },
      ],
    },
  ]
}

/** Tells whether a navigation link is the page being shown (a trailing slash aside). */
export function isCurrent(href: string, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/'
  return href === path
}
