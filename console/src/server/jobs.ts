import { markInterruptedJobs } from '@roland/scripts/jobs/interrupted'
import type { JobListener } from '@roland/scripts/jobs/run-job'
import type { LeasedStore } from '@roland/scripts/store/leased'
import type { Job } from '@roland/scripts/store/types'
import type { EventHub } from './events.ts'
import type { ChangeSignal } from './foreign-changes.ts'
import type { RebuildScheduler } from './rebuild-scheduler.ts'

// The console runs the same job functions as the CLI, recorded in the jobs table, and pushes
// what they report to every open event stream. Jobs started elsewhere (the CLI) are found by
// re-reading the history every few seconds while someone is watching.

/** Who the console's jobs are started by: 'console:<pid>', so a restart can tell its own orphans. */
export function consoleStarter(pid = process.pid): string {
  return `console:${pid}`
}

/**
 * Tells from a finished job's recorded result whether it changed what the public site shows, for
 * jobs the console did not run itself (the CLI's): a migration that added, updated or deactivated
 * businesses, a crawl that stored a new image, an image job that generated one or optimized photos.
 */
export function recordedJobChangedData(job: Pick<Job, 'kind' | 'status' | 'result'>): boolean {
  if (job.status !== 'succeeded') return false
  const result = (job.result ?? {}) as {
    summary?: { added?: number; updated?: number; deactivated?: number; generated?: number; optimized?: number }
    stored?: number | Array<{ created?: boolean }>
    websiteLinksChanged?: number
  }
  switch (job.kind) {
    case 'migrate': {
      const { added = 0, updated = 0, deactivated = 0 } = result.summary ?? {}
      return added + updated + deactivated > 0
    }
    case 'crawl':
      return Array.isArray(result.stored)
        ? result.stored.some((image) => image.created === true)
        : (result.stored ?? 0) > 0
    case 'images':
      // A store image generated, or photos given their derivatives (the optimize backfill).
      return (result.summary?.generated ?? 0) + (result.summary?.optimized ?? 0) > 0
    case 'check':
      // A website link hidden or shown again on the site.
      return (result.websiteLinksChanged ?? 0) > 0
    default:
      return false
  }
}

/** How one launched job behaves. */
export interface LaunchOptions<T> {
  /** The job may change data: a due rebuild waits for it. */
  mayChangeData: boolean
  /** Whether its result changed data (so the site must be rebuilt). */
  changedData?: (result: T) => boolean
}

/** Runs jobs for the console and keeps every listener informed. */
export class ConsoleJobs {
  readonly #store: LeasedStore
  readonly #hub: EventHub
  readonly #scheduler: RebuildScheduler
  readonly #pollMs: number
  readonly #changes: ChangeSignal
  readonly #seen = new Map<string, string>()
  readonly #running = new Set<Promise<unknown>>()
  #poller: NodeJS.Timeout | undefined
  #polling = false

  constructor(options: {
    store: LeasedStore
    hub: EventHub
    scheduler: RebuildScheduler
    pollMs: number
    changes: ChangeSignal
  }) {
    this.#store = options.store
    this.#hub = options.hub
    this.#scheduler = options.scheduler
    this.#pollMs = options.pollMs
    this.#changes = options.changes
  }

  /**
   * Starts a job in the background: `recorded` resolves with its row once the job is in the
   * history, `done` with its result. `run` calls a job function (runJob, runMigration,
   * runRebuild…) with the listener it is given.
   */
  start<T>(
    run: (onEvent: JobListener) => Promise<T>,
    options: LaunchOptions<T>,
  ): { recorded: Promise<Job>; done: Promise<T> } {
    let id: string | null = null
    let created!: (job: Job) => void
    let notCreated!: (error: unknown) => void
    const recorded = new Promise<Job>((resolve, reject) => {
      created = resolve
      notCreated = reject
    })
    const onEvent: JobListener = (event) => {
      if ('job' in event) {
        id = event.job.id
        this.publish(event.job)
        created(event.job)
      } else if (id && 'progress' in event) {
        this.#hub.send('progress', { id, progress: event.progress })
      } else if (id && 'log' in event) {
        this.#hub.send('log', { id, at: new Date().toISOString(), message: event.log })
      }
    }
    if (options.mayChangeData) this.#scheduler.hold()
    const done = run(onEvent)
    const settled = done.then(
      (result) => {
        if (options.mayChangeData) {
          this.#scheduler.release({ changedData: options.changedData?.(result) ?? true, jobId: id ?? undefined })
        }
      },
      (error: unknown) => {
        if (options.mayChangeData) this.#scheduler.release({ changedData: false })
        // Failed before it was recorded (the database could not be opened, say): the caller hears of it.
        if (!id) notCreated(error)
      },
    )
    this.#running.add(settled)
    void settled.finally(() => this.#running.delete(settled))
    // Whoever awaits only `recorded` must not see `done`'s failure as unhandled: the history has it.
    done.catch(() => {})
    return { recorded, done }
  }

  /** Starts a job and resolves with its row once it is recorded (the API answers with it). */
  launch<T>(run: (onEvent: JobListener) => Promise<T>, options: LaunchOptions<T>): Promise<Job> {
    return this.start(run, options).recorded
  }

  /** Sends a job's row to every listener, unless they already have this version of it. */
  publish(job: Job): void {
    if (this.#seen.get(job.id) === job.updated_at) return
    this.#seen.set(job.id, job.updated_at)
    this.#hub.send('job', job)
  }

  /** Lists recent jobs, newest first. */
  list(limit = 100): Promise<Job[]> {
    return this.#store.jobs.list(limit)
  }

  /**
   * Marks the jobs of processes that died (a console or CLI killed mid-job) interrupted, and
   * remembers the history as it is, so polling reports only what changes from now on.
   */
  async recover(isAlive: (pid: number) => boolean): Promise<void> {
    await this.#store.use((store) => markInterruptedJobs(store, isAlive))
    for (const job of await this.#store.jobs.list(500)) this.#seen.set(job.id, job.updated_at)
  }

  /** Starts or stops re-reading the history, as listeners come and go. */
  watch(listeners: number): void {
    if (listeners > 0 && !this.#poller) {
      this.#poller = setInterval(() => void this.poll(), this.#pollMs)
      this.#poller.unref()
    } else if (listeners === 0 && this.#poller) {
      clearInterval(this.#poller)
      this.#poller = undefined
    }
  }

  /** Re-reads the history when another process may have changed it, and publishes what changed. */
  async poll(): Promise<void> {
    if (this.#polling) return
    this.#polling = true
    try {
      if (!(await this.#changes.due())) return
      const jobs = await this.#store.jobs.list(50)
      for (const job of jobs.reverse()) {
        const news = this.#seen.get(job.id) !== job.updated_at
        this.publish(job)
        // A CLI job that changed data gets the same one rebuild a console job would.
        if (news && job.started_by !== consoleStarter() && recordedJobChangedData(job)) {
          this.#scheduler.hold()
          this.#scheduler.release({ changedData: true, jobId: job.id })
        }
      }
    } catch {
      // The database is busy (a CLI job holds it) or briefly unreachable: the next poll tries again.
    } finally {
      this.#polling = false
    }
  }

  /** Waits for every job the console started (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running])
  }

  /** Stops polling. */
  close(): void {
    this.watch(0)
    this.#changes.close()
  }
}
