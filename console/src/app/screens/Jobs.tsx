import { useState } from 'react'
import { formatTownTime } from '@roland/scripts/content/town-time'
import type { Job } from '../../shared/api.ts'
import { api, errorMessage } from '../api.ts'
import { useToast } from '../components/Toaster.tsx'
import { Badge, Button, Card, Progress, StatusBadge } from '../components/ui.tsx'
import { durationOf, isActive, percentOf, useLive, useTicker } from '../live.tsx'
import { useTown } from '../town.tsx'

/** Says who started a job: the console, the CLI, or the first setup. */
export function starterOf(job: Job): string {
  return job.started_by.startsWith('console') ? 'console' : job.started_by
}

/** One line saying what a job produced. */
export function summaryOf(job: Job): string | null {
  // An interrupted job's error says so: its process stopped (killed, crashed) before it finished.
  if (job.status === 'failed' || job.status === 'interrupted') return job.error
  if (job.status !== 'succeeded' || !job.result || typeof job.result !== 'object') return null
  const result = job.result as Record<string, unknown>
  switch (job.kind) {
    case 'migrate': {
      const summary = result.summary as
        { added: number; updated: number; unchanged: number; deactivated: number } | undefined
      return summary
        ? `${String(result.businessCount)} businesses: added ${summary.added}, updated ${summary.updated}, unchanged ${summary.unchanged}, deactivated ${summary.deactivated}`
        : null
    }
    case 'crawl': {
      const stored = Array.isArray(result.stored) ? (result.stored as Array<{ created: boolean }>) : null
      const skipped = Array.isArray(result.skipped) ? result.skipped.length : 0
      const found = ['heroUrl', 'thumbnailUrl', 'logoUrl'].filter((key) => typeof result[key] === 'string').length
      const parts = []
      if ('heroUrl' in result) parts.push(found ? `${found} of 3 images found` : 'No images found for this business')
      if (stored && (stored.length || (job.params as { businessId?: unknown }).businessId)) {
        parts.push(
          `${stored.filter((image) => image.created).length} stored, ${stored.filter((image) => !image.created).length} already there${skipped ? `, ${skipped} skipped` : ''}`,
        )
      }
      return parts.join('; ') || null
    }
    case 'images': {
      if ((job.params as { action?: unknown }).action === 'optimize') {
        const done = result.summary as
          { optimized: number; unchanged: number; skipped: number; failed: number } | undefined
        const failed = Array.isArray(result.failed) ? (result.failed as Array<{ imageUrl: string }>) : []
        if (!done) return null
        if (done.optimized === 0 && done.failed === 0) return 'Every photo already has its derivatives: nothing changed'
        return (
          `${done.optimized} photo(s) optimized` +
          (failed.length ? `; failed: ${failed.map((failure) => failure.imageUrl).join(', ')}` : '')
        )
      }
      const summary = result.summary as { generated: number; failed: number } | undefined
      return summary
        ? `${summary.generated} store image(s) generated${summary.failed ? `, ${summary.failed} failed` : ''}`
        : null
    }
    case 'check': {
      const findings = Array.isArray(result.findings) ? result.findings.length : 0
      const recorded = result.recorded as { opened: number; resolved: number } | undefined
      return (
        `${String(result.checked)} listing(s) checked: ${findings} open finding(s)` +
        (recorded ? ` (${recorded.opened} new, ${recorded.resolved} resolved)` : '')
      )
    }
    case 'rebuild':
      return result.mode === 'hook'
        ? `rebuild hook answered HTTP ${String(result.status)}`
        : `site built into ${String(result.outDir)}`
    default:
      return null
  }
}

/** What a job was about, from its parameters. */
export function subjectOf(job: Job): string {
  const params = job.params
  if (job.kind === 'migrate')
    return `from ${paramText(params.source, 'Roland.txt')}${params.reset ? ' (clear and reload)' : ''}`
  if (job.kind === 'crawl')
    return `${paramText(params.businessName)} ${params.attach ? '(attach images)' : params.websiteUrl ? `— ${paramText(params.websiteUrl)}` : ''}`
  if (job.kind === 'rebuild')
    return `${params.mode === 'hook' ? 'deploy hook' : 'local build'} (${paramText(params.trigger)})`
  if (job.kind === 'images' && params.action === 'optimize') return `optimize photos (${paramText(params.target)})`
  if (job.kind === 'images') return paramText(params.target)
  if (job.kind === 'check') return paramText(params.slug, 'every active listing')
  return ''
}

// The parameters shown are all strings; anything else (a missing one) shows as the fallback.
function paramText(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback
}

/** Every job, from the console or the CLI, live. */
export function Jobs() {
  const { jobs } = useLive()
  const now = useTicker(jobs.some(isActive))
  const toast = useToast()
  const [asking, setAsking] = useState(false)

  // The derivatives backfill (roland images optimize): photos stored before the pipeline get theirs.
  async function optimizePhotos() {
    setAsking(true)
    try {
      await api<{ job: Job }>('/api/jobs/optimize-images', { method: 'POST' })
      toast.success('Optimizing photos: the job is below')
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setAsking(false)
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Jobs</h1>
          <p className="mt-1 text-sm text-slate-600">
            Every migration, crawl, image, listing check and rebuild, from the console or the CLI, updated live.
          </p>
        </div>
        <Button variant="secondary" onClick={() => void optimizePhotos()} disabled={asking}>
          Optimize photos
        </Button>
      </header>
      {jobs.length === 0 ? <Card description="No jobs yet." /> : null}
      <ul className="flex flex-col gap-3" aria-label="Job history">
        {jobs.map((job) => (
          <li key={job.id}>
            <JobCard job={job} now={now} />
          </li>
        ))}
      </ul>
    </div>
  )
}

/** One job: kind, status, progress, duration, result or error, and its log. */
export function JobCard({ job, now }: { job: Job; now: number }) {
  const { town } = useTown()
  const summary = summaryOf(job)
  return (
    <article
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      data-job-id={job.id}
      data-kind={job.kind}
      data-status={job.status}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold capitalize">{job.kind}</span>
        <StatusBadge status={job.status} />
        <Badge>{starterOf(job)}</Badge>
        <span className="truncate text-sm text-slate-600">{subjectOf(job)}</span>
        <span className="ml-auto text-xs text-slate-500">
          {formatTownTime(job.created_at, town.time_zone)}
          {durationOf(job, now) ? ` · ${durationOf(job, now)}` : ''}
        </span>
      </div>
      {isActive(job) ? (
        <div className="mt-3">
          <Progress value={percentOf(job)} label={`${job.kind} progress`} />
          <p className="mt-1 text-xs text-slate-500">
            {job.progress.phase} ({job.progress.done}/{job.progress.total})
          </p>
        </div>
      ) : null}
      {summary ? (
        <p className={`mt-2 text-sm ${job.status === 'succeeded' ? 'text-slate-700' : 'text-red-700'}`}>{summary}</p>
      ) : null}
      {job.log.length ? (
        <details className="mt-2">
          <summary className="cursor-pointer text-xs text-slate-500">
            Log ({job.log.length} {job.log.length === 1 ? 'line' : 'lines'})
          </summary>
          <pre className="mt-2 max-h-64 overflow-auto rounded bg-slate-900 p-3 text-xs whitespace-pre-wrap text-slate-100">
            {job.log.map((line) => `${line.at.slice(11, 19)}  ${line.message}`).join('\n')}
          </pre>
        </details>
      ) : null}
    </article>
  )
}
