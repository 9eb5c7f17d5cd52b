import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { eventCreateSchema, eventPatchSchema, eventTypes, type EventRow } from '../../shared/content.ts'
import { formatTownTime, fromTownInput, toTownInput } from '../../shared/town-time.ts'
import { api, ApiError, errorMessage, issuesByField } from '../api.ts'
import { Select, TextArea } from '../components/forms.tsx'
import { History } from '../components/History.tsx'
import { useToast } from '../components/Toaster.tsx'
import { Alert, Badge, Button, Card, Field } from '../components/ui.tsx'

type Draft = {
  title: string
  description: string
  starts_at: string
  ends_at: string
  location: string
  event_type: (typeof eventTypes)[number]
}

const emptyDraft: Draft = {
  title: '',
  description: '',
  starts_at: '',
  ends_at: '',
  location: '',
  event_type: 'Community',
}

function draftOf(event: EventRow): Draft {
  return {
    title: event.title,
    description: event.description ?? '',
    starts_at: toTownInput(event.starts_at),
    ends_at: event.ends_at ? toTownInput(event.ends_at) : '',
    location: event.location,
    event_type: event.event_type,
  }
}

// The form's wall-clock times become instants; a time that is no time is sent as typed, so the
// shared schema names the field.
function bodyOf(draft: Draft) {
  return {
    title: draft.title,
    description: draft.description,
    starts_at: fromTownInput(draft.starts_at) ?? draft.starts_at,
    ends_at: draft.ends_at ? (fromTownInput(draft.ends_at) ?? draft.ends_at) : null,
    location: draft.location,
    event_type: draft.event_type,
  }
}

/** Community events: create, edit, cancel, delete, in Roland's time (America/Chicago). */
export function Events() {
  const toast = useToast()
  const [events, setEvents] = useState<EventRow[] | null>(null)
  // The id of the event being edited, 'new' for a new one, or null.
  const [editing, setEditing] = useState<string | null>(null)
  // When the events were loaded: those ended before it are marked past.
  const [now, setNow] = useState(() => Date.now())

  const load = useCallback(
    () =>
      api<{ events: EventRow[] }>('/api/events').then(
        (answer) => {
          setNow(Date.now())
          setEvents(answer.events)
        },
        (error: unknown) => toast.error(errorMessage(error)),
      ),
    [toast],
  )

  useEffect(() => {
    void load()
  }, [load])

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Events</h1>
          <p className="mt-1 text-sm text-slate-600">
            Times are Roland time (America/Chicago). Past events leave the site&apos;s upcoming list by themselves.
          </p>
        </div>
        <Button onClick={() => setEditing('new')} disabled={editing === 'new'}>
          New event
        </Button>
      </header>
      {editing === 'new' ? (
        <EventForm
          onDone={(saved) => {
            setEditing(saved?.id ?? null)
            void load()
          }}
        />
      ) : null}
      {events === null ? <p className="text-sm text-slate-500">Loading events...</p> : null}
      <ul className="flex flex-col gap-3" aria-label="Events">
        {events?.map((event) => (
          <li key={event.id} className="flex flex-col gap-2">
            <article className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-event={event.slug}>
              <div className="flex flex-wrap items-center gap-2">
                <h2 className="font-semibold">{event.title}</h2>
                <Badge>{event.event_type}</Badge>
                {event.is_cancelled ? <Badge tone="error">cancelled</Badge> : null}
                {Date.parse(event.ends_at ?? event.starts_at) < now ? <Badge tone="pending">past</Badge> : null}
                <span className="text-xs text-slate-600">
                  {formatTownTime(event.starts_at)} · {event.location}
                </span>
                <Button
                  className="ml-auto px-3 py-1"
                  onClick={() => setEditing(editing === event.id ? null : event.id)}
                >
                  Edit
                </Button>
              </div>
            </article>
            {editing === event.id ? (
              <EventForm
                key={event.updated_at}
                event={event}
                onDone={(saved) => {
                  if (!saved) setEditing(null)
                  void load()
                }}
              />
            ) : null}
          </li>
        ))}
      </ul>
      {events?.length === 0 ? <Card description="No events yet." /> : null}
    </div>
  )
}

