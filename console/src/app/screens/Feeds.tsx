import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { formatTownTime } from '@roland/scripts/content/town-time'
import type { CalendarFeed, FeedSyncLine, FeedsView } from '../../shared/api.ts'
import { api, errorMessage } from '../api.ts'
import { Field } from '../components/forms.tsx'
import { useToast } from '../components/Toaster.tsx'
import { Badge, Button, Card } from '../components/ui.tsx'
import { useTown } from '../town.tsx'

// Calendar feeds (issue 40): the calendars the site follows (the school's Google Calendar, the
// library's LibCal, a church's Outlook), each with its last sync, its error and its events; add
// one, sync one now, or stop following it. The schedule (ROLAND_FEEDS_EVERY) syncs them all.

/** The feeds, with "Add a feed", "Sync now" and "Remove". */
export function Feeds() {
  const { town } = useTown()
  const toast = useToast()
  const [view, setView] = useState<FeedsView | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [url, setUrl] = useState('')
  const [addError, setAddError] = useState<string | null>(null)

  const load = useCallback(
    () => api<FeedsView>('/api/feeds').then(setView, (error: unknown) => toast.error(errorMessage(error))),
    [toast],
  )
  useEffect(() => {
    void load()
  }, [load])

  async function add(event: FormEvent) {
    event.preventDefault()
    setBusy('add')
    setAddError(null)
    try {
      const { feed } = await api<{ feed: CalendarFeed }>('/api/feeds', { method: 'POST', body: { name, url } })
      toast.success(`Added ${feed.name}: sync it to read its events`)
      setName('')
      setUrl('')
      await load()
    } catch (error) {
      setAddError(errorMessage(error))
    } finally {
      setBusy(null)
    }
  }

  async function sync(feed: CalendarFeed) {
    setBusy(`sync:${feed.id}`)
    try {
      const { feed: line } = await api<{ feed: FeedSyncLine }>(`/api/feeds/${feed.id}/sync`, { method: 'POST' })
      if (line.ok) toast.success(`${line.name}: ${line.events} event(s)`)
      else toast.error(`${line.name}: ${line.error ?? 'the sync failed'}`)
      await load()
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setBusy(null)
    }
  }

  async function remove(feed: CalendarFeed) {
    if (!window.confirm(`Stop following ${feed.name}? Its ${feed.events} event(s) leave the site.`)) return
    setBusy(`remove:${feed.id}`)
    try {
      await api(`/api/feeds/${feed.id}`, { method: 'DELETE' })
      toast.success(`${feed.name} removed`)
      await load()
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setBusy(null)
    }
  }

  const when = (at: string | null) => (at ? formatTownTime(at, town.time_zone) : 'never')
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-2xl font-bold tracking-tight">Calendar feeds</h1>
        <p className="mt-1 text-sm text-slate-600">
          {view === null
            ? 'Loading feeds...'
            : 'Calendars the site follows: their events show on /events as "From {feed}". ' +
              (view.nextSyncAt
                ? `The next scheduled sync is ${formatTownTime(view.nextSyncAt, town.time_zone)}.`
                : 'Scheduled syncs are off (ROLAND_FEEDS_EVERY=off).')}
        </p>
      </header>
      <Card title="Add a feed" description="The calendar's iCal (.ics) address, from its sharing settings.">
        <form className="flex flex-col gap-3" onSubmit={(event) => void add(event)}>
          <Field id="feed-name" label="Name" value={name} onChange={(event) => setName(event.target.value)} />
          <Field
            id="feed-url"
            label="iCal address"
            type="url"
            value={url}
            error={addError}
            onChange={(event) => setUrl(event.target.value)}
          />
          <div>
            <Button type="submit" disabled={busy === 'add'}>
              {busy === 'add' ? 'Adding...' : 'Add feed'}
            </Button>
          </div>
        </form>
      </Card>
      {view && view.feeds.length === 0 ? <Card description="No calendar feeds yet." /> : null}
      {view && view.feeds.length > 0 ? (
        <ul className="flex flex-col gap-2" aria-label="Feeds">
          {view.feeds.map((feed) => (
            <li
              key={feed.id}
              data-feed={feed.name}
              className="rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-sm"
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-semibold">{feed.name}</span>
                {feed.last_error ? (
                  <Badge tone="error">last sync failed</Badge>
                ) : feed.last_synced_at ? (
                  <Badge tone="success">synced</Badge>
                ) : (
                  <Badge>not synced yet</Badge>
                )}
              </div>
              <p className="mt-1 break-all text-slate-600">{feed.url}</p>
              <p className="mt-1 text-slate-700">
                {feed.events} event(s){feed.hidden ? `, ${feed.hidden} hidden` : ''}; last synced{' '}
                {when(feed.last_synced_at)}
              </p>
              {feed.last_error ? <p className="mt-1 text-red-700">{feed.last_error}</p> : null}
              <div className="mt-2 flex flex-wrap gap-2">
                <Button variant="secondary" disabled={busy !== null} onClick={() => void sync(feed)}>
                  {busy === `sync:${feed.id}` ? 'Syncing...' : `Sync ${feed.name} now`}
                </Button>
                <Button variant="danger" disabled={busy !== null} onClick={() => void remove(feed)}>
                  Remove {feed.name}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
