import { useEffect, useRef, useState, type FormEvent } from 'react'
import {
  crawlRequestSchema,
  type BusinessRow,
  type CrawlerSettingsView,
  type CrawlResultView,
  type Job,
} from '../../shared/api.ts'
import { api, errorMessage } from '../api.ts'
import { Field } from '../components/forms.tsx'
import { useToast } from '../components/Toaster.tsx'
import { Badge, Button, Card, Progress, SafeImage, StatusBadge } from '../components/ui.tsx'
import { isActive, useLive } from '../live.tsx'

/** SPEC §9: the crawler's progress shows steps of 25, following the job's real phases. */
export function crawlStep(job: Job | undefined): number {
  if (!job) return 0
  if (!isActive(job)) return 100
  const phase = job.progress.phase
  if (/choosing|downloading|storing/.test(phase)) return 75
  if (/fetching pages|crawling with/i.test(phase)) return 50
  if (/home page|starting/i.test(phase)) return 25
  return 0
}

/** Whether a crawl job came from this screen's form (not a business's 'crawl photos', not an attach). */
function isFormCrawl(job: Job): boolean {
  const params = job.params
  return (
    job.kind === 'crawl' &&
    params.attach === undefined &&
    params.businessId === undefined &&
    params.target === undefined
  )
}

