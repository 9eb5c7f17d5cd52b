import { useCallback, useEffect, useState } from 'react'
import { changedFields, type AuditEntryView } from '@roland/scripts/content/schema-base'
import { formatTownTime } from '@roland/scripts/content/town-time'
import { api, errorMessage } from '../api.ts'
import { useTown } from '../town.tsx'
import { useToast } from './Toaster.tsx'
import { Button } from './ui.tsx'

const actions = { insert: 'created', update: 'changed', delete: 'deleted' } as const

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)'
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/** A row's history from the audit trail, newest first, each change with an Undo. */
export function History({
  table,
  rowId,
  refreshKey,
  onUndone,
}: {
  table: string
  rowId: string
  /** Changes when the row was saved, so the history reloads. */
  refreshKey: unknown
  onUndone: () => void
}) {
  const toast = useToast()
  const { town } = useTown()
  const [entries, setEntries] = useState<AuditEntryView[] | null>(null)
  const [busy, setBusy] = useState(false)

  const load = useCallback(
    () =>
      api<{ entries: AuditEntryView[] }>(
        `/api/audit?table=${encodeURIComponent(table)}&row=${encodeURIComponent(rowId)}&limit=20`,
      ).then(
        (answer) => setEntries(answer.entries),
        (error: unknown) => toast.error(errorMessage(error)),
      ),
    [table, rowId, toast],
  )

  useEffect(() => {
    void load()
  }, [load, refreshKey])

  async function undo(entry: AuditEntryView) {
    setBusy(true)
    try {
      await api(`/api/audit/${entry.id}/undo`, { method: 'POST' })
      toast.success('Change undone')
      onUndone()
      await load()
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-label="History" className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold">History</h3>
      {entries === null ? <p className="text-xs text-slate-500">Loading history...</p> : null}
      {entries?.length === 0 ? <p className="text-xs text-slate-500">No recorded changes yet.</p> : null}
      <ol className="flex flex-col gap-2" data-testid="history">
        {entries?.map((entry) => {
          const fields = entry.action === 'update' ? changedFields(entry) : []
          return (
            <li key={entry.id} className="rounded-md border border-slate-200 p-2 text-xs" data-audit-entry={entry.id}>
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{entry.actor}</span>
                <span>{actions[entry.action]}</span>
                <span className="text-slate-500">{formatTownTime(entry.at, town.time_zone)}</span>
                {entry.submission_id ? (
                  <span className="text-slate-600" data-testid="from-submission">
                    accepting submission {entry.submission_id}
                  </span>
                ) : null}
                <Button
                  variant="secondary"
                  className="ml-auto px-2 py-0.5 text-xs"
                  disabled={busy}
                  onClick={() => void undo(entry)}
                >
                  Undo
                </Button>
              </div>
              {fields.length ? (
                <ul className="mt-1 text-slate-600">
                  {fields.map((field) => (
                    <li key={field}>
                      {field}: {shown(entry.before?.[field])} → {shown(entry.after?.[field])}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          )
        })}
      </ol>
    </section>
  )
}
