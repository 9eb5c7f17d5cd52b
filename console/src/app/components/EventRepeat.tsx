import { useState, type Dispatch, type SetStateAction } from 'react'
import type { EventRow } from '@roland/scripts/content/schema-base'
import { formatTownTime, fromTownInput } from '@roland/scripts/content/town-time'
import {
  describeRule,
  nextStarts,
  patternOfRule,
  ruleOfPattern,
  ruleProblem,
  weekdayCodes,
  type RepeatKind,
  type WeekdayCode,
} from '@roland/scripts/events/recurrence'
import { Checkbox, Field, Select } from './forms.tsx'
import type { SendChange } from './ContentListEditor.tsx'
import { Button } from './ui.tsx'
import { useTown } from '../town.tsx'

// How an event repeats, in the event editor (issue 40): the common patterns, or a rule as
// written; the rule in plain words and its next five dates; and for a saved series, a button to
// cancel one date (an EXDATE) or restore it.

/** The repeat choices, as the form shows them, and the pattern each is. */
const choices = {
  'Does not repeat': 'none',
  Weekly: 'weekly',
  'Monthly on the same weekday (e.g. second Tuesday)': 'monthly-weekday',
  'Monthly on the same date': 'monthly-date',
  Yearly: 'yearly',
  'Custom rule (RRULE)': 'custom',
} as const satisfies Record<string, RepeatKind | 'custom'>
type Choice = keyof typeof choices
const choiceOf = (kind: RepeatKind | 'custom') => (Object.keys(choices) as Choice[]).find((c) => choices[c] === kind)!

const dayLabels: Record<WeekdayCode, string> = {
  SU: 'Sun',
  MO: 'Mon',
  TU: 'Tue',
  WE: 'Wed',
  TH: 'Thu',
  FR: 'Fri',
  SA: 'Sat',
}

/** What the repeat part of the form edits. */
export type RepeatDraft = {
  repeat: string
  repeat_until: string
  /** The rule as written, for a custom rule. */
  rrule: string
} & Record<`repeat_${WeekdayCode}`, boolean>

/** The repeat part of a new event's form: it does not repeat. */
export const emptyRepeatDraft: RepeatDraft = {
  repeat: 'Does not repeat',
  repeat_until: '',
  rrule: '',
  ...(Object.fromEntries(weekdayCodes.map((d) => [`repeat_${d}`, false])) as Record<`repeat_${WeekdayCode}`, boolean>),
}

/** The repeat part of a saved event's form. */
export function repeatDraftOf(event: Pick<EventRow, 'rrule'>, timeZone: string): RepeatDraft {
  const pattern = patternOfRule(event.rrule, timeZone)
  if (!pattern) return { ...emptyRepeatDraft, repeat: choiceOf('custom'), rrule: event.rrule ?? '' }
  const draft: RepeatDraft = { ...emptyRepeatDraft, repeat: choiceOf(pattern.kind), repeat_until: pattern.until }
  for (const day of pattern.days) draft[`repeat_${day}`] = true
  return draft
}

/** The rule the form says, for an event starting at `startsAt` (an instant, in the town's `timeZone`), or null for none. */
export function ruleOfDraft(draft: RepeatDraft, startsAt: string | null, timeZone: string): string | null {
  const kind = choices[draft.repeat as Choice] ?? 'none'
  if (kind === 'custom') return draft.rrule.trim() || null
  if (kind === 'none' || !startsAt) return null
  const days = weekdayCodes.filter((d) => draft[`repeat_${d}`])
  return ruleOfPattern({ kind, days, until: draft.repeat_until }, startsAt, timeZone)
}

