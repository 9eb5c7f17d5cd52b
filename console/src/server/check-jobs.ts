import { runCheck, type CheckResult } from '@roland/scripts/check/job'
import type { Job } from '@roland/scripts/store/types'
import type { ConsoleServices } from './context.ts'
import { consoleStarter } from './jobs.ts'

// The console's "Check listings": the same job as `roland check`, with the console's
// private-network setting. A check changes the site only when a website link is hidden or shown
// again, and then it gets the usual one rebuild.

/** Starts a check of every active listing, or returns the one already running. */
export async function startCheckJob(services: ConsoleServices): Promise<{ job: Job; done: Promise<unknown> }> {
  const running = (await services.jobs.list(20)).find(
    (job) => job.kind === 'check' && (job.status === 'queued' || job.status === 'running'),
  )
  if (running) return { job: running, done: Promise.resolve() }
  const { recorded, done } = services.jobs.start(
    (onEvent) =>
      runCheck({
        store: services.store,
        allowPrivateNetwork: services.config.allowPrivateNetwork,
        siteUrl: services.config.env.SITE_URL,
        startedBy: consoleStarter(),
        onEvent,
      }),
    { mayChangeData: true, changedData: (result: CheckResult) => result.websiteLinksChanged > 0 },
  )
  return { job: await recorded, done }
}
