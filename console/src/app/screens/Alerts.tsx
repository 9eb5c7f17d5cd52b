import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react'
import { renderMarkdown } from '@roland/scripts/content/markdown'
import {
  alertCreateSchema,
  alertKindLabels,
  alertKinds,
  alertLevelLabels,
  alertLevels,
  alertPatchSchema,
  isAlertActive,
  type AlertKind,
  type AlertLevel,
  type AlertRow,
} from '@roland/scripts/content/schema-base'
import { formatTownTime, fromTownInput, toTownInput } from '@roland/scripts/content/town-time'
import { api, ApiError, errorMessage, issuesByField } from '../api.ts'
import { AlertDelivery, AlertSubscribers, NotifyViewProvider } from '../components/AlertReach.tsx'
import { Field, Select, TextArea } from '../components/forms.tsx'
import { History } from '../components/History.tsx'
import { useToast } from '../components/Toaster.tsx'
import { Alert, Badge, Button } from '../components/ui.tsx'
import { useTown } from '../town.tsx'

// Alerts (issue 48): a boil-water notice published from a phone in a minute. A short form (title,
// level, kind, area, text with the site's own preview, end time) and "Publish now"; the alerts
// showing on the site on top, each with "Update" and "All clear"; drafts; then the history of the
// alerts that are over. Publishing, updating a published alert and the all clear rebuild the site
// at once (the server queues it ahead of other work). Each alert's History has Undo, as every edit.

/** What the form edits, as typed. */
interface Draft {
  title: string
  level: AlertLevel
  kind: AlertKind
  area: string
  body: string
  ends_at: string
}

const emptyDraft: Draft = { title: '', level: 'emergency', kind: 'other', area: '', body: '', ends_at: '' }

const levelTone = { emergency: 'error', advisory: 'pending', notice: 'neutral' } as const

/** The Alerts screen. */
export function Alerts() {
  const toast = useToast()
  const [alerts, setAlerts] = useState<AlertRow[] | null>(null)
  // Which alerts still show is judged as of the last load (an end time passes while the screen is open).
  const [now, setNow] = useState(() => Date.now())

  const load = useCallback(
    () =>
      api<{ alerts: AlertRow[] }>('/api/alerts').then(
        (answer) => {
          setNow(Date.now())
          setAlerts(answer.alerts)
        },
        (error: unknown) => toast.error(errorMessage(error)),
      ),
    [toast],
  )
  useEffect(() => {
    void load()
  }, [load])

  const active = alerts?.filter((alert) => isAlertActive(alert, now)) ?? []
  const drafts = alerts?.filter((alert) => alert.status === 'draft') ?? []
  const over = alerts?.filter((alert) => alert.status !== 'draft' && !isAlertActive(alert, now)) ?? []

  return (
    <NotifyViewProvider>
      <div className="flex flex-col gap-6">
        <header>
          <h1 className="text-2xl font-bold tracking-tight">Alerts</h1>
          <p className="mt-1 text-sm text-slate-600">
            A banner on every page of the site, the alert's own page, and the feeds apps read. Publishing, an update and
            the all clear rebuild the site at once.
          </p>
        </header>
        <AlertSubscribers />
        <section
          aria-labelledby="new-alert-heading"
          className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
        >
          <h2 id="new-alert-heading" className="text-lg font-semibold">
            New alert
          </h2>
          <AlertForm onSaved={() => void load()} />
        </section>
        {alerts === null ? <p className="text-sm text-slate-500">Loading alerts...</p> : null}
        <AlertList title="On the site now" alerts={active} showing empty="No alert is showing." onChange={load} />
        {drafts.length > 0 ? <AlertList title="Drafts" alerts={drafts} onChange={load} /> : null}
        <AlertList title="History" alerts={over} empty="No alert has ended yet." onChange={load} />
      </div>
    </NotifyViewProvider>
  )
}

function AlertList({
  title,
  alerts,
  showing = false,
  empty,
  onChange,
}: {
  title: string
  alerts: AlertRow[]
  /** These alerts show on the site now. */
  showing?: boolean
  empty?: string
  onChange: () => Promise<void>
}) {
  const id = `alerts-${title.toLowerCase().replace(/\W+/g, '-')}`
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {alerts.length === 0 && empty ? <p className="text-sm text-slate-500">{empty}</p> : null}
      <ul className="flex flex-col gap-3">
        {alerts.map((alert) => (
          <AlertCard key={alert.id} alert={alert} showing={showing} onChange={onChange} />
        ))}
      </ul>
    </section>
  )
}

