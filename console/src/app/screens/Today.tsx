import { useEffect, useState, type ReactNode } from 'react'
import { findingKinds, findingLabels } from '@roland/scripts/check/kinds'
import { formatTownDate, formatTownTime } from '@roland/scripts/content/town-time'
import type { TodayView } from '../../shared/api.ts'
import { api, errorMessage } from '../api.ts'
import { BackupCard } from '../components/BackupCard.tsx'
import { AlertsToday } from '../components/NotifyCard.tsx'
import { useToast } from '../components/Toaster.tsx'
import { Card, StatusBadge } from '../components/ui.tsx'
import { useLive } from '../live.tsx'
import { follow } from '../navigate.ts'
import { useTown } from '../town.tsx'

// Today (issue 28): the screen the console opens on. What needs doing now, each line a link to
// the screen where it is done.

const tableScreens: Record<string, string> = {
  businesses: '/businesses',
  business_images: '/businesses',
  business_services: '/businesses',
  business_hours: '/businesses',
  community_events: '/events',
  attractions: '/attractions',
}

function Line({ to, children }: { to: string; children: ReactNode }) {
  return (
    <li>
      <a href={to} onClick={(event) => follow(event, to)} className="block rounded-md px-2 py-1.5 hover:bg-slate-50">
        {children}
      </a>
    </li>
  )
}

/** The overview: submissions waiting, findings by kind, recent changes and who made them, edits waiting and the last build. */
export function Today() {
  const { town } = useTown()
  const toast = useToast()
  const { rebuild, jobs, pendingSubmissions } = useLive()
  const [today, setToday] = useState<TodayView | null>(null)
  const lastRebuildId = jobs.find((job) => job.kind === 'rebuild')?.updated_at

  useEffect(() => {
    api<TodayView>('/api/today').then(setToday, (error: unknown) => toast.error(errorMessage(error)))
  }, [toast, lastRebuildId])

  if (!today) return <p className="text-sm text-slate-500">Loading today...</p>
  const kinds = findingKinds.filter((kind) => today.byKind[kind] > 0)
  const unpublished = rebuild?.unpublishedEdits ?? today.unpublishedEdits
  // The live count (the navigation's) once known, so the line follows the Inbox without a reload.
  const pending = pendingSubmissions ?? today.pendingSubmissions
  const lastBuild = jobs.find((job) => job.kind === 'rebuild') ?? today.lastRebuild
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight">Today</h1>

      <AlertsToday refresh={lastRebuildId} />

      <Card title="Inbox">
        <ul className="text-sm" aria-label="Inbox">
          <Line to="/inbox">
            {pending > 0 ? (
              <>
                <span className="font-semibold">{pending}</span> {pending === 1 ? 'submission' : 'submissions'} waiting
              </>
            ) : (
              'No submissions waiting'
            )}
          </Line>
        </ul>
      </Card>

      <Card title="Needs attention">
        <ul className="text-sm" aria-label="Findings by kind">
          {today.backup.problem ? (
            <Line to="/attention#backups">
              <span className="font-semibold">Backups:</span> {today.backup.problem}
            </Line>
          ) : null}
          {kinds.length === 0 && !today.backup.problem ? (
            <Line to="/attention">
              Nothing needs attention
              {today.lastCheck ? ` (last check ${formatTownDate(today.lastCheck.created_at, town.time_zone)})` : ''}
            </Line>
          ) : (
            kinds.map((kind) => (
              <Line key={kind} to={`/attention#${kind}`}>
                <span className="font-semibold">{today.byKind[kind]}</span> {findingLabels[kind]}
              </Line>
            ))
          )}
        </ul>
      </Card>

      <Card title="Recent changes">
        <ul className="text-sm" aria-label="Recent changes">
          {today.recentChanges.length === 0 ? <li className="px-2 text-slate-500">No changes yet.</li> : null}
          {today.recentChanges.map((change) => {
            // A job's line leads to the job history; a save, to the row it changed.
            const screen = change.jobId ? '/jobs' : ((change.table && tableScreens[change.table]) ?? '/jobs')
            const to =
              !change.jobId && change.table === 'businesses' && change.rowId && change.action !== 'delete'
                ? `${screen}?edit=${change.rowId}`
                : screen
            return (
              <Line key={change.id} to={to}>
                {change.who ? <span className="font-semibold">{change.who} </span> : null}
                {change.text}
                {change.via ? <span className="text-slate-500"> ({change.via})</span> : null}
                <span className="ml-2 text-xs text-slate-500">{formatTownTime(change.at, town.time_zone)}</span>
              </Line>
            )
          })}
        </ul>
      </Card>

      <BackupCard key={today.backup.last?.checkedAt ?? 'none'} initial={today.backup} />

      <Card title="The site">
        <ul className="text-sm" aria-label="The site">
          <Line to="/jobs">
            {unpublished > 0 ? `${unpublished} edit(s) waiting for a rebuild` : 'No edits waiting for a rebuild'}
          </Line>
          <Line to="/jobs">
            {lastBuild ? (
              <>
                Last build <StatusBadge status={lastBuild.status} />{' '}
                {formatTownTime(lastBuild.finished_at ?? lastBuild.created_at, town.time_zone)}
                {lastBuild.error ? `: ${lastBuild.error}` : ''}
              </>
            ) : (
              'Not built from the console yet'
            )}
          </Line>
        </ul>
      </Card>
    </div>
  )
}
