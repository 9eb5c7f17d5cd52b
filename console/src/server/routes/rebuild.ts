import { rebuildMode } from '@roland/scripts/rebuild/rebuild'
import type { RebuildStateView } from '../../shared/api.ts'
import type { ConsoleServices, Route } from '../context.ts'
import { sendJson } from '../http.ts'

/** Says how rebuilds run and whether one is due or running (never the hook's address: it is a secret). */
export function rebuildState(services: Pick<ConsoleServices, 'scheduler' | 'config'>): RebuildStateView {
  let mode: RebuildStateView['mode']
  try {
    mode = rebuildMode(services.config.env)
  } catch {
    // A malformed REBUILD_HOOK_URL: the rebuild job fails with the explanation.
    mode = 'hook'
  }
  return { mode, ...services.scheduler.state }
}

/** The site rebuild: its state and the manual 'Rebuild site' button. */
export const rebuildRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/api\/rebuild$/,
    async handler({ res, services }) {
      const last = (await services.jobs.list(100)).find((job) => job.kind === 'rebuild') ?? null
      sendJson(res, 200, { state: rebuildState(services), last })
    },
  },
  {
    // Rebuild now; when one is running, one more follows it.
    method: 'POST',
    path: /^\/api\/rebuild$/,
    handler({ res, services }) {
      const outcome = services.scheduler.requestNow()
      sendJson(res, 202, { outcome, state: rebuildState(services) })
    },
  },
]
