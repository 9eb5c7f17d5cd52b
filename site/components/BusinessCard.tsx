import type { BusinessCardData } from '../lib/business-card.ts'
import ContactLines from './ContactLines.tsx'
import Icon from './Icon.tsx'
import Picture from './Picture.tsx'

interface Props {
  business: BusinessCardData
  /** The heading level of the business name, under the page's own headings. */
  headingLevel?: 2 | 3
  /** The first card of a list page: its image is the page's LCP on a phone, so it is fetched first. */
  lead?: boolean
}

/**
 * A business card of SPEC §2: image (or the building icon), category and Featured badges, name,
 * description clamped to three lines, address, phone, hours, and "View Details" (whose hidden
 * rest names the business, for screen readers and search engines). Rendered to plain HTML on
 * the home page and inside the businesses island.
 */
export default function BusinessCard({ business, headingLevel = 3, lead = false }: Props) {
  const Heading = `h${headingLevel}` as const
  return (
    <article className="card flex h-full flex-col overflow-hidden" data-business={business.slug}>
      <div className="relative flex aspect-[16/9] items-center justify-center bg-forest-50 text-forest-600">
        <Icon name="building" className="size-12" />
        {business.image && <Picture image={business.image} place={lead ? 'lead-card' : 'card'} />}
        <div className="absolute top-3 left-3 flex flex-wrap gap-2">
          <span className="badge bg-white/95 text-forest-800 lift-sm">{business.badge}</span>
          {business.is_featured && <span className="badge bg-amber-300 text-amber-950 lift-sm">Featured</span>}
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-3 p-5">
        <Heading className="text-lg font-bold text-stone-900">{business.name}</Heading>
        <p className="line-clamp-3 text-sm text-stone-600">{business.description}</p>
        <ContactLines business={business} tel={business.tel} />
        <a className="btn-primary mt-auto" href={`/business/${business.slug}`}>
          View Details<span className="sr-only">{` of ${business.name}`}</span>
        </a>
      </div>
    </article>
  )
}
