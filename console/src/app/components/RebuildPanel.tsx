import { useState } from 'react'
import type { RebuildStateView } from '../../shared/api.ts'
import { api, errorMessage } from '../api.ts'
import { durationOf, isActive, useLive, useTicker } from '../live.tsx'
import { useToast } from './Toaster.tsx'
import { Button, StatusBadge } from './ui.tsx'

/** The site's rebuild: the last one's status and duration, what is due, and 'Rebuild site'. */
export function RebuildPanel() {
  const { jobs, rebuild } = useLive()
  const toast = useToast()
  const [asking, setAsking] = useState(false)
  const last = jobs.find((job) => job.kind === 'rebuild')
  const now = useTicker(isActive(last))

  async function rebuildNow() {
    setAsking(true)
    try {
      const { outcome } = await api<{ outcome: 'started' | 'queued'; state: RebuildStateView }>('/api/rebuild', {
        method: 'POST',
      })
      toast.success(outcome === 'started' ? 'Site rebuild started' : 'A rebuild is running: another will follow it')
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setAsking(false)
    }
  }

  const mode = rebuild?.mode === 'hook' ? 'deploy hook' : 'local build'
  let state = ''
  if (rebuild?.pending)
    state = rebuild.waitingFor > 0 ? `rebuild due after ${rebuild.waitingFor} running job(s)` : 'rebuild due'
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="rebuild-panel" aria-live="polite">
      <span className="font-medium">Site</span>
      <span className="text-slate-500">({mode})</span>
      {last ? (
        <>
          <span>last rebuild</span>
          <span title={last.error ?? undefined}>
            <StatusBadge status={last.status} />
          </span>
          {durationOf(last, now) ? <span className="text-slate-600">{durationOf(last, now)}</span> : null}
        </>
      ) : (
        <span className="text-slate-500">not rebuilt from the console yet</span>
      )}
      {state ? <span className="text-amber-800">{state}</span> : null}
      {rebuild?.unpublishedEdits ? (
        <span className="text-amber-800" data-testid="unpublished-edits">
          {rebuild.unpublishedEdits} edit(s) not on the site yet: rebuild to publish them
        </span>
      ) : null}
      <Button variant="secondary" className="px-3 py-1" onClick={() => void rebuildNow()} disabled={asking}>
        Rebuild site
      </Button>
    </div>
  )
}