function EventForm({ event, onDone }: { event?: EventRow; onDone: (saved: EventRow | null) => void }) {
  const toast = useToast()
  const [draft, setDraft] = useState<Draft>(() => (event ? draftOf(event) : emptyDraft))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [stale, setStale] = useState(false)
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const set = (key: keyof Draft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }))

  async function send(path: string, method: string, body: unknown, done: string): Promise<EventRow | null> {
    try {
      const answer = await api<{ event: EventRow }>(path, { method, body })
      toast.success(done)
      return answer.event
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setStale(true)
      else if (error instanceof ApiError && error.issues.length) setErrors(issuesByField(error.issues))
      else toast.error(errorMessage(error))
      return null
    }
  }

  async function save(e: FormEvent) {
    e.preventDefault()
    const body = event ? { ...bodyOf(draft), updated_at: event.updated_at } : bodyOf(draft)
    const checked = (event ? eventPatchSchema : eventCreateSchema).safeParse(body)
    if (!checked.success) {
      setErrors(issuesByField(checked.error.issues))
      return
    }
    setErrors({})
    const saved = event
      ? await send(`/api/events/${event.id}`, 'PATCH', body, `Saved ${draft.title}`)
      : await send('/api/events', 'POST', body, `Added ${draft.title}`)
    if (saved) onDone(saved)
  }

  async function setCancelled(cancelled: boolean) {
    if (!event) return
    const saved = await send(
      `/api/events/${event.id}`,
      'PATCH',
      { is_cancelled: cancelled, updated_at: event.updated_at },
      cancelled ? `Cancelled ${event.title}` : `Reinstated ${event.title}`,
    )
    if (saved) onDone(saved)
  }

  async function remove() {
    if (!event) return
    try {
      await api(`/api/events/${event.id}?updated_at=${encodeURIComponent(event.updated_at)}`, { method: 'DELETE' })
      toast.success(`Deleted ${event.title}`)
      onDone(null)
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setStale(true)
      else toast.error(errorMessage(error))
    }
  }

  return (
    <section
      aria-label={event ? `Edit ${event.title}` : 'New event'}
      className="rounded-xl border border-brand-600 bg-white p-5 shadow-sm"
      data-testid="event-editor"
    >
      <h2 className="text-lg font-semibold">{event ? `Edit ${event.title}` : 'New event'}</h2>
      {stale ? (
        <div className="mt-4">
          <Alert tone="error" title="Not saved: someone else changed this event" testId="stale-alert">
            It was saved by someone else after you opened it. Reload the page to see their version, then make your
            change again.
          </Alert>
        </div>
      ) : null}
      <form className="mt-4 grid gap-4 md:grid-cols-2" onSubmit={(e) => void save(e)} noValidate>
        <Field id="event-title" label="Title" value={draft.title} onChange={set('title')} error={errors.title} />
        <Field
          id="event-location"
          label="Location"
          value={draft.location}
          onChange={set('location')}
          error={errors.location}
        />
        <Field
          id="event-starts"
          type="datetime-local"
          label="Starts (Roland time)"
          value={draft.starts_at}
          onChange={set('starts_at')}
          error={errors.starts_at}
        />
        <Field
          id="event-ends"
          type="datetime-local"
          label="Ends (Roland time)"
          value={draft.ends_at}
          onChange={set('ends_at')}
          error={errors.ends_at}
        />
        <Select
          id="event-type"
          label="Type"
          value={draft.event_type}
          onChange={set('event_type')}
          options={eventTypes}
        />
        <div className="md:col-span-2">
          <TextArea
            id="event-description"
            label="Description"
            value={draft.description}
            onChange={set('description')}
            error={errors.description}
          />
        </div>
        <div className="flex flex-wrap gap-2 md:col-span-2">
          <Button type="submit">{event ? 'Save changes' : 'Add event'}</Button>
          <Button variant="secondary" onClick={() => onDone(null)}>
            Close
          </Button>
          {event ? (
            <Button variant="secondary" onClick={() => void setCancelled(!event.is_cancelled)}>
              {event.is_cancelled ? 'Reinstate event' : 'Cancel event'}
            </Button>
          ) : null}
          {event && confirmingDelete ? (
            <span className="flex items-center gap-2 text-sm" role="group" aria-label="Confirm deletion">
              Delete {event.title}?
              <Button variant="danger" className="px-3 py-1" onClick={() => void remove()}>
                Yes, delete
              </Button>
              <Button variant="secondary" className="px-3 py-1" onClick={() => setConfirmingDelete(false)}>
                Keep it
              </Button>
            </span>
          ) : event ? (
            <Button variant="danger" onClick={() => setConfirmingDelete(true)}>
              Delete event
            </Button>
          ) : null}
        </div>
      </form>
      {event ? (
        <div className="mt-6">
          <History
            table="community_events"
            rowId={event.id}
            refreshKey={event.updated_at}
            onUndone={() => onDone(event)}
          />
        </div>
      ) : null}
    </section>
  )
}
