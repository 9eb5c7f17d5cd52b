import type { Job, JobKind, JobProgress, Store } from '../store/types.ts'

/** What a job function gets to say how it is doing. */
export interface JobReporter {
  /** Moves the job to a phase, or forward within one. */
  progress(progress: JobProgress): void
  /** Adds a line to the job's log. */
  log(message: string): void
}

/** Listens to a job as it runs (the CLI's progress bar, the console's live updates). */
export type JobListener = (event: { job: Job } | { progress: JobProgress } | { log: string }) => void

/** Options for running a job with its history recorded. */
export interface RunJobOptions {
  store: Store
  kind: JobKind
  params: Record<string, unknown>
  startedBy?: string
  onEvent?: JobListener
}

/** Options of a job whose full result is too big to keep: what of it to record. */
export interface RecordOptions<T> {
  /** What the jobs table keeps of the result (default: all of it). */
  record?: (result: T) => unknown
}

// Progress is written to the jobs table at most this often; phase changes always are.
const progressWriteInterval = 250

/**
 * Runs a job function with its history kept in the jobs table (DESIGN.md, "Jobs"): queued,
 * running with progress and log, then succeeded with its result or failed with its error.
 * The function's error is rethrown after it is recorded.
 */
export async function runJob<T>(
  options: RunJobOptions & RecordOptions<T>,
  fn: (reporter: JobReporter) => Promise<T>,
): Promise<T> {
  const { store, onEvent } = options
  let job = await store.jobs.create(options.kind, options.params, options.startedBy ?? 'cli')
  onEvent?.({ job })
  let pending: Promise<unknown> = store.jobs
    .update(job.id, { status: 'running', started_at: new Date().toISOString() })
    .then((updated) => {
      job = updated
      onEvent?.({ job })
    })
  let lastWrite = 0
  let lastPhase = ''
  let queuedLog: string[] = []
  const write = (update: Parameters<Store['jobs']['update']>[1]) => {
    pending = pending
      .then(() => store.jobs.update(job.id, update))
      .then((updated) => {
        job = updated
      })
  }
  const reporter: JobReporter = {
    progress(progress) {
      onEvent?.({ progress })
      const now = Date.now()
      if (
        progress.phase !== lastPhase ||
        now - lastWrite >= progressWriteInterval ||
        progress.done === progress.total
      ) {
        lastPhase = progress.phase
        lastWrite = now
        const appendLog = queuedLog
        queuedLog = []
        write({ progress, appendLog })
      }
    },
    log(message) {
      onEvent?.({ log: message })
      queuedLog.push(message)
    },
  }
  try {
    const result = await fn(reporter)
    await pending
    job = await store.jobs.update(job.id, {
      status: 'succeeded',
      result: options.record ? options.record(result) : result,
      finished_at: new Date().toISOString(),
      appendLog: queuedLog,
    })
    onEvent?.({ job })
    return result
  } catch (error) {
    await pending.catch(() => {})
    const message = error instanceof Error ? error.message : String(error)
    job = await store.jobs.update(job.id, {
      status: 'failed',
      error: message,
      finished_at: new Date().toISOString(),
      appendLog: [...queuedLog, message],
    })
    onEvent?.({ job })
    throw error
  }
}
