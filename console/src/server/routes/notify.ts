import { mailOffReason } from '@roland/scripts/notify/config'
import { deleteSubscriber, findSubscriber, outboxDelivery, subscriberCounts } from '@roland/scripts/notify/outbox'
import { z } from 'zod'
import type { NotifyView } from '../../shared/api.ts'
import type { ConsoleServices, Route } from '../context.ts'
import { HttpError, sendJson } from '../http.ts'

// "Notify me" for operators (issue 48): subscribers per topic (counts only), each alert's
// delivery, whether email is on, "Send now"; an admin finds and deletes one address on request.

/** Everything the Alerts and Today screens show of email. */
export async function notifyView(services: ConsoleServices): Promise<NotifyView> {
  const [counts, delivery] = await Promise.all([subscriberCounts(services.store), outboxDelivery(services.store)])
  return {
    ...services.notify.state,
    offReason: services.config.mail ? null : mailOffReason,
    counts,
    delivery,
  }
}

/** GET /api/notify, POST /api/notify/send, GET /api/notify/subscribers?email=, DELETE /api/notify/subscribers/{id}. */
export const notifyRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/api\/notify$/,
    async handler({ res, services }) {
      sendJson(res, 200, await notifyView(services))
    },
  },
  {
    // "Send now": what is due goes out; the answer does not wait for it.
    method: 'POST',
    path: /^\/api\/notify\/send$/,
    handler({ res, services }) {
      if (!services.config.mail) throw new HttpError(503, mailOffReason)
      services.notify.kick()
      sendJson(res, 202, { queued: true })
    },
  },
  {
    // An admin's answer to "delete my address": find it by the exact address.
    method: 'GET',
    path: /^\/api\/notify\/subscribers$/,
    adminOnly: true,
    async handler({ res, url, services }) {
      const email = url.searchParams.get('email')?.trim() ?? ''
      if (!email)
        throw new HttpError(400, 'Give the address to find: /api/notify/subscribers?email=someone@example.org')
      sendJson(res, 200, { subscriber: await findSubscriber(services.store, email) })
    },
  },
  {
    method: 'DELETE',
    path: /^\/api\/notify\/subscribers\/(?<id>[^/]+)$/,
    adminOnly: true,
    async handler({ res, params, services }) {
      const id = z.uuid().safeParse(params.id)
      if (!id.success)
        throw new HttpError(400, 'A subscriber id is a UUID: find it with GET /api/notify/subscribers?email=')
      if (!(await deleteSubscriber(services.store, id.data))) {
        throw new HttpError(404, 'No such subscriber: the address may have been deleted already.')
      }
      sendJson(res, 200, { deleted: true })
    },
  },
]