/** SPEC §2 'Business Image Crawler': the Firecrawl key, the form, live progress and the results. */
export function Crawler() {
  const toast = useToast()
  const live = useLive()
  const [settings, setSettings] = useState<CrawlerSettingsView | null>(null)
  const [apiKey, setApiKey] = useState('')
  const [savingKey, setSavingKey] = useState(false)
  const [businessName, setBusinessName] = useState('')
  const [websiteUrl, setWebsiteUrl] = useState('')
  const [errors, setErrors] = useState<{ businessName?: string; websiteUrl?: string }>({})
  const [starting, setStarting] = useState(false)
  const [jobId, setJobId] = useState<string | null>(null)
  const job = jobId ? live.byId.get(jobId) : undefined
  const crawling = starting || isActive(job)

  const [businesses, setBusinesses] = useState<BusinessRow[] | null>(null)

  useEffect(() => {
    api<CrawlerSettingsView>('/api/crawler').then(setSettings, (error: unknown) => toast.error(errorMessage(error)))
    api<{ businesses: BusinessRow[] }>('/api/businesses').then(
      (answer) => setBusinesses(answer.businesses),
      (error: unknown) => toast.error(errorMessage(error)),
    )
  }, [toast])

  // The bar follows the job; once it ends it shows 100, then resets after 1 s (SPEC §9).
  const [resetJobId, setResetJobId] = useState<string | null>(null)
  const progress = job && job.id !== resetJobId ? crawlStep(job) : 0
  const announced = useRef<string | null>(null)
  useEffect(() => {
    if (!job || isActive(job) || announced.current === job.id) return
    announced.current = job.id
    if (job.status === 'succeeded') toast.success(`Crawled ${(job.result as CrawlResultView).businessName}`)
    else toast.error(job.error ?? 'Failed to crawl business images')
    const timer = setTimeout(() => setResetJobId(job.id), 1000)
    return () => clearTimeout(timer)
  }, [job, toast])

  async function saveKey() {
    if (!apiKey.trim()) {
      toast.error('Please enter your Firecrawl API key')
      return
    }
    setSavingKey(true)
    try {
      const answer = await api<{ message: string; settings: CrawlerSettingsView }>('/api/crawler/key', {
        method: 'PUT',
        body: { apiKey },
      })
      setSettings(answer.settings)
      setApiKey('')
      toast.success(answer.message)
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setSavingKey(false)
    }
  }

  async function removeKey() {
    try {
      setSettings((await api<{ settings: CrawlerSettingsView }>('/api/crawler/key', { method: 'DELETE' })).settings)
      toast.success('The Firecrawl key was removed: crawls use the built-in engine.')
    } catch (error) {
      toast.error(errorMessage(error))
    }
  }

  async function crawl(event: FormEvent) {
    event.preventDefault()
    const parsed = crawlRequestSchema.safeParse({ businessName, websiteUrl })
    if (!parsed.success) {
      const found: typeof errors = {}
      for (const issue of parsed.error.issues) found[issue.path[0] as 'businessName' | 'websiteUrl'] ??= issue.message
      setErrors(found)
      toast.error(Object.values(found)[0] ?? 'Invalid input')
      return
    }
    setErrors({})
    setStarting(true)
    try {
      const { job: started } = await api<{ job: Job }>('/api/crawler/crawl', { method: 'POST', body: parsed.data })
      live.add(started)
      setJobId(started.id)
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setStarting(false)
    }
  }

  const results = live.jobs.filter((j) => isFormCrawl(j) && !isActive(j)).slice(0, 20)
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-2xl font-bold tracking-tight">Business Image Crawler</h1>
        <p className="mt-1 text-sm text-slate-600">
          Find a business&apos;s hero image, thumbnail and logo on its website.
        </p>
      </header>

      {settings && !settings.keyStored ? (
        <Card
          title="Setup Required"
          description="Save a Firecrawl API key to crawl through Firecrawl. It is checked, then kept on the console server only."
        >
          <p className="mb-4 rounded-md bg-sky-50 p-3 text-sm text-sky-900">
            No key yet? The built-in crawler works without one: you can crawl right away.
          </p>
          <form
            className="flex flex-col gap-3 sm:flex-row sm:items-end"
            onSubmit={(event) => {
              event.preventDefault()
              void saveKey()
            }}
            noValidate
          >
            <div className="flex-1">
              <Field
                label="Firecrawl API Key"
                name="firecrawl-key"
                type="password"
                autoComplete="off"
                placeholder="fc-..."
                value={apiKey}
                onChange={(event) => setApiKey(event.target.value)}
              />
            </div>
            <Button type="submit" disabled={savingKey}>
              {savingKey ? 'Checking...' : 'Save API Key'}
            </Button>
          </form>
        </Card>
      ) : null}
      {settings?.keyStored ? (
        <Card>
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <Badge tone="success">Firecrawl</Badge>
            <span>
              Crawls use Firecrawl with the key{' '}
              {settings.keySource === 'environment' ? 'from FIRECRAWL_API_KEY' : 'saved on the console server'}.
            </span>
            {settings.keySource === 'console' ? (
              <Button variant="danger" className="ml-auto px-3 py-1" onClick={() => void removeKey()}>
                Remove key
              </Button>
            ) : null}
          </div>
        </Card>
      ) : null}

      <Card
        title="Crawl a website"
        description={
          settings ? `Engine: ${settings.engine === 'firecrawl' ? 'Firecrawl' : 'built-in crawler'}` : undefined
        }
      >
        <form onSubmit={(event) => void crawl(event)} className="flex flex-col gap-4" noValidate>
          <Field
            label="Business Name"
            name="businessName"
            required
            placeholder="e.g., Roland Coffee House"
            value={businessName}
            onChange={(event) => setBusinessName(event.target.value)}
            error={errors.businessName ?? null}
          />
          <Field
            label="Website URL"
            name="websiteUrl"
            type="url"
            required
            placeholder="https://example.com"
            value={websiteUrl}
            onChange={(event) => setWebsiteUrl(event.target.value)}
            error={errors.websiteUrl ?? null}
          />
          <div>
            <Button type="submit" disabled={crawling}>
              {crawling ? 'Crawling Images...' : 'Crawl Business Images'}
            </Button>
          </div>
          {crawling || progress > 0 ? (
            <div>
              <Progress value={progress} label="Crawl progress" />
              <p className="mt-1 text-xs text-slate-500">{job && isActive(job) ? job.progress.phase : ''}</p>
            </div>
          ) : null}
        </form>
      </Card>

      {results.length ? (
        <section className="flex flex-col gap-3">
          <h2 className="text-xl font-semibold tracking-tight">Crawled Images</h2>
          {results.map((result) => (
            <CrawlResultCard key={result.id} job={result} businesses={businesses} />
          ))}
        </section>
      ) : null}
    </div>
  )
}

