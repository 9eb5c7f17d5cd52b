import { useEffect, useState, type FormEvent } from 'react'
import type { AlertRow } from '@roland/scripts/content/schema-base'
import { formatTownTime } from '@roland/scripts/content/town-time'
import type { NotifyView } from '../../shared/api.ts'
import { api, errorMessage } from '../api.ts'
import { follow } from '../navigate.ts'
import { useTown } from '../town.tsx'
import { useToast } from './Toaster.tsx'
import { Button, Card } from './ui.tsx'

// "Notify me" in the console (issue 48): the pieces the Alerts screen shows (AlertReach.tsx:
// subscribers per topic, counts only; each alert's delivery, "sent 212 of 215, 3 failed"; an
// admin's find-and-delete of one address) and Today's card: the alerts showing and any failed
// delivery. When email is off, both say so and what to set.

/** "sent 212 of 215, 3 failed" for one alert's messages of one kind. */
export function deliveryWords(delivery: { total: number; sent: number; failed: number; queued: number }): string {
  const parts = [`sent ${delivery.sent} of ${delivery.total}`]
  if (delivery.failed) parts.push(`${delivery.failed} failed`)
  if (delivery.queued) parts.push(`${delivery.queued} waiting`)
  return parts.join(', ')
}

/** Reads GET /api/notify, again whenever `refresh` changes. */
export function useNotify(refresh: unknown = null): NotifyView | null {
  const toast = useToast()
  const [view, setView] = useState<NotifyView | null>(null)
  useEffect(() => {
    api<NotifyView>('/api/notify').then(setView, (error: unknown) => toast.error(errorMessage(error)))
  }, [toast, refresh])
  return view
}

/** An admin's find-and-delete of one address, on request. */
export function FindSubscriber() {
  const toast = useToast()
  const [email, setEmail] = useState('')
  const [found, setFound] = useState<
    { id: string; email: string; status: string; topics: string[] } | null | undefined
  >(undefined)

  async function find(event: FormEvent) {
    event.preventDefault()
    try {
      const answer = await api<{ subscriber: typeof found }>(
        `/api/notify/subscribers?email=${encodeURIComponent(email)}`,
      )
      setFound(answer.subscriber ?? null)
    } catch (error) {
      toast.error(errorMessage(error))
    }
  }

  async function remove() {
    if (!found) return
    try {
      await api(`/api/notify/subscribers/${found.id}`, { method: 'DELETE' })
      toast.success(`Deleted ${found.email}: nothing more is sent to it.`)
      setFound(undefined)
      setEmail('')
    } catch (error) {
      toast.error(errorMessage(error))
    }
  }

  return (
    <form
      onSubmit={(event) => void find(event)}
      className="mt-4 flex flex-col gap-2 text-sm"
      aria-label="Find a subscriber"
    >
      <label htmlFor="notify-find" className="font-medium">
        Delete an address on request (admins)
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id="notify-find"
          type="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          className="min-w-0 flex-1 rounded-md border border-slate-300 px-2 py-1.5"
        />
        <Button type="submit" variant="secondary">
          Find
        </Button>
      </div>
      {found === null ? <p className="text-slate-600">No subscriber has that address.</p> : null}
      {found ? (
        <p className="flex flex-wrap items-center gap-2">
          {found.email} ({found.status}; {found.topics.join(', ') || 'no topic confirmed'})
          <Button type="button" variant="danger" onClick={() => void remove()}>
            Delete this address
          </Button>
        </p>
      ) : null}
    </form>
  )
}

/** Today's card: the alerts showing now and any failed delivery. */
export function AlertsToday({ refresh }: { refresh?: unknown }) {
  const { town } = useTown()
  const toast = useToast()
  const view = useNotify(refresh)
  const [read, setRead] = useState<{ alerts: AlertRow[]; at: number } | null>(null)
  useEffect(() => {
    api<{ alerts: AlertRow[] }>('/api/alerts').then(
      // "Showing" is judged at the time of the read.
      (answer) => setRead({ alerts: answer.alerts, at: Date.now() }),
      (error: unknown) => toast.error(errorMessage(error)),
    )
  }, [toast, refresh])
  const alerts = read?.alerts ?? null
  const now = read?.at ?? 0
  const showing = (alerts ?? []).filter(
    (alert) => alert.status === 'published' && (alert.ends_at === null || Date.parse(alert.ends_at) > now),
  )
  const failed = view?.delivery.alerts.filter((line) => line.failed > 0) ?? []
  const titles = new Map((alerts ?? []).map((alert) => [alert.id, alert.title]))
  return (
    <Card title="Alerts">
      <ul className="text-sm" aria-label="Alerts showing">
        {alerts && showing.length === 0 ? (
          <li className="px-2 text-slate-600">No alert is showing on the site.</li>
        ) : null}
        {showing.map((alert) => (
          <li key={alert.id} className="px-2 py-1">
            <a href="/alerts" onClick={(event) => follow(event, '/alerts')} className="hover:underline">
              <span className="font-semibold capitalize">{alert.level}:</span> {alert.title}
            </a>
            <span className="ml-2 text-xs text-slate-500">since {formatTownTime(alert.starts_at, town.time_zone)}</span>
          </li>
        ))}
        {failed.map((line) => (
          <li key={`${line.alert_id}-${line.kind}`} className="px-2 py-1 text-red-700">
            Email {line.kind === 'all-clear' ? 'of the All clear of ' : 'of '}
            {titles.get(line.alert_id) ?? 'an alert'}: {deliveryWords(line)}
          </li>
        ))}
        {view?.offReason ? <li className="px-2 py-1 text-slate-600">{view.offReason}</li> : null}
      </ul>
    </Card>
  )
}
