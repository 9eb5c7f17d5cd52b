import { useMemo, useState } from 'react'
import type { BusinessRow } from '@roland/scripts/content/schema'
import type { WordSource } from '@roland/scripts/search/matcher'
import { searchBusinesses } from '../business-search.ts'
import { Field } from './forms.tsx'
import { Badge, Button } from './ui.tsx'

// The Inbox's "Already listed?" (issue 49): find a listing with the search the Businesses list and
// the site use (business-search.ts), and choose it. A short list of the best matches, each with a
// Choose button: plain buttons in a list, so a phone's screen reader and a thumb both reach them.

/** The businesses to choose from and the matcher's index of them (null while they load). */
export interface PickerCatalog {
  businesses: BusinessRow[]
  index: WordSource
}

/** How many matches show: the best ones; more words narrow them. */
const shownMatches = 5

/** A search box over the businesses and the best matches, each with a button choosing it. */
export function BusinessPicker({
  id,
  catalog,
  startQuery,
  onPick,
}: {
  /** Prefixes the ids of the picker's controls (one picker per suggestion). */
  id: string
  catalog: PickerCatalog | null
  /** What the search starts with: the suggested name, or the gone listing's address. */
  startQuery: string
  onPick: (business: BusinessRow) => void
}) {
  const [query, setQuery] = useState(startQuery)
  const found = useMemo(
    () => (catalog && query.trim() !== '' ? searchBusinesses(catalog.businesses, catalog.index, query) : []),
    [catalog, query],
  )
  const shown = found.slice(0, shownMatches)
  let said: string
  if (catalog === null) said = 'Loading the businesses...'
  else if (query.trim() === '') said = 'Type a name, what the business is or does, or its street.'
  else if (found.length === 0) said = 'No business matches: try other words.'
  else
    said =
      found.length > shown.length
        ? `${found.length} businesses match; the best ${shown.length} show.`
        : `${found.length} ${found.length === 1 ? 'business matches' : 'businesses match'}.`

  return (
    <div
      role="group"
      aria-labelledby={`${id}-heading`}
      data-testid="business-picker"
      className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3"
    >
      <h3 id={`${id}-heading`} className="text-sm font-semibold">
        Already listed?
      </h3>
      <p className="text-xs text-slate-600">
        Choose the listing to review the suggestion as an edit of it, field by field.
      </p>
      <Field
        id={`${id}-search`}
        type="search"
        label="Search the businesses"
        autoComplete="off"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <p role="status" className="text-xs text-slate-600">
        {said}
      </p>
      {shown.length ? (
        <ol aria-label="Matching businesses" data-query={query} className="flex flex-col divide-y divide-slate-200">
          {shown.map((business) => (
            <li key={business.id} data-business={business.slug} className="flex flex-wrap items-center gap-2 py-2">
              <span className="min-w-0 font-medium break-words">{business.name}</span>
              <Badge>{business.category}</Badge>
              {business.is_active ? null : <Badge tone="pending">inactive</Badge>}
              {business.address ? (
                <span className="min-w-0 text-xs break-words text-slate-600">{business.address}</span>
              ) : null}
              <Button variant="secondary" className="ml-auto px-3 py-1" onClick={() => onPick(business)}>
                Choose<span className="sr-only"> {business.name}</span>
              </Button>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  )
}
