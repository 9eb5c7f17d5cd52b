// One rebuild for jobs that finish close together (DESIGN.md, "Jobs"): a rebuild becomes due
// when a job that changed data succeeds, waits while other data-changing jobs still run and for
// a quiet debounce window, then runs once for all of them. A request arriving while a rebuild
// runs makes one more rebuild after it, so the last change is always published.

/** Why a rebuild runs: the jobs that changed data, or a person asking. */
export interface RebuildTrigger {
  trigger: 'jobs' | 'manual'
  jobs: string[]
}

/** Where the scheduler stands. */
export interface RebuildSchedulerState {
  pending: boolean
  running: boolean
  waitingFor: number
  /** Edits saved in the console since the last rebuild started: not on the site yet. */
  unpublishedEdits: number
}

/** Options: the rebuild to run, the quiet window, and who to tell when the state changes. */
export interface RebuildSchedulerOptions {
  run: (trigger: RebuildTrigger) => Promise<unknown>
  /**
   * Readies the next rebuild once one is likely (data changed, an edit was saved), while the
   * scheduler waits to run it; resolves once ready. A rebuild does not wait for it.
   */
  prepare?: () => Promise<void>
  debounceMs: number
  onChange?: (state: RebuildSchedulerState) => void
}

/** Coalesces rebuild requests into as few rebuilds as keep the site current. */
export class RebuildScheduler {
  readonly #options: RebuildSchedulerOptions
  #pendingJobs: string[] = []
  #pending = false
  #manual = false
  #urgent = false
  #holds = 0
  #running: Promise<void> | null = null
  #timer: NodeJS.Timeout | undefined
  #closed = false
  #edits = 0
  #preparing: Promise<void> | null = null

  constructor(options: RebuildSchedulerOptions) {
    this.#options = options
  }

  /** The current state. */
  get state(): RebuildSchedulerState {
    return {
      pending: this.#pending,
      running: this.#running !== null,
      waitingFor: this.#holds,
      unpublishedEdits: this.#edits,
    }
  }

  /** Notes that a job that may change data has started: a due rebuild waits for it. */
  hold(): void {
    this.#holds++
    this.#changed()
  }

  /** Notes that such a job has ended; when it changed data, a rebuild becomes due. */
  release(options: { changedData: boolean; jobId?: string | undefined }): void {
    this.#holds = Math.max(0, this.#holds - 1)
    if (options.changedData) {
      this.#pending = true
      if (options.jobId) this.#pendingJobs.push(options.jobId)
      this.#prepare()
    }
    this.#schedule(this.#options.debounceMs)
    this.#changed()
  }

  /** Notes an edit saved in the console: the console offers a rebuild rather than starting one per keystroke. */
  noteEdit(): void {
    this.#edits++
    this.#prepare()
    this.#changed()
  }

  /** Asks for a rebuild now (the 'Rebuild site' button); it runs after the current one if one runs. */
  requestNow(): 'started' | 'queued' {
    this.#pending = true
    this.#manual = true
    const running = this.#running !== null
    this.#schedule(0)
    this.#changed()
    return running ? 'queued' : 'started'
  }

  /**
   * Asks for a rebuild at once, ahead of other work (an alert published, updated, ended or past
   * its end time: the banner on every page must follow): it waits neither for the quiet window nor
   * for data-changing jobs still running, and runs next if a rebuild is running now.
   */
  requestUrgent(): 'started' | 'queued' {
    this.#urgent = true
    return this.requestNow()
  }

  /** Waits for the running rebuild, if any, and for the next one's preparation (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#running || this.#preparing) await (this.#running ?? this.#preparing)
  }

  /** Stops scheduling; a running rebuild finishes. */
  close(): void {
    this.#closed = true
    clearTimeout(this.#timer)
  }

  #prepare(): void {
    const { prepare } = this.#options
    if (!prepare || this.#closed || this.#preparing) return
    const preparing = prepare()
      .catch(() => {})
      .finally(() => {
        if (this.#preparing === preparing) this.#preparing = null
      })
    this.#preparing = preparing
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer)
    if (this.#closed || !this.#pending || this.#running) return
    // A manual request does not wait for the window, but still lets running jobs finish first.
    const delay = this.#manual ? 0 : delayMs
    this.#timer = setTimeout(() => this.#start(), delay)
    this.#timer.unref()
  }

  #start(): void {
    // An urgent rebuild does not let running jobs finish first: they get a rebuild of their own after.
    if (this.#closed || !this.#pending || this.#running || (this.#holds > 0 && !this.#urgent)) return
    const trigger: RebuildTrigger = { trigger: this.#manual ? 'manual' : 'jobs', jobs: this.#pendingJobs }
    this.#pending = false
    this.#manual = false
    this.#urgent = false
    this.#pendingJobs = []
    this.#edits = 0
    this.#running = this.#options
      .run(trigger)
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        this.#running = null
        this.#schedule(this.#options.debounceMs)
        this.#changed()
      })
    this.#changed()
  }

  #changed(): void {
    this.#options.onChange?.(this.state)
  }
}
