import { hostname } from 'node:os'
import { isProcessAlive } from '../lock-file.ts'
import type { Job, Store } from '../store/types.ts'

/** What an interrupted job says, in the job history and on the console's Jobs screen. */
export const interruptedMessage = 'Interrupted: the process stopped before the job finished. Run it again.'

/**
 * The process a job runs in, when this machine can tell whether it still runs: the console's own
 * jobs name it in started_by ('console:<pid>'), others in their pid and host columns. A job of
 * another machine (a shared Supabase project) is none of this one's business.
 */
function localPid(job: Job, store: Store): number | null {
  const consolePid = Number(job.started_by.match(/^console:(\d+)$/)?.[1])
  if (consolePid) return consolePid
  if (!job.pid) return null
  const local = job.host === null ? store.kind === 'embedded' : job.host === hostname()
  return local ? job.pid : null
}

/**
 * Marks 'interrupted' every queued or running job whose process is gone (killed, crashed): a job
 * cannot record its own end when its process dies, and would otherwise say 'running' for ever.
 * Run when a CLI command or the console opens the store. Returns the jobs it marked.
 */
export async function markInterruptedJobs(
  store: Store,
  isAlive: (pid: number) => boolean = isProcessAlive,
): Promise<Job[]> {
  const marked: Job[] = []
  for (const job of await store.jobs.unfinished()) {
    const pid = localPid(job, store)
    if (!pid || pid === process.pid || isAlive(pid)) continue
    marked.push(
      await store.jobs.update(job.id, {
        status: 'interrupted',
        error: interruptedMessage,
        finished_at: new Date().toISOString(),
        appendLog: [`The process that ran this job (${pid}) stopped before it finished.`],
      }),
    )
  }
  return marked
}
