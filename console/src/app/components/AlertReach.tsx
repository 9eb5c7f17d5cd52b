import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { AlertRow } from '@roland/scripts/content/schema-base'
import type { NotifyView } from '../../shared/api.ts'
import { api, errorMessage } from '../api.ts'
import { useTown } from '../town.tsx'
import { deliveryWords, FindSubscriber } from './NotifyCard.tsx'
import { useToast } from './Toaster.tsx'
import { Card } from './ui.tsx'

// The place on the Alerts screen for who an alert reaches (issue 48, "Notify me"): how many
// subscribers each topic has (counts only; an admin finds and deletes one address on request), and
// under each alert its delivery ("sent 212 of 215, 3 failed"). The screen (screens/Alerts.tsx)
// renders these two where they belong, inside its NotifyViewProvider: both read its one copy of
// GET /api/notify, which lives as long as the screen does.

interface NotifyViewValue {
  view: NotifyView | null
  /** Reads GET /api/notify again (one read at a time). */
  reload: () => Promise<void>
}

const NotifyViewContext = createContext<NotifyViewValue | null>(null)

/** Holds the Alerts screen's copy of GET /api/notify for the components below it. */
export function NotifyViewProvider({ children }: { children: ReactNode }): React.ReactNode {
  const [view, setView] = useState<NotifyView | null>(null)
  const loading = useRef<Promise<void> | null>(null)
  const reload = useCallback(() => {
    loading.current ??= api<NotifyView>('/api/notify')
      .then(setView)
      .finally(() => {
        loading.current = null
      })
    return loading.current
  }, [])
  const value = useMemo(() => ({ view, reload }), [view, reload])
  return <NotifyViewContext.Provider value={value}>{children}</NotifyViewContext.Provider>
}

function useNotifyView(): NotifyViewValue {
  const value = useContext(NotifyViewContext)
  if (!value) throw new Error('AlertSubscribers and AlertDelivery belong inside a NotifyViewProvider.')
  return value
}

/** Subscribers per topic, at the top of the Alerts screen (counts only), and whether email is on. */
export function AlertSubscribers(): React.ReactNode {
  const { canEdit: isAdmin } = useTown()
  const toast = useToast()
  const { view: notify, reload } = useNotifyView()
  useEffect(() => {
    reload().catch((error: unknown) => toast.error(errorMessage(error)))
  }, [reload, toast])
  if (!notify) return null
  return (
    <Card title="Email subscribers">
      {notify.offReason ? (
        <p role="status" className="mb-3 rounded-md bg-amber-50 p-2 text-sm text-amber-900">
          {notify.offReason}
        </p>
      ) : null}
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4" aria-label="Subscribers">
        <div>
          <dt className="text-slate-600">Alerts</dt>
          <dd className="text-lg font-semibold" data-testid="subscribers-alerts">
            {notify.counts.alerts}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Weekly events</dt>
          <dd className="text-lg font-semibold">{notify.counts.events}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Not confirmed yet</dt>
          <dd className="text-lg font-semibold">{notify.counts.pending}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Stopped (bounced)</dt>
          <dd className="text-lg font-semibold">{notify.counts.stopped}</dd>
        </div>
      </dl>
      {notify.lastError ? <p className="mt-2 text-sm text-red-700">Last send failed: {notify.lastError}</p> : null}
      {isAdmin ? <FindSubscriber /> : null}
    </Card>
  )
}

/** One alert's email delivery, under its title on the Alerts screen. */
export function AlertDelivery({ alert }: { alert: AlertRow }): React.ReactNode {
  const { view: notify, reload } = useNotifyView()
  // Publishing and the all clear change what was sent: read again when the alert changes.
  useEffect(() => {
    if (alert.status !== 'draft') reload().catch(() => {})
  }, [reload, alert.id, alert.status, alert.updated_at])
  const lines = notify?.delivery.alerts.filter((line) => line.alert_id === alert.id) ?? []
  if (lines.length === 0) return null
  return (
    <p className="text-sm text-slate-600" data-testid="alert-delivery">
      {lines
        .map((line) => `${line.kind === 'all-clear' ? 'All clear by email' : 'By email'}: ${deliveryWords(line)}`)
        .join('; ')}
    </p>
  )
}
