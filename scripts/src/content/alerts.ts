import { z } from 'zod'
import { callParsed } from '../store/parsed-call.ts'
import type { Store } from '../store/types.ts'
import { createRow, editRow, type Actor, type ContentRow, type EditOutcome } from './edit.ts'
import { alertKinds, alertLevels, alertStatuses, isAlertActive } from './alert-words.ts'
import type { AlertCreate, AlertPatch, AlertRow } from './schema-base.ts'

// Town alerts (issue 48): thin calls of the edit functions (so every change is audited, undone
// from the console and refused when stale) and of public.alert_rows, which adds each alert's
// message history. The console's routes and `roland alerts` use these. What counts as showing
// (published, and not past its end) is here too, for the console's timer and the CLI.

/** What an alert change came to, with the alert and its messages when it was saved. */
export type AlertOutcome =
  | { status: 'ok'; row: AlertRow }
  | { status: 'not_found' }
  | { status: 'conflict'; row: ContentRow }
  | { status: 'invalid'; message: string; constraint: string | null }

const stamp = z.string().nullable()

/** An alert as public.alert_rows answers it (schema-base.ts's AlertRow), kept as it comes. */
const alertRowSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  level: z.enum(alertLevels),
  kind: z.enum(alertKinds),
  area: stamp,
  starts_at: z.string(),
  ends_at: stamp,
  status: z.enum(alertStatuses),
  published_at: stamp,
  ended_at: stamp,
  all_clear: stamp,
  created_at: z.string(),
  updated_at: z.string(),
  messages: z.array(
    z.looseObject({
      id: z.string(),
      sequence: z.number().int(),
      msg_type: z.enum(['Alert', 'Update']),
      all_clear: z.boolean(),
      note: stamp,
      sent_at: z.string(),
    }),
  ),
})

/** Reads the alerts public.alert_rows answers: every one, or the one named. */
async function alertRows(store: Store, onlyId: string | null): Promise<AlertRow[]> {
  return (await callParsed(store, 'alert_rows', { only_id: onlyId }, alertRowSchema.array().nullable())) ?? []
}

/** Every alert with its messages, newest first (drafts too). */
export async function listAlerts(store: Store): Promise<AlertRow[]> {
  return alertRows(store, null)
}

/** One alert with its messages, or null. */
export async function readAlert(store: Store, id: string): Promise<AlertRow | null> {
  const [row] = await alertRows(store, id)
  return row ?? null
}

export { isAlertActive } from './alert-words.ts'

/** The soonest end time still ahead among the showing alerts, as epoch ms, or null. */
export function nextAlertEnd(alerts: Pick<AlertRow, 'status' | 'ends_at'>[], now = Date.now()): number | null {
  let soonest: number | null = null
  for (const alert of alerts) {
    if (!isAlertActive(alert, now) || alert.ends_at === null) continue
    const end = Date.parse(alert.ends_at)
    if (soonest === null || end < soonest) soonest = end
  }
  return soonest
}

async function withMessages(store: Store, outcome: EditOutcome): Promise<AlertOutcome> {
  if (outcome.status !== 'ok') return outcome
  const row = await readAlert(store, String(outcome.row.id))
  return row ? { status: 'ok', row } : { status: 'not_found' }
}

/** Adds an alert: a draft, or published at once with `publish`. */
export async function createAlert(store: Store, fields: AlertCreate, actor: Actor): Promise<AlertOutcome> {
  const { publish, ...columns } = fields
  const outcome = await createRow(
    store,
    'alerts',
    { ...columns, status: publish === true ? 'published' : 'draft' },
    actor,
  )
  return withMessages(store, outcome)
}

/** Changes an alert's fields if it is still the version loaded; a published one tells the town (an Update). */
export async function editAlert(
  store: Store,
  id: string,
  fields: Omit<AlertPatch, 'updated_at'>,
  expectedUpdatedAt: string | null,
  actor: Actor,
): Promise<AlertOutcome> {
  return withMessages(store, await editRow(store, 'alerts', id, fields, expectedUpdatedAt, actor))
}

/**
 * Moves an alert to a new status, if it is still the version loaded (or, with none given, the
 * version read here: the read and the write are then checked against each other, so a change
 * in between is a conflict, never lost). `from` lists the states it may move from.
 */
async function moveAlert(
  store: Store,
  id: string,
  to: 'published' | 'ended',
  from: string[],
  extra: Record<string, unknown>,
  expectedUpdatedAt: string | null,
  actor: Actor,
): Promise<AlertOutcome> {
  const current = await readAlert(store, id)
  if (!current) return { status: 'not_found' }
  if (expectedUpdatedAt !== null && Date.parse(expectedUpdatedAt) !== Date.parse(current.updated_at)) {
    return { status: 'conflict', row: current as unknown as ContentRow }
  }
  if (current.status === to) return { status: 'ok', row: current }
  if (!from.includes(current.status)) {
    return {
      status: 'invalid',
      message:
        to === 'published'
          ? 'This alert has ended: to tell the town again, make a new alert'
          : 'This alert is a draft, not on the site: publish it first, or leave it',
      constraint: null,
    }
  }
  const outcome = await editRow(store, 'alerts', id, { status: to, ...extra }, current.updated_at, actor)
  return withMessages(store, outcome)
}

/** Publishes a draft alert: it shows on the site from the next build (a published one stays as it is). */
export function publishAlert(
  store: Store,
  id: string,
  expectedUpdatedAt: string | null,
  actor: Actor,
): Promise<AlertOutcome> {
  return moveAlert(store, id, 'published', ['draft'], {}, expectedUpdatedAt, actor)
}

/** Ends a published alert with its "All clear" (an optional note): it leaves the banner. */
export function endAlert(
  store: Store,
  id: string,
  message: string | null,
  expectedUpdatedAt: string | null,
  actor: Actor,
): Promise<AlertOutcome> {
  return moveAlert(store, id, 'ended', ['published'], { all_clear: message }, expectedUpdatedAt, actor)
}
