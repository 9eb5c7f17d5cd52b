import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react'
import BusinessCard from '../components/BusinessCard.tsx'
import Icon from '../components/Icon.tsx'
import { businessesPerPage } from '../lib/business-pages.ts'
import {
  filtersActive,
  filtersQuery,
  noFilters,
  prepareSearch,
  readFilters,
  searchPrepared,
  type BusinessFilters,
  type PreparedSearch,
} from '../lib/business-filter.ts'
import { parseSearchIndex, searchIndexCard, type SearchIndexEntry } from '../lib/search-index.ts'

interface Props {
  categories: string[]
  /** The search index to fetch once the island takes over. */
  indexUrl: string
  /** The page of the static list, shown while nothing is searched. */
  children?: ReactNode
}

type IndexState =
  { state: 'loading' } | { state: 'ready'; search: PreparedSearch<SearchIndexEntry> } | { state: 'failed' }

/**
 * The search box and category filter of the businesses list (SPEC §2). The server renders the
 * form around one page of the static list; the island takes over when the visitor starts to
 * search (client:search), fetches the search index, and from then on filters it as the visitor
 * types, keeping the filters in the URL (?q=&category=) so a filtered view can be shared and
 * reloaded. Only a page of results is rendered at a time; "Show more" adds the next.
 */
export default function BusinessDirectory({ categories, indexUrl, children }: Props) {
  const [filters, setFilters] = useState<BusinessFilters>(noFilters)
  const [index, setIndex] = useState<IndexState | null>(null)
  const [shownCount, setShownCount] = useState(businessesPerPage)
  const searchId = useId()
  const categoryId = useId()
  const searchBox = useRef<HTMLInputElement>(null)
  const categorySelect = useRef<HTMLSelectElement>(null)

  const update = (next: BusinessFilters) => {
    setFilters(next)
    setShownCount(businessesPerPage)
    const url = `${window.location.pathname}${filtersQuery(next)}${window.location.hash}`
    window.history.replaceState(window.history.state, '', url)
  }

  useEffect(() => {
    // What the visitor typed or chose while the island was loading wins over the URL.
    const typed = { q: searchBox.current?.value ?? '', category: categorySelect.current?.value ?? '' }
    if (filtersActive(typed)) update(typed)
    else setFilters(readFilters(window.location.search))
    const fromUrl = () => setFilters(readFilters(window.location.search))
    window.addEventListener('popstate', fromUrl)

    let current = true
    setIndex({ state: 'loading' })
    fetch(indexUrl)
      .then((response) => {
        if (!response.ok) throw new Error(`${indexUrl} answered ${response.status}`)
        return response.json()
      })
      .then((json: unknown) => {
        if (current) setIndex({ state: 'ready', search: prepareSearch(parseSearchIndex(json)) })
      })
      .catch((error: unknown) => {
        // SPEC §8: the list then shows as empty; the reason goes to the console only.
        console.error('Error loading businesses:', error)
        if (current) setIndex({ state: 'failed' })
      })
    return () => {
      current = false
      window.removeEventListener('popstate', fromUrl)
    }
  }, [indexUrl])

  const active = filtersActive(filters)
  const found = useMemo(
    () => (index?.state === 'ready' && active ? searchPrepared(index.search, filters) : []),
    [index, filters, active],
  )
  const loading = active && (index === null || index.state === 'loading')

  return (
    <div data-directory={index === null ? 'static' : index.state}>
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
            <Icon
              name="search"
              className="pointer-events-none absolute top-1/2 left-3 size-5 [translate:0_-50%] text-stone-400"
            />
            <input
              ref={searchBox}
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
            ref={categorySelect}
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
        {active &&
          (loading ? 'Loading businesses...' : found.length === 1 ? '1 business' : `${found.length} businesses`)}
      </p>

      {!active ? (
        children
      ) : loading ? null : found.length > 0 ? (
        <>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {found.slice(0, shownCount).map((entry) => (
              <li key={entry.slug}>
                <BusinessCard business={searchIndexCard(entry)} headingLevel={2} />
              </li>
            ))}
          </ul>
          {found.length > shownCount && (
            <div className="mt-8 text-center">
              <button
                type="button"
                className="btn-secondary"
                onClick={() => setShownCount((count) => count + businessesPerPage)}
              >
                Show more businesses ({found.length - shownCount} more)
              </button>
            </div>
          )}
        </>
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
