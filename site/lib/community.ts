import { categoryBySlug } from '@roland/scripts/catalog/queries'
import type { Catalog } from '@roland/scripts/catalog/types'
import { categoryIcon, type IconName } from './icons.ts'

/** A community service card: where it leads and what it says. */
export interface ServiceCard {
  href: string
  title: string
  text: string | null
  icon: IconName
  color: string
}

// The four service cards of the home page (SPEC §2), with the words used when the catalog
// has no category to take them from.
const services = [
  { slug: 'centers', href: '/community/centers', title: 'Community Centers', icon: 'users', color: '#0e7490' },
  { slug: 'emergency', href: '/community/emergency', title: 'Emergency Services', icon: 'shield', color: '#b91c1c' },
  { slug: 'faith', href: '/community/faith', title: 'Faith Communities', icon: 'church', color: '#6d28d9' },
  { slug: 'education', href: '/about/education', title: 'Education', icon: 'graduation-cap', color: '#0369a1' },
] as const

/** The community service cards, named, described and coloured by their location categories. */
export function serviceCards(catalog: Pick<Catalog, 'categories'>): ServiceCard[] {
  return services.map((service) => {
    const category = categoryBySlug(catalog, service.slug)
    return {
      href: service.href,
      title: category?.name ?? service.title,
      text: category?.description ?? null,
      icon: category ? categoryIcon(category.icon_name) : service.icon,
      color: category?.color ?? service.color,
    }
  })
}