function AlertCard({
  alert,
  showing,
  onChange,
}: {
  alert: AlertRow
  /** It shows on the site now: it may be given the all clear. */
  showing: boolean
  onChange: () => Promise<void>
}) {
  const toast = useToast()
  const { town } = useTown()
  const [open, setOpen] = useState<'update' | 'end' | 'history' | null>(null)
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState('')
  const [stale, setStale] = useState(false)
  const time = (iso: string) => formatTownTime(iso, town.time_zone)
  const toggle = (what: 'update' | 'end' | 'history') => setOpen(open === what ? null : what)

  async function act(path: 'publish' | 'end', body: Record<string, unknown>, done: string) {
    setBusy(true)
    try {
      await api(`/api/alerts/${alert.id}/${path}`, { method: 'POST', body: { ...body, updated_at: alert.updated_at } })
      toast.success(done)
      setOpen(null)
      await onChange()
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setStale(true)
      else toast.error(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <li>
      <article
        className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
        data-alert={alert.id}
        aria-label={alert.title}
      >
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={levelTone[alert.level]}>{alertLevelLabels[alert.level]}</Badge>
          <Badge>{alertKindLabels[alert.kind]}</Badge>
          {alert.status === 'draft' ? <Badge tone="info">draft</Badge> : null}
          {alert.status === 'ended' ? <Badge tone="success">all clear</Badge> : null}
        </div>
        <h3 className="mt-2 font-semibold break-words">{alert.title}</h3>
        <p className="text-sm text-slate-600">
          {alert.area ?? `All of ${town.name}`}
          {alert.published_at ? ` · published ${time(alert.published_at)}` : ''}
          {alert.ends_at ? ` · until ${time(alert.ends_at)}` : ''}
          {alert.ended_at ? ` · all clear ${time(alert.ended_at)}` : ''}
        </p>
        <AlertDelivery alert={alert} />
        {stale ? (
          <div className="mt-3">
            <Alert tone="error" title="Not saved: someone else changed this alert" testId="stale-alert">
              Reload the page to see their version, then try again.
            </Alert>
          </div>
        ) : null}
        <div className="mt-3 flex flex-wrap gap-2">
          {alert.status === 'draft' ? (
            <Button disabled={busy} onClick={() => void act('publish', {}, `Published: ${alert.title}`)}>
              Publish now
            </Button>
          ) : null}
          {alert.status !== 'ended' ? (
            <Button variant="secondary" aria-expanded={open === 'update'} onClick={() => toggle('update')}>
              {alert.status === 'draft' ? 'Edit' : 'Update'}
            </Button>
          ) : null}
          {showing ? (
            <Button variant="secondary" aria-expanded={open === 'end'} onClick={() => toggle('end')}>
              All clear
            </Button>
          ) : null}
          <Button variant="secondary" aria-expanded={open === 'history'} onClick={() => toggle('history')}>
            History
          </Button>
        </div>
        {open === 'update' ? (
          <AlertForm
            alert={alert}
            onSaved={() => {
              setOpen(null)
              void onChange()
            }}
            onStale={() => setStale(true)}
          />
        ) : null}
        {open === 'end' ? (
          <form
            className="mt-3 flex flex-col gap-3"
            onSubmit={(event) => {
              event.preventDefault()
              void act('end', message.trim() ? { message } : {}, `All clear: ${alert.title}`)
            }}
          >
            <TextArea
              id={`all-clear-${alert.id}`}
              label="All clear message (optional)"
              rows={2}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              hint="Shown on the alert's page, such as: The water is safe to drink again."
            />
            <div>
              <Button type="submit" disabled={busy}>
                Give the all clear
              </Button>
            </div>
          </form>
        ) : null}
        {open === 'history' ? (
          <div className="mt-3">
            <History table="alerts" rowId={alert.id} refreshKey={alert.updated_at} onUndone={() => void onChange()} />
          </div>
        ) : null}
      </article>
    </li>
  )
}

/** The form of a new alert (Publish now, or Save as draft), or of an update to one. */
function AlertForm({ alert, onSaved, onStale }: { alert?: AlertRow; onSaved: () => void; onStale?: () => void }) {
  const toast = useToast()
  const { town } = useTown()
  const prefix = alert ? `alert-${alert.id}` : 'new-alert'
  const [draft, setDraft] = useState<Draft>(() =>
    alert
      ? {
          title: alert.title,
          level: alert.level,
          kind: alert.kind,
          area: alert.area ?? '',
          body: alert.body,
          ends_at: alert.ends_at ? toTownInput(alert.ends_at, town.time_zone) : '',
        }
      : emptyDraft,
  )
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [saving, setSaving] = useState(false)
  // What the site would show: the same renderer as the pages.
  const preview = useMemo(() => renderMarkdown(draft.body), [draft.body])
  const set = (key: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [key]: event.target.value }))

  async function save(publish: boolean, event?: FormEvent) {
    event?.preventDefault()
    const endsAt = draft.ends_at.trim() ? (fromTownInput(draft.ends_at, town.time_zone) ?? draft.ends_at) : null
    const fields = {
      title: draft.title,
      level: draft.level,
      kind: draft.kind,
      area: draft.area,
      body: draft.body,
      ends_at: endsAt,
    }
    const body = alert ? { ...fields, updated_at: alert.updated_at } : { ...fields, publish }
    const checked = alert ? alertPatchSchema.safeParse(body) : alertCreateSchema.safeParse(body)
    if (!checked.success) {
      setErrors(issuesByField(checked.error.issues))
      return
    }
    setErrors({})
    setSaving(true)
    try {
      const answer = alert
        ? await api<{ alert: AlertRow }>(`/api/alerts/${alert.id}`, { method: 'PATCH', body })
        : await api<{ alert: AlertRow }>('/api/alerts', { method: 'POST', body })
      toast.success(
        answer.alert.status === 'draft'
          ? `Saved the draft: ${answer.alert.title}`
          : `On the site at the rebuild: ${answer.alert.title}`,
      )
      if (!alert) setDraft(emptyDraft)
      onSaved()
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) onStale?.()
      else if (error instanceof ApiError && error.issues.length) setErrors(issuesByField(error.issues))
      else toast.error(errorMessage(error))
    } finally {
      setSaving(false)
    }
  }

  return (
    <form className="mt-3 flex flex-col gap-3" onSubmit={(event) => void save(true, event)} noValidate>
      <Field
        id={`${prefix}-title`}
        label="Title"
        value={draft.title}
        onChange={set('title')}
        error={errors.title}
        maxLength={120}
      />
      <div className="grid grid-cols-2 gap-3">
        <Select
          id={`${prefix}-level`}
          label="Level"
          options={alertLevels}
          value={draft.level}
          onChange={set('level')}
          error={errors.level}
        />
        <Select
          id={`${prefix}-kind`}
          label="Kind"
          options={alertKinds}
          value={draft.kind}
          onChange={set('kind')}
          error={errors.kind}
        />
      </div>
      <Field
        id={`${prefix}-area`}
        label="Area (blank: the whole town)"
        value={draft.area}
        onChange={set('area')}
        error={errors.area}
      />
      <TextArea
        id={`${prefix}-body`}
        label="Text (Markdown)"
        rows={5}
        value={draft.body}
        onChange={set('body')}
        error={errors.body}
      />
      {draft.body.trim() ? (
        <section aria-label="Preview" className="flex flex-col gap-1.5">
          <h3 className="text-sm font-medium text-slate-800">Preview</h3>
          <div
            className="markdown-preview rounded-md border border-slate-200 bg-slate-50 p-3 text-sm break-words"
            data-testid="alert-preview"
            dangerouslySetInnerHTML={{ __html: preview }}
          />
        </section>
      ) : null}
      <Field
        id={`${prefix}-ends`}
        type="datetime-local"
        label={`Ends (${town.name} time, optional)`}
        value={draft.ends_at}
        onChange={set('ends_at')}
        error={errors.ends_at}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={saving}>
          {alert ? (alert.status === 'draft' ? 'Save draft' : 'Save update') : 'Publish now'}
        </Button>
        {alert ? null : (
          <Button variant="secondary" disabled={saving} onClick={() => void save(false)}>
            Save as draft
          </Button>
        )}
      </div>
    </form>
  )
}
