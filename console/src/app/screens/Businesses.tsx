import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { BusinessView, Job } from '../../shared/api.ts'
import { api, errorMessage } from '../api.ts'
import { useToast } from '../components/Toaster.tsx'
import { Badge, Button, Card, Progress, SafeImage, StatusBadge } from '../components/ui.tsx'
import { isActive, percentOf, useLive } from '../live.tsx'

interface BusinessesAnswer {
  businesses: BusinessView[]
}

/** The business a crawl or images job is about: crawl jobs name its id, images jobs its slug. */
function businessOf(job: Job, bySlug: Map<string, string>): string | undefined {
  const params = job.params as { businessId?: unknown; target?: unknown }
  if (job.kind === 'crawl' && typeof params.businessId === 'string') return params.businessId
  if (job.kind === 'images' && typeof params.target === 'string') return bySlug.get(params.target)
  return undefined
}

/** Every business with its images, and per business: crawl photos, generate an image. */
export function Businesses() {
  const toast = useToast()
  const live = useLive()
  const [answer, setAnswer] = useState<BusinessesAnswer | null>(null)
  const [filter, setFilter] = useState('')

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

  async function start(business: BusinessView, action: 'crawl' | 'generate-image') {
    try {
      const { job } = await api<{ job: Job }>(`/api/businesses/${business.id}/${action}`, { method: 'POST' })
      live.add(job)
    } catch (error) {
      toast.error(errorMessage(error))
    }
  }

  const shown = (answer?.businesses ?? []).filter((b) => b.name.toLowerCase().includes(filter.trim().toLowerCase()))
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Businesses</h1>
          <p className="mt-1 text-sm text-slate-600">
            {answer
              ? `${answer.businesses.length} businesses (${answer.businesses.filter((b) => b.isActive).length} active)`
              : 'Loading businesses...'}
          </p>
        </div>
        <input
          type="search"
          aria-label="Filter businesses"
          placeholder="Filter by name..."
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          className="rounded-md border border-slate-300 px-3 py-2 text-sm"
        />
      </header>
      <ul className="flex flex-col gap-3" aria-label="Businesses">
        {shown.map((business) => (
          <li key={business.id}>
            <BusinessRow
              business={business}
              job={latestJob.get(business.id)}
              onAction={(action) => void start(business, action)}
            />
          </li>
        ))}
      </ul>
      {answer && shown.length === 0 ? <Card description="No businesses match." /> : null}
    </div>
  )
}

function BusinessRow({
  business,
  job,
  onAction,
}: {
  business: BusinessView
  job: Job | undefined
  onAction: (action: 'crawl' | 'generate-image') => void
}) {
  const running = isActive(job)
  return (
    <article className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-business={business.slug}>
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="font-semibold">{business.name}</h2>
        <Badge>{business.category}</Badge>
        {business.isActive ? null : <Badge tone="pending">inactive</Badge>}
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
          <span className="text-xs text-slate-400">no website</span>
        )}
        <div className="ml-auto flex gap-2">
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
              <SafeImage src={image.url} alt={`${business.name} ${image.type}`} className="h-16 w-24 rounded-md" />
              <figcaption className="mt-0.5 truncate text-[11px] text-slate-500">
                {image.type}
                {image.isPrimary ? ' · primary' : ''}
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
          {job.status === 'failed' ? <p className="mt-1 text-red-700">{job.error}</p> : null}
        </div>
      ) : null}
    </article>
  )
}
