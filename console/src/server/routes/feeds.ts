import { newFeedSchema } from '@roland/scripts/content/schema'
import { addFeed, listFeeds, removeFeed } from '@roland/scripts/feeds/sync'
import { StoreError } from '@roland/scripts/store/types'
import { z } from 'zod'
import type { FeedsView } from '../../shared/api.ts'
import type { ConsoleServices, Route } from '../context.ts'
import { HttpError, readJson, sendJson } from '../http.ts'

// Calendar feeds (issue 40): the "Calendar feeds" screen's API, for operators. Adding a feed
// validates with the shared schema (scripts/src/content/schema.ts); a sync runs the same job as
// `roland feeds sync`, and a removal takes the feed's events off the site at the next rebuild.

function feedId(raw: string | undefined): string {
  const parsed = z.uuid().safeParse(raw)
  if (!parsed.success) throw new HttpError(400, 'A feed id is a UUID: take it from GET /api/feeds')
  return parsed.data
}

/** The feeds, when the next scheduled sync is due, and whether one runs. */
async function feedsView(services: ConsoleServices): Promise<FeedsView> {
  const nextAt = services.feeds.nextAt
  return {
    feeds: await listFeeds(services.store),
    nextSyncAt: nextAt === null ? null : new Date(nextAt).toISOString(),
    running: services.feeds.running,
  }
}

/** GET/POST /api/feeds, POST /api/feeds/{id}/sync, DELETE /api/feeds/{id}. */
export const feedRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/api\/feeds$/,
    async handler({ res, services }) {
      sendJson(res, 200, await feedsView(services))
    },
  },
  {
    // Follows a calendar: {name, url}; 201 with the feed, 409 when the name is taken.
    method: 'POST',
    path: /^\/api\/feeds$/,
    async handler({ req, res, services, actor }) {
      const input = await readJson(req, newFeedSchema)
      try {
        sendJson(res, 201, { feed: await addFeed(services.store, input, actor) })
      } catch (error) {
        if (error instanceof StoreError) {
          throw new HttpError(/exists already/.test(error.message) ? 409 : 400, error.message)
        }
        throw error
      }
    },
  },
  {
    // "Sync now": reads the feed and answers its line, {name, url, ok, events, error}.
    method: 'POST',
    path: /^\/api\/feeds\/(?<id>[^/]+)\/sync$/,
    async handler({ res, params, services, actor }) {
      const id = feedId(params.id)
      const result = await services.feeds.sync([id], actor)
      const line = result.feeds[0]
      if (!line) throw new HttpError(404, `No feed with id ${id}: it may have been removed; reload the list.`)
      sendJson(res, 200, { feed: line, changed: result.changed })
    },
  },
  {
    // Stops following a feed; its events leave the site at the next rebuild.
    method: 'DELETE',
    path: /^\/api\/feeds\/(?<id>[^/]+)$/,
    async handler({ res, params, services, actor }) {
      const id = feedId(params.id)
      const removed = await removeFeed(services.store, { id }, actor)
      if (!removed) throw new HttpError(404, `No feed with id ${id}: it may have been removed; reload the list.`)
      if (removed.events > 0) {
        services.scheduler.hold()
        services.scheduler.release({ changedData: true })
      }
      sendJson(res, 200, { removed: removed.feed.name, events: removed.events })
    },
  },
]
