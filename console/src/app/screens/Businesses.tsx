import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import type { Job } from '../../shared/api.ts'
import { businessCategories, businessCreateSchema, type BusinessRow } from '@roland/scripts/content/schema'
import type { WordSource } from '@roland/scripts/search/matcher'
import { api, ApiError, errorMessage, issuesByField } from '../api.ts'
import { searchBusinesses, useBusinessIndex } from '../business-search.ts'
import { BusinessEditor } from '../components/BusinessEditor.tsx'
import { Field, Select } from '../components/forms.tsx'
import { useToast } from '../components/Toaster.tsx'
import { Badge, Button, Card, Progress, SafeImage, StatusBadge } from '../components/ui.tsx'
import { isActive, percentOf, useLive } from '../live.tsx'

interface BusinessesAnswer {
  businesses: BusinessRow[]
}

const statuses = ['All', 'Active', 'Inactive', 'Featured'] as const

/** Whether a business is in the chosen category and status. */
function inFilters(business: BusinessRow, category: string, status: string): boolean {
  const inCategory = category === 'All' || business.category === category
  const inStatus =
    status === 'All' ||
    (status === 'Active' && business.is_active) ||
    (status === 'Inactive' && !business.is_active) ||
    (status === 'Featured' && business.is_featured)
  return inCategory && inStatus
}

/**
 * The businesses a search and the filters find, as the site's search finds them (business-search.ts,
 * the matcher of scripts/src/search); every business in the filters without a search.
 */
function findBusinesses(
  all: readonly BusinessRow[],
  index: WordSource,
  search: string,
  category: string,
  status: string,
): BusinessRow[] {
  const keep = (business: BusinessRow) => inFilters(business, category, status)
  if (search.trim() === '') return all.filter(keep)
  return searchBusinesses(all, index, search, keep)
}

/** The business a crawl or images job is about: crawl jobs name its id, images jobs its slug. */
function businessOf(job: Job, bySlug: Map<string, string>): string | undefined {
  const params = job.params as { businessId?: unknown; target?: unknown }
  if (job.kind === 'crawl' && typeof params.businessId === 'string') return params.businessId
  if (job.kind === 'images' && typeof params.target === 'string') return bySlug.get(params.target)
  return undefined
}

/** Every business with search and filters; per business: edit, crawl photos, generate an image; and new ones. */
export function Businesses() {
  const toast = useToast()
  const live = useLive()
  const [answer, setAnswer] = useState<BusinessesAnswer | null>(null)
  const [filter, setFilter] = useState('')
  const [category, setCategory] = useState('All')
  const [status, setStatus] = useState('All')
  // Other screens open a business's editor with /businesses?edit=<id> (Needs attention, Today).
  const [editing, setEditing] = useState<string | null>(() => new URLSearchParams(window.location.search).get('edit'))
  const [creating, setCreating] = useState(false)

  // A saved row comes back without what it is (the list's GET works that out): it keeps what it had,
  // so a search that found it by its presets still finds it, and its open editor stays.
  const replace = (business: BusinessRow) =>
    setAnswer(
      (a) =>
        a && {
          businesses: a.businesses.map((b) =>
            b.id === business.id ? { ...business, presets: business.presets ?? b.presets } : b,
          ),
        },
    )

  const load = useCallback(
    () =>
      api<BusinessesAnswer>('/api/businesses').then(setAnswer, (error: unknown) => toast.error(errorMessage(error))),
    [toast],
  )

  useEffect(() => {
    void load()
  }, [load])

  // The latest crawl or images job of each business.
  const latestJob = useMemo(() => {
    const bySlug = new Map((answer?.businesses ?? []).map((b) => [b.slug, b.id]))
    const latest = new Map<string, Job>()
    for (const job of live.jobs) {
      const businessId = businessOf(job, bySlug)
      if (businessId && !latest.has(businessId)) latest.set(businessId, job)
    }
    return latest
  }, [live.jobs, answer])

  // Reload when one of these jobs finishes, so new images show.
  const finished = useRef(new Set<string>())
  useEffect(() => {
    let reload = false
    for (const job of latestJob.values()) {
      if (!isActive(job) && !finished.current.has(job.id)) {
        finished.current.add(job.id)
        if (answer) reload = true
      }
    }
    if (reload) void load()
  }, [latestJob, answer, load])

  async function start(business: BusinessRow, action: 'crawl' | 'generate-image') {
    try {
      const { job } = await api<{ job: Job }>(`/api/businesses/${business.id}/${action}`, { method: 'POST' })
      live.add(job)
    } catch (error) {
      toast.error(errorMessage(error))
    }
  }

  const all = useMemo(() => answer?.businesses ?? [], [answer])
  const index = useBusinessIndex(all)
  const shown = useMemo(
    () => findBusinesses(all, index, filter, category, status),
    [all, index, filter, category, status],
  )
  const categories = ['All', ...new Set([...businessCategories, ...all.map((b) => b.category)])]
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Businesses</h1>
          <p className="mt-1 text-sm text-slate-600">
            {answer
              ? `${answer.businesses.length} businesses (${answer.businesses.filter((b) => b.is_active).length} active)`
              : 'Loading businesses...'}
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <input
            type="search"
            aria-label="Filter businesses"
            placeholder="Search businesses..."
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
          <Select
            id="filter-category"
            label="Category"
            value={category}
            onChange={(event) => setCategory(event.target.value)}
            options={categories}
          />
          <Select
            id="filter-status"
            label="Status"
            value={status}
            onChange={(event) => setStatus(event.target.value)}
            options={statuses}
          />
          <Button onClick={() => setCreating(true)} disabled={creating}>
            New business
          </Button>
        </div>
      </header>
      {creating ? (
        <NewBusiness
          onCancel={() => setCreating(false)}
          onCreated={(business) => {
            setCreating(false)
            setAnswer((a) => ({ businesses: [business, ...(a?.businesses ?? [])] }))
            setEditing(business.id)
          }}
        />
      ) : null}
      <ul className="flex flex-col gap-3" aria-label="Businesses">
        {shown.map((business) => (
          <li key={business.id} className="flex flex-col gap-2">
            <BusinessItem
              business={business}
              job={latestJob.get(business.id)}
              onAction={(action) => void start(business, action)}
              onEdit={() => setEditing(editing === business.id ? null : business.id)}
            />
            {editing === business.id ? (
              <BusinessEditor
                key={business.id}
                business={business}
                onSaved={replace}
                onClose={() => setEditing(null)}
                onDeleted={() => {
                  setEditing(null)
                  setAnswer((a) => a && { businesses: a.businesses.filter((b) => b.id !== business.id) })
                }}
              />
            ) : null}
          </li>
        ))}
      </ul>
      {answer && shown.length === 0 ? <Card description="No businesses match." /> : null}
    </div>
  )
}

