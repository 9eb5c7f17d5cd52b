import { useCallback, useEffect, useRef, useState } from 'react'
import { findingKinds, findingLabels } from '@roland/scripts/check/kinds'
import { formatTownDate, formatTownTime } from '@roland/scripts/content/town-time'
import type { FindingsView, FindingView, Job } from '../../shared/api.ts'
import { api, errorMessage } from '../api.ts'
import { useToast } from '../components/Toaster.tsx'
import { Badge, Button, Card } from '../components/ui.tsx'
import { isActive, useLive, useTicker } from '../live.tsx'
import { follow } from '../navigate.ts'
import { JobCard } from './Jobs.tsx'
import { useTown } from '../town.tsx'

// Needs attention (issue 28): what the freshness check found, grouped by kind, each finding with
// its one-click actions. Deactivating is an ordinary, audited edit, so its Undo is the audit trail's.

interface AuditAnswer {
  entries: Array<{ id: number }>
}

/** The open findings by kind, 'Check listings' with its live progress, and an action per finding. */
export function NeedsAttention() {
  const { town } = useTown()
  const toast = useToast()
  const live = useLive()
  const [view, setView] = useState<FindingsView | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  // Listings deactivated here, with the audit entry that undoes it.
  const [deactivated, setDeactivated] = useState<Map<string, number>>(new Map())

  const load = useCallback(
    () => api<FindingsView>('/api/findings').then(setView, (error: unknown) => toast.error(errorMessage(error))),
    [toast],
  )
  useEffect(() => {
    void load()
  }, [load])

  const check = live.jobs.find((job) => job.kind === 'check')
  const now = useTicker(isActive(check))
  // Reload when a check finishes, wherever it was started (undefined: nothing seen yet).
  const seen = useRef<string | null | undefined>(undefined)
  useEffect(() => {
    if (isActive(check)) return
    const id = check?.id ?? null
    if (seen.current !== undefined && seen.current !== id) void load()
    seen.current = id
  }, [check, load])

  async function act(key: string, work: () => Promise<void>) {
    setBusy(key)
    try {
      await work()
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setBusy(null)
    }
  }

  const startCheck = () =>
    act('check', async () => {
      const { job } = await api<{ job: Job }>('/api/jobs/check', { method: 'POST' })
      live.add(job)
    })

  const verify = (finding: FindingView) =>
    act(`verify:${finding.business_id}`, async () => {
      await api(`/api/businesses/${finding.business_id}/verify`, { method: 'POST' })
      toast.success(`${finding.name} marked verified`)
      await load()
    })

  const deactivate = (finding: FindingView) =>
    act(`deactivate:${finding.business_id}`, async () => {
      await api(`/api/businesses/${finding.business_id}`, { method: 'PATCH', body: { is_active: false } })
      const { entries } = await api<AuditAnswer>(`/api/audit?table=businesses&row=${finding.business_id}&limit=1`)
      setDeactivated((map) => new Map(map).set(finding.business_id, entries[0]?.id ?? 0))
      toast.success(`${finding.name} deactivated: it leaves the site at the next rebuild`)
    })

  const undo = (businessId: string, entryId: number) =>
    act(`undo:${businessId}`, async () => {
      await api(`/api/audit/${entryId}/undo`, { method: 'POST' })
      setDeactivated((map) => {
        const next = new Map(map)
        next.delete(businessId)
        return next
      })
      await load()
    })

  const dismiss = (finding: FindingView) =>
    act(`dismiss:${finding.id}`, async () => {
      await api(`/api/findings/${finding.id}/dismiss`, { method: 'POST' })
      await load()
    })

  const restore = (finding: FindingView) =>
    act(`restore:${finding.id}`, async () => {
      await api(`/api/findings/${finding.id}/restore`, { method: 'POST' })
      toast.success(`${finding.name}: "${findingLabels[finding.kind]}" shows again`)
      await load()
    })

  const open = (view?.findings ?? []).filter((finding) => finding.dismissed_at === null)
  const dismissed = (view?.findings ?? []).filter((finding) => finding.dismissed_at !== null)
  const dismissedCount = dismissed.length
  const total = open.length
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Needs attention</h1>
          <p className="mt-1 text-sm text-slate-600">
            {view === null
              ? 'Loading findings...'
              : `${total} finding(s) from the listing checks` +
                (view.nextCheckAt
                  ? `; the next scheduled check is ${formatTownTime(view.nextCheckAt, town.time_zone)}`
                  : '; scheduled checks are off (ROLAND_CHECK_EVERY=off)')}
            {dismissedCount ? `. ${dismissedCount} dismissed as false positives.` : ''}
          </p>
        </div>
        <Button onClick={() => void startCheck()} disabled={busy === 'check' || isActive(check)}>
          Check listings
        </Button>
      </header>
      {check ? <JobCard job={check} now={now} /> : null}
      {view ? (
        <nav aria-label="Findings by kind" className="flex flex-wrap gap-2">
          {findingKinds
            .filter((kind) => view.byKind[kind] > 0)
            .map((kind) => (
              <a key={kind} href={`#${kind}`} className="rounded-full border border-slate-300 px-3 py-1 text-sm">
                {findingLabels[kind]} <span className="font-semibold">{view.byKind[kind]}</span>
              </a>
            ))}
        </nav>
      ) : null}
      {view?.backup.problem ? (
        <section id="backups" aria-labelledby="backups-heading" data-kind="backups">
          <h2 id="backups-heading" className="mb-2 text-lg font-semibold">
            Backups
          </h2>
          <Card>
            <p className="text-sm text-red-700">{view.backup.problem}</p>
            <p className="mt-2 text-sm text-slate-600">
              Write and check one now from Today (&ldquo;Back up now&rdquo;), or run{' '}
              <code>pnpm roland db backup --dir {view.backup.dir ?? 'FOLDER'}</code> on the console&rsquo;s machine.
            </p>
          </Card>
        </section>
      ) : null}
      {view && view.failingFeeds.length > 0 ? (
        <section id="feeds" aria-labelledby="feeds-heading" data-kind="feeds">
          <h2 id="feeds-heading" className="mb-2 text-lg font-semibold">
            Calendar feeds that failed ({view.failingFeeds.length})
          </h2>
          <ul className="flex flex-col gap-2">
            {view.failingFeeds.map((feed) => (
              <li
                key={feed.id}
                data-feed={feed.name}
                className="rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-sm"
              >
                <span className="font-semibold">{feed.name}</span>
                <p className="mt-1 text-red-700">{feed.last_error}</p>
                <p className="mt-1 text-slate-600">
                  Its {feed.events} event(s) stay on the site as they were.{' '}
                  <a className="underline" href="/feeds" onClick={(event) => follow(event, '/feeds')}>
                    Open Calendar feeds
                  </a>
                </p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {view && total === 0 && !view.backup.problem && view.failingFeeds.length === 0 ? (
        <Card description="Nothing needs attention." />
      ) : null}
      {findingKinds.map((kind) => {
        const ofKind = open.filter((finding) => finding.kind === kind)
        if (ofKind.length === 0) return null
        return (
          <section key={kind} id={kind} aria-labelledby={`${kind}-heading`} data-kind={kind}>
            <h2 id={`${kind}-heading`} className="mb-2 text-lg font-semibold">
              {findingLabels[kind]} ({ofKind.length})
            </h2>
            <ul className="flex flex-col gap-2">
              {ofKind.map((finding) => {
                const undoEntry = deactivated.get(finding.business_id)
                return (
                  <li
                    key={finding.id}
                    data-business={finding.business}
                    className="rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-sm"
                  >
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="font-semibold">{finding.name}</span>
                      {finding.seen_count > 1 ? <Badge>{finding.seen_count} checks in a row</Badge> : null}
                      {finding.website_hidden ? <Badge tone="pending">link hidden on the site</Badge> : null}
                      {undoEntry !== undefined ? <Badge tone="error">deactivated</Badge> : null}
                    </div>
                    <p className="mt-1 break-words text-slate-700">{finding.detail}</p>
                    <p className="mt-1 text-xs text-slate-500">
                      First seen {formatTownDate(finding.first_seen_at, town.time_zone)}, last seen{' '}
                      {formatTownDate(finding.last_seen_at, town.time_zone)}
                    </p>
                    <div className="mt-2 flex flex-wrap gap-2">
                      <a
                        href={`/businesses?edit=${finding.business_id}`}
                        onClick={(event) => follow(event, `/businesses?edit=${finding.business_id}`)}
                        className="rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-50"
                      >
                        Open editor<span className="sr-only"> of {finding.name}</span>
                      </a>
                      <Button
                        variant="secondary"
                        className="px-3 py-1"
                        disabled={busy !== null}
                        onClick={() => void verify(finding)}
                      >
                        Mark verified<span className="sr-only"> {finding.name}</span>
                      </Button>
                      {undoEntry === undefined ? (
                        <Button
                          variant="danger"
                          className="px-3 py-1"
                          disabled={busy !== null}
                          onClick={() => void deactivate(finding)}
                        >
                          Deactivate<span className="sr-only"> {finding.name}</span>
                        </Button>
                      ) : (
                        <Button
                          variant="secondary"
                          className="px-3 py-1"
                          disabled={busy !== null || undoEntry === 0}
                          onClick={() => void undo(finding.business_id, undoEntry)}
                        >
                          Undo deactivate<span className="sr-only"> {finding.name}</span>
                        </Button>
                      )}
                      <Button
                        variant="secondary"
                        className="px-3 py-1"
                        disabled={busy !== null}
                        onClick={() => void dismiss(finding)}
                      >
                        Dismiss<span className="sr-only"> {finding.name}: not a problem</span>
                      </Button>
                    </div>
                  </li>
                )
              })}
            </ul>
          </section>
        )
      })}
      {dismissed.length > 0 ? (
        <details className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="dismissed">
          <summary className="cursor-pointer font-semibold">Dismissed as false positives ({dismissed.length})</summary>
          <ul className="mt-2 flex flex-col gap-2">
            {dismissed.map((finding) => (
              <li key={finding.id} data-finding={finding.id} className="border-t border-slate-100 pt-2">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold">{finding.name}</span>
                  <Badge>{findingLabels[finding.kind]}</Badge>
                </div>
                <p className="mt-1 break-words text-slate-700">{finding.detail}</p>
                <p className="mt-1 text-xs text-slate-500">
                  Dismissed by {finding.dismissed_by ?? 'an operator'}
                  {finding.dismissed_at ? ` on ${formatTownDate(finding.dismissed_at, town.time_zone)}` : ''}
                </p>
                <Button
                  variant="secondary"
                  className="mt-2 px-3 py-1"
                  disabled={busy !== null}
                  onClick={() => void restore(finding)}
                >
                  Restore
                  <span className="sr-only">
                    {' '}
                    {finding.name}: {findingLabels[finding.kind]}
                  </span>
                </Button>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  )
}
