import { useMemo } from 'react'
import { eventCreateSchema, eventPatchSchema, eventTypes, type EventRow } from '@roland/scripts/content/schema-base'
import type { TownRow } from '@roland/scripts/content/schema'
import { formatTownTime, fromTownInput, toTownInput } from '@roland/scripts/content/town-time'
import { ContentListEditor, type ContentKind } from '../components/ContentListEditor.tsx'
import { inEventOrder, nextOccurrence } from '../event-order.ts'
import {
  emptyRepeatDraft,
  EventRepeat,
  repeatDraftOf,
  ruleOfDraft,
  type RepeatDraft,
} from '../components/EventRepeat.tsx'
import type { FieldDef } from '../components/forms.tsx'
import { Badge, Button } from '../components/ui.tsx'
import { useTown } from '../town.tsx'

/** What the event form edits. */
export type EventDraft = {
  title: string
  description: string
  starts_at: string
  ends_at: string
  location: string
  event_type: (typeof eventTypes)[number]
}

/** The event form's fields, times in the town's time (the Inbox's "Edit, then accept" uses them too). */
export function eventFields(town: Pick<TownRow, 'name'>): FieldDef<EventDraft>[] {
  return [
    { kind: 'text', key: 'title', label: 'Title' },
    { kind: 'text', key: 'location', label: 'Location' },
    { kind: 'text', key: 'starts_at', id: 'starts', type: 'datetime-local', label: `Starts (${town.name} time)` },
    { kind: 'text', key: 'ends_at', id: 'ends', type: 'datetime-local', label: `Ends (${town.name} time)` },
    { kind: 'select', key: 'event_type', id: 'type', label: 'Type', options: eventTypes },
    { kind: 'textarea', key: 'description', label: 'Description' },
  ]
}

/**
 * The body an event form sends: its wall-clock times become instants; a time that is no time is
 * sent as typed, so the shared schema names the field.
 */
export function eventBody(draft: EventDraft, timeZone: string): Record<string, unknown> {
  return {
    ...draft,
    starts_at: fromTownInput(draft.starts_at, timeZone) ?? draft.starts_at,
    ends_at: draft.ends_at ? (fromTownInput(draft.ends_at, timeZone) ?? draft.ends_at) : null,
  }
}

/** The event editor's form: the event's fields and how it repeats. */
type SeriesDraft = EventDraft & RepeatDraft

/** The body the event editor sends: the fields, and the rule its repeat controls say, in the town's zone. */
function seriesBody(draft: SeriesDraft, timeZone: string): Record<string, unknown> {
  const { title, description, starts_at, ends_at, location, event_type } = draft
  const body = eventBody({ title, description, starts_at, ends_at, location, event_type }, timeZone)
  return { ...body, rrule: ruleOfDraft(draft, fromTownInput(starts_at, timeZone), timeZone) }
}

const eventsKind = (town: TownRow): ContentKind<EventRow, SeriesDraft> => ({
  one: 'event',
  many: 'events',
  table: 'community_events',
  intro: `Times are ${town.name} time (${town.time_zone}). Past events leave the site's upcoming list by themselves.`,
  empty: 'No events yet.',
  nameOf: (event) => event.title,
  itemData: (event) => ({ 'data-event': event.slug }),
  // The next event first, past ones below (the API answers latest first).
  order: (events, loadedAt) => inEventOrder(events, loadedAt, town.time_zone),
  summary: (event, loadedAt) => (
    <>
      <h2 className="font-semibold">{event.title}</h2>
      <Badge>{event.event_type}</Badge>
      {event.is_cancelled ? <Badge tone="error">cancelled</Badge> : null}
      {event.rrule ? <Badge>repeats</Badge> : null}
      {nextOccurrence(event, loadedAt, town.time_zone) === null ? <Badge tone="pending">past</Badge> : null}
      <span className="text-xs text-slate-600">
        {formatTownTime(event.starts_at, town.time_zone)} · {event.location}
      </span>
    </>
  ),
  createSchema: eventCreateSchema,
  patchSchema: eventPatchSchema,
  emptyDraft: {
    title: '',
    description: '',
    starts_at: '',
    ends_at: '',
    location: '',
    event_type: 'Community',
    ...emptyRepeatDraft,
  },
  draftOf: (event) => ({
    starts_at: toTownInput(event.starts_at, town.time_zone),
    ends_at: event.ends_at ? toTownInput(event.ends_at, town.time_zone) : '',
    ...repeatDraftOf(event, town.time_zone),
  }),
  bodyOf: (draft) => seriesBody(draft, town.time_zone),
  fields: eventFields(town) as FieldDef<SeriesDraft>[],
  extra: (form) => <EventRepeat {...form} />,
  savedMessage: (event, added) => `${added ? 'Added' : 'Saved'} ${event.title}`,
  actions: (event, send) => (
    <Button
      variant="secondary"
      onClick={() =>
        void send({ is_cancelled: !event.is_cancelled }, () =>
          event.is_cancelled ? `Reinstated ${event.title}` : `Cancelled ${event.title}`,
        )
      }
    >
      {event.is_cancelled ? 'Reinstate event' : 'Cancel event'}
    </Button>
  ),
})

/** Community events: create, edit, cancel, delete, in the town's time. */
export function Events() {
  const { town } = useTown()
  const kind = useMemo(() => eventsKind(town), [town])
  return <ContentListEditor kind={kind} />
}
