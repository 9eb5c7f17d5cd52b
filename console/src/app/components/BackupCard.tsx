import { useEffect, useState } from 'react'
import { formatTownTime } from '@roland/scripts/content/town-time'
import type { BackupView } from '../../shared/api.ts'
import { api, errorMessage } from '../api.ts'
import { Button, Card } from './ui.tsx'
import { useToast } from './Toaster.tsx'
import { useTown } from '../town.tsx'

// Today's "Backups" card (issue 43): the last checked backup, when the next is due, and "Back up
// now". While a backup is written and checked, the card asks again every two seconds.

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** The scheduled backups, from the view Today loaded; follows a backup it starts until it is checked. */
export function BackupCard({ initial }: { initial: BackupView }) {
  const { town } = useTown()
  const toast = useToast()
  // Today loads the card's first view; the card follows its own "Back up now" from there.
  const [view, setView] = useState(initial)
  useEffect(() => {
    if (!view.running) return
    const timer = setTimeout(() => {
      api<BackupView>('/api/backups').then(setView, (error: unknown) => toast.error(errorMessage(error)))
    }, 2000)
    return () => clearTimeout(timer)
  }, [view, toast])

  const backUpNow = () =>
    api<BackupView>('/api/backups', { method: 'POST' }).then(setView, (error: unknown) =>
      toast.error(errorMessage(error)),
    )

  if (!view.dir) {
    return (
      <Card title="Backups">
        <p className="text-sm text-slate-600" data-testid="backup-status">
          Scheduled backups are off: set ROLAND_BACKUP_DIR to a folder (see .env.example), or download a backup from
          Operators.
        </p>
      </Card>
    )
  }
  const { last, lastGood } = view
  return (
    <Card title="Backups">
      <div className="flex flex-col gap-2 text-sm" data-testid="backup-status">
        {lastGood ? (
          <p>
            Last checked backup:{' '}
            <span className="font-semibold">{formatTownTime(lastGood.createdAt, town.time_zone)}</span>, restored and
            checked: {lastGood.rows} rows in {lastGood.tables} tables and {lastGood.files} files (
            {megabytes(lastGood.bytes)}) came back as written.
          </p>
        ) : (
          <p>No checked backup yet.</p>
        )}
        {last && !last.ok ? (
          <p className="text-red-700" role="alert">
            The check of {last.file} failed: {last.error}
          </p>
        ) : null}
        {view.problem && (!last || last.ok) ? <p className="text-amber-800">{view.problem}</p> : null}
        <p className="text-slate-600">
          In {view.dir}.{' '}
          {view.running
            ? 'Writing and checking a backup now...'
            : view.nextAt
              ? `Next backup ${formatTownTime(view.nextAt, town.time_zone)}.`
              : 'Scheduled backups are off (ROLAND_BACKUP_EVERY=off).'}
        </p>
        <div>
          <Button variant="secondary" onClick={() => void backUpNow()} disabled={view.running}>
            Back up now
          </Button>
        </div>
      </div>
    </Card>
  )
}
