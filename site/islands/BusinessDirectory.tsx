import { useEffect, useId, useMemo, useState } from 'react'
import BusinessCard from '../components/BusinessCard.tsx'
import Icon from '../components/Icon.tsx'
import type { BusinessCardData } from '../lib/business-card.ts'
import { filterBusinesses, filtersQuery, noFilters, readFilters, type BusinessFilters } from '../lib/business-filter.ts'

interface Props {
  businesses: BusinessCardData[]
  categories: string[]
}

/**
 * The businesses list with its search box and category filter (SPEC §2). The server renders it
 * unfiltered, so the whole list is in the HTML; once hydrated it filters as the visitor types and
 * keeps the filters in the URL (?q=&category=), so a filtered view can be shared and reloaded.
 */
export default function BusinessDirectory({ businesses, categories }: Props) {
  const [filters, setFilters] = useState<BusinessFilters>(noFilters)
  const [hydrated, setHydrated] = useState(false)
  const searchId = useId()
  const categoryId = useId()

  useEffect(() => {
    const fromUrl = () => setFilters(readFilters(window.location.search))
    fromUrl()
    setHydrated(true)
    window.addEventListener('popstate', fromUrl)
    return () => window.removeEventListener('popstate', fromUrl)
  }, [])

  const update = (next: BusinessFilters) => {
    setFilters(next)
    const url = `${window.location.pathname}${filtersQuery(next)}${window.location.hash}`
    window.history.replaceState(window.history.state, '', url)
  }

  const shown = useMemo(() => filterBusinesses(businesses, filters), [businesses, filters])

  return (
    <div data-directory={hydrated ? 'ready' : 'static'}>
      <form
        role="search"
        action="/businesses"
        method="get"
        className="card mb-8 grid gap-4 p-4 sm:grid-cols-[1fr_16rem]"
        onSubmit={(event) => event.preventDefault()}
      >
        <div>
          <label htmlFor={searchId} className="mb-1 block text-sm font-semibold text-stone-700">
            Search
          </label>
          <div className="relative">
            <Icon name="search" className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-stone-400" />
            <input
              id={searchId}
              name="q"
              type="search"
              placeholder="Search businesses..."
              autoComplete="off"
              value={filters.q}
              onChange={(event) => update({ ...filters, q: event.target.value })}
              className="w-full rounded-lg border border-stone-300 bg-white py-2.5 pr-3 pl-10 text-base focus:border-forest-600"
            />
          </div>
        </div>
        <div>
          <label htmlFor={categoryId} className="mb-1 block text-sm font-semibold text-stone-700">
            Category
          </label>
          <select
            id={categoryId}
            name="category"
            value={filters.category}
            onChange={(event) => update({ ...filters, category: event.target.value })}
            className="w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base focus:border-forest-600"
          >
            <option value="">All</option>
            {categories.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
        </div>
      </form>

      <p className="mb-4 text-sm text-stone-600" role="status" aria-live="polite">
        {shown.length === 1 ? '1 business' : `${shown.length} businesses`}
      </p>

      {shown.length > 0 ? (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {shown.map((business) => (
            <li key={business.slug}>
              <BusinessCard business={business} headingLevel={2} />
            </li>
          ))}
        </ul>
      ) : (
        <div className="card p-10 text-center">
          <Icon name="search" className="mx-auto mb-3 size-10 text-stone-400" />
          <p className="mb-4 text-lg font-semibold text-stone-800">No businesses found matching your criteria.</p>
          <button type="button" className="btn-primary" onClick={() => update(noFilters)}>
            Clear Filters
          </button>
        </div>
      )}
    </div>
  )
}