/** The repeat controls, the rule in words, the next dates, and the saved series' cancelled dates. */
export function EventRepeat<D extends RepeatDraft & { starts_at: string; title: string }>({
  draft,
  setDraft,
  errors,
  row,
  send,
}: {
  draft: D
  setDraft: Dispatch<SetStateAction<D>>
  errors: Record<string, string>
  row: EventRow | undefined
  send: SendChange<EventRow> | undefined
}) {
  // The dates from when the form opened: "next" stays the same dates while an editor works.
  const [openedAt] = useState(() => Date.now())
  const { town } = useTown()
  const timeZone = town.time_zone
  const set = (key: keyof RepeatDraft, value: string | boolean) => setDraft((d) => ({ ...d, [key]: value }))
  const kind = choices[draft.repeat as Choice] ?? 'none'
  const startsAt = fromTownInput(draft.starts_at, timeZone)
  const rule = ruleOfDraft(draft, startsAt, timeZone)
  const problem = rule ? ruleProblem(rule) : null
  // The saved series, when the form still says what was saved: its dates may be cancelled one by one.
  const saved = row?.rrule && rule === row.rrule && startsAt && Date.parse(startsAt) === Date.parse(row.starts_at)
  const exdates = row?.exdates ?? []
  const upcoming =
    rule && startsAt && !problem
      ? nextStarts(
          { starts_at: startsAt, ends_at: null, rrule: rule, exdates: saved ? exdates : [] },
          new Date(openedAt),
          5,
          timeZone,
        )
      : []
  const cancelledAhead = saved ? exdates.filter((d) => Date.parse(d) >= openedAt).sort() : []
  const setExdates = (next: string[], message: string) => void send?.({ exdates: next }, () => message)
  return (
    <div
      className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 md:col-span-2"
      data-testid="event-repeat"
    >
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Select
          id="event-repeat"
          label="Repeats"
          options={Object.keys(choices)}
          value={draft.repeat}
          onChange={(event) => set('repeat', event.target.value)}
        />
        {kind !== 'none' && kind !== 'custom' ? (
          <Field
            id="event-repeat-until"
            type="date"
            label={`Until (optional, ${town.name} date)`}
            value={draft.repeat_until}
            onChange={(event) => set('repeat_until', event.target.value)}
          />
        ) : null}
        {kind === 'custom' ? (
          <Field
            id="event-rrule"
            label="Rule (RFC 5545 RRULE)"
            hint="For example FREQ=MONTHLY;BYDAY=2TU, or FREQ=DAILY;COUNT=5"
            value={draft.rrule}
            error={errors.rrule ?? problem}
            onChange={(event) => set('rrule', event.target.value)}
          />
        ) : null}
      </div>
      {kind === 'weekly' ? (
        <fieldset className="flex flex-wrap gap-4">
          <legend className="mb-1 text-sm font-medium text-slate-800">On</legend>
          {weekdayCodes.map((day) => (
            <Checkbox
              key={day}
              id={`event-repeat-${day}`}
              label={dayLabels[day]}
              checked={draft[`repeat_${day}`]}
              onChange={(event) => set(`repeat_${day}`, event.target.checked)}
            />
          ))}
        </fieldset>
      ) : null}
      {kind !== 'custom' && errors.rrule ? <p className="text-xs text-red-700">{errors.rrule}</p> : null}
      {rule && startsAt && !problem ? (
        <div className="text-sm">
          <p className="font-medium" data-testid="repeat-summary">
            {describeRule(rule, startsAt, timeZone)}
          </p>
          <p className="mt-2 text-slate-600">Next dates{saved ? '' : ' (once saved)'}:</p>
          <ol className="mt-1 flex flex-col gap-1" aria-label="Next dates">
            {upcoming.map((date) => (
              <li key={date} className="flex items-center gap-3">
                <span>{formatTownTime(date, timeZone)}</span>
                {saved && send ? (
                  <Button
                    variant="secondary"
                    className="px-2 py-0.5 text-xs"
                    aria-label={`Cancel ${formatTownTime(date, timeZone)}`}
                    onClick={() =>
                      setExdates([...exdates, date], `Cancelled ${draft.title} on ${formatTownTime(date, timeZone)}`)
                    }
                  >
                    Cancel this date
                  </Button>
                ) : null}
              </li>
            ))}
          </ol>
          {cancelledAhead.length > 0 ? (
            <>
              <p className="mt-2 text-slate-600">Cancelled dates:</p>
              <ul className="mt-1 flex flex-col gap-1" aria-label="Cancelled dates">
                {cancelledAhead.map((date) => (
                  <li key={date} className="flex items-center gap-3">
                    <span className="line-through">{formatTownTime(date, timeZone)}</span>
                    <Button
                      variant="secondary"
                      className="px-2 py-0.5 text-xs"
                      aria-label={`Restore ${formatTownTime(date, timeZone)}`}
                      onClick={() =>
                        setExdates(
                          exdates.filter((d) => Date.parse(d) !== Date.parse(date)),
                          `Restored ${draft.title} on ${formatTownTime(date, timeZone)}`,
                        )
                      }
                    >
                      Restore
                    </Button>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}
