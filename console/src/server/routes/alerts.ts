import {
  createAlert,
  editAlert,
  endAlert,
  listAlerts,
  publishAlert,
  type AlertOutcome,
} from '@roland/scripts/content/alerts'
import type { EditOutcome } from '@roland/scripts/content/edit'
import {
  alertCreateSchema,
  alertEndSchema,
  alertPatchSchema,
  alertPublishSchema,
  type AlertRow,
} from '@roland/scripts/content/schema-base'
import { z } from 'zod'
import type { Route, RouteContext } from '../context.ts'
import { HttpError, readJson, sendJson } from '../http.ts'
import { outcomeRow } from './content.ts'

// Town alerts (issue 48), for editors and admins: list, create (a draft, or published at once),
// change (409 when stale), publish, and end with an "All clear". Each change is one call of the
// edit functions, so it is audited and undone like every edit. A change the town sees (publishing,
// changing a published alert, ending) queues a rebuild at once, ahead of other work: the banner on
// every page must follow. A draft's changes wait for the next rebuild like any other edit.

// Room for a body just over its 10 KB, so the answer is a 400 naming the text, not a 413.
const bodyLimit = 64 * 1024

function alertId(raw: string | undefined): string {
  if (!z.uuid().safeParse(raw).success)
    throw new HttpError(400, 'That is not the id of an alert: take it from GET /api/alerts.')
  return raw!
}

/** Answers with the saved alert, or 404/409/400; queues the rebuild the change calls for. */
async function answer(context: RouteContext, outcome: AlertOutcome, status = 200): Promise<AlertRow> {
  const row = outcomeRow(context, 'alerts', outcome as EditOutcome) as unknown as AlertRow
  if (row.status === 'draft') context.services.scheduler.noteEdit()
  else context.services.scheduler.requestUrgent()
  // Publishing and ending queued their emails in the same transaction: send them now.
  if (row.status !== 'draft') context.services.notify.kick()
  // Its end time may now be the soonest; a failed read only delays the timer to its next look.
  await context.services.alertTimer.plan().catch(() => {})
  sendJson(context.res, status, { alert: row })
  return row
}

export const alertRoutes: Route[] = [
  {
    // Every alert with its messages, newest first: drafts, published and ended.
    method: 'GET',
    path: /^\/api\/alerts$/,
    async handler({ res, services }) {
      sendJson(res, 200, { alerts: await listAlerts(services.store) })
    },
  },
  {
    // The fields (title and level required) and "publish": true to publish at once.
    method: 'POST',
    path: /^\/api\/alerts$/,
    async handler(context) {
      const fields = await readJson(context.req, alertCreateSchema, bodyLimit)
      await answer(context, await createAlert(context.services.store, fields, context.actor), 201)
    },
  },
  {
    // Any of the fields, with the updated_at loaded (409 when someone changed it since).
    method: 'PATCH',
    path: /^\/api\/alerts\/(?<id>[^/]+)$/,
    async handler(context) {
      const id = alertId(context.params.id)
      const { updated_at, ...fields } = await readJson(context.req, alertPatchSchema, bodyLimit)
      await answer(context, await editAlert(context.services.store, id, fields, updated_at ?? null, context.actor))
    },
  },
  {
    method: 'POST',
    path: /^\/api\/alerts\/(?<id>[^/]+)\/publish$/,
    async handler(context) {
      const id = alertId(context.params.id)
      const { updated_at } = await readJson(context.req, alertPublishSchema)
      await answer(context, await publishAlert(context.services.store, id, updated_at ?? null, context.actor))
    },
  },
  {
    // The "All clear": an optional {"message"} shown on the alert's page and in its CAP message.
    method: 'POST',
    path: /^\/api\/alerts\/(?<id>[^/]+)\/end$/,
    async handler(context) {
      const id = alertId(context.params.id)
      const { message, updated_at } = await readJson(context.req, alertEndSchema)
      await answer(
        context,
        await endAlert(context.services.store, id, message ?? null, updated_at ?? null, context.actor),
      )
    },
  },
]