function CrawlResultCard({ job, businesses }: { job: Job; businesses: BusinessRow[] | null }) {
  const params = job.params as { businessName?: string; websiteUrl?: string }
  const result = job.status === 'succeeded' ? (job.result as CrawlResultView) : null
  const images = result
    ? (
        [
          ['Hero Image', result.heroUrl],
          ['Thumbnail', result.thumbnailUrl],
          ['Logo', result.logoUrl],
        ] as const
      ).filter(([, url]) => url)
    : []
  return (
    <article className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-crawl-job={job.id}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold">{result?.businessName ?? params.businessName}</h3>
        {result ? <Badge tone="success">Success</Badge> : <Badge tone="error">Error</Badge>}
        <span className="truncate text-xs text-slate-500">{result?.websiteUrl ?? params.websiteUrl}</span>
      </div>
      {result ? (
        images.length ? (
          <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-3">
            {images.map(([label, url]) => (
              <figure key={label}>
                <SafeImage
                  src={url}
                  alt={`${result.businessName} ${label.toLowerCase()}`}
                  className="h-32 w-full rounded-md"
                />
                <figcaption className="mt-1 text-xs font-medium text-slate-600">{label}</figcaption>
              </figure>
            ))}
          </div>
        ) : (
          <p className="mt-3 text-sm text-slate-600">No images found for this business</p>
        )
      ) : (
        <div className="mt-2 text-sm text-red-800">
          <p className="font-semibold">Crawl Failed</p>
          <p>{job.error}</p>
        </div>
      )}
      {result && images.length ? <AttachForm job={job} result={result} businesses={businesses} /> : null}
    </article>
  )
}

/** Attaches a crawl's images to a business: downloaded into storage, then on the site after the rebuild. */
function AttachForm({
  job,
  result,
  businesses,
}: {
  job: Job
  result: CrawlResultView
  businesses: BusinessRow[] | null
}) {
  const toast = useToast()
  const live = useLive()
  const sameName = businesses?.find((b) => b.name.toLowerCase() === result.businessName.toLowerCase())
  const [chosen, setChosen] = useState<string | null>(null)
  const businessId = chosen ?? sameName?.id ?? ''
  const [attachJobId, setAttachJobId] = useState<string | null>(null)
  const attachJob = attachJobId
    ? live.byId.get(attachJobId)
    : live.jobs.find((j) => (j.params as { attach?: string }).attach === job.id)

  const announced = useRef<string | null>(null)
  useEffect(() => {
    if (!attachJobId || !attachJob || isActive(attachJob) || announced.current === attachJob.id) return
    announced.current = attachJob.id
    if (attachJob.status === 'succeeded') {
      const stored = (attachJob.result as { stored: Array<{ created: boolean }> }).stored
      toast.success(
        `Attached ${stored.filter((image) => image.created).length} new image(s) to ${String((attachJob.params as { businessName?: string }).businessName)}`,
      )
    } else {
      toast.error(attachJob.error ?? 'Failed to attach the images')
    }
  }, [attachJob, attachJobId, toast])

  async function attach() {
    if (!businessId) {
      toast.error('Choose the business these images belong to.')
      return
    }
    try {
      const { job: started } = await api<{ job: Job }>('/api/crawler/attach', {
        method: 'POST',
        body: { jobId: job.id, businessId },
      })
      live.add(started)
      setAttachJobId(started.id)
    } catch (error) {
      toast.error(errorMessage(error))
    }
  }

  return (
    <div className="mt-4 flex flex-wrap items-center gap-2 border-t border-slate-100 pt-3 text-sm">
      <label htmlFor={`attach-${job.id}`} className="font-medium">
        Attach to business
      </label>
      <select
        id={`attach-${job.id}`}
        value={businessId}
        onChange={(event) => setChosen(event.target.value)}
        className="max-w-xs rounded-md border border-slate-300 px-2 py-1.5"
      >
        <option value="">{businesses ? 'Choose a business...' : 'Loading businesses...'}</option>
        {(businesses ?? []).map((b) => (
          <option key={b.id} value={b.id}>
            {b.name}
          </option>
        ))}
      </select>
      <Button variant="secondary" className="px-3 py-1" onClick={() => void attach()} disabled={isActive(attachJob)}>
        {isActive(attachJob) ? 'Attaching...' : 'Attach images'}
      </Button>
      {attachJob ? <StatusBadge status={attachJob.status} /> : null}
    </div>
  )
}