/** The form of a new business: a name and a category; the editor opens for the rest. */
function NewBusiness({ onCreated, onCancel }: { onCreated: (business: BusinessRow) => void; onCancel: () => void }) {
  const toast = useToast()
  const [name, setName] = useState('')
  const [category, setCategory] = useState<string>('Business')
  const [errors, setErrors] = useState<Record<string, string>>({})

  async function create(event: FormEvent) {
    event.preventDefault()
    const body = { name, category }
    const checked = businessCreateSchema.safeParse(body)
    if (!checked.success) {
      setErrors(issuesByField(checked.error.issues))
      return
    }
    try {
      const { business } = await api<{ business: BusinessRow }>('/api/businesses', { method: 'POST', body })
      toast.success(`Added ${business.name}`)
      onCreated(business)
    } catch (error) {
      if (error instanceof ApiError && error.issues.length) setErrors(issuesByField(error.issues))
      else toast.error(errorMessage(error))
    }
  }

  return (
    <Card title="New business">
      <form className="flex flex-wrap items-end gap-3" onSubmit={(event) => void create(event)} noValidate>
        <Field
          id="new-business-name"
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
        />
        <Select
          id="new-business-category"
          label="Category"
          value={category}
          onChange={(e) => setCategory(e.target.value)}
          options={businessCategories}
        />
        <Button type="submit">Add business</Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </form>
    </Card>
  )
}

function BusinessItem({
  business,
  job,
  onAction,
  onEdit,
}: {
  business: BusinessRow
  job: Job | undefined
  onAction: (action: 'crawl' | 'generate-image') => void
  onEdit: () => void
}) {
  const running = isActive(job)
  return (
    <article className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-business={business.slug}>
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="font-semibold">{business.name}</h2>
        <Badge>{business.category}</Badge>
        {business.is_featured ? <Badge tone="success">featured</Badge> : null}
        {business.is_active ? null : <Badge tone="pending">inactive</Badge>}
        <span className="text-xs text-slate-500">{business.images.length} image(s)</span>
        {business.website ? (
          <a
            href={business.website}
            target="_blank"
            rel="noreferrer noopener"
            className="truncate text-xs text-brand-700 underline"
          >
            {business.website}
          </a>
        ) : (
          <span className="text-xs text-slate-500">no website</span>
        )}
        <div className="ml-auto flex gap-2">
          <Button className="px-3 py-1" onClick={onEdit}>
            Edit
          </Button>
          <Button
            variant="secondary"
            className="px-3 py-1"
            disabled={running || !business.website}
            onClick={() => onAction('crawl')}
            title={business.website ? 'Crawl the website for photos' : 'No website to crawl'}
          >
            Crawl photos
          </Button>
          <Button
            variant="secondary"
            className="px-3 py-1"
            disabled={running}
            onClick={() => onAction('generate-image')}
            title="Draw a store image and use it as the hero"
          >
            Generate image
          </Button>
        </div>
      </div>
      {business.images.length ? (
        <div className="mt-3 flex gap-2 overflow-x-auto">
          {business.images.map((image) => (
            <figure key={image.id} className="w-24 shrink-0">
              <SafeImage
                src={image.image_url}
                alt={`${business.name} ${image.image_type}`}
                className="h-16 w-24 rounded-md"
              />
              <figcaption className="mt-0.5 truncate text-[11px] text-slate-500">
                {image.image_type}
                {image.is_primary ? ' · primary' : ''}
              </figcaption>
            </figure>
          ))}
        </div>
      ) : null}
      {job ? (
        <div
          className="mt-3 text-xs text-slate-600"
          data-testid="business-job"
          data-job-id={job.id}
          data-kind={job.kind}
          data-status={job.status}
        >
          <div className="flex items-center gap-2">
            <span>
              {job.kind === 'crawl' ? 'Crawl photos' : 'Generate image'}: {job.progress.phase}
            </span>
            <StatusBadge status={job.status} />
          </div>
          {running ? (
            <div className="mt-1">
              <Progress value={percentOf(job)} label={`${business.name} job progress`} />
            </div>
          ) : null}
          {job.status === 'failed' || job.status === 'interrupted' ? (
            <p className="mt-1 text-red-700">{job.error}</p>
          ) : null}
        </div>
      ) : null}
    </article>
  )
}
