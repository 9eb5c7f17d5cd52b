import { createContext, useContext, useEffect, useMemo, useReducer, useState, type ReactNode } from 'react'
import type { Job, RebuildStateView } from '../shared/api.ts'
import { api } from './api.ts'

// The job history, kept live: loaded once, then changed by the server's events (job rows,
// progress, log lines, the rebuild state). EventSource reconnects by itself when the stream drops.

interface LiveState {
  jobs: Map<string, Job>
  rebuild: RebuildStateView | null
  connected: boolean
  /** How many visitors' suggestions wait in the Inbox (null until known). */
  pendingSubmissions: number | null
}

type Action =
  | { type: 'jobs'; jobs: Job[] }
  | { type: 'job'; job: Job }
  | { type: 'progress'; id: string; progress: Job['progress'] }
  | { type: 'log'; id: string; at: string; message: string }
  | { type: 'rebuild'; state: RebuildStateView }
  | { type: 'connected'; connected: boolean }
  | { type: 'submissions'; pending: number }

function newer(a: Job | undefined, b: Job): boolean {
  return !a || b.updated_at >= a.updated_at
}

function reduce(state: LiveState, action: Action): LiveState {
  switch (action.type) {
    case 'jobs': {
      const jobs = new Map(state.jobs)
      for (const job of action.jobs) if (newer(jobs.get(job.id), job)) jobs.set(job.id, job)
      return { ...state, jobs }
    }
    case 'job': {
      if (!newer(state.jobs.get(action.job.id), action.job)) return state
      return { ...state, jobs: new Map(state.jobs).set(action.job.id, action.job) }
    }
    case 'progress': {
      const job = state.jobs.get(action.id)
      if (!job || !isActive(job)) return state
      return { ...state, jobs: new Map(state.jobs).set(job.id, { ...job, progress: action.progress }) }
    }
    case 'log': {
      const job = state.jobs.get(action.id)
      if (!job) return state
      return {
        ...state,
        jobs: new Map(state.jobs).set(job.id, {
          ...job,
          log: [...job.log, { at: action.at, message: action.message }],
        }),
      }
    }
    case 'rebuild':
      return { ...state, rebuild: action.state }
    case 'connected':
      return { ...state, connected: action.connected }
    case 'submissions':
      return { ...state, pendingSubmissions: action.pending }
  }
}

interface LiveValue {
  /** Every known job, newest first. */
  jobs: Job[]
  byId: Map<string, Job>
  rebuild: RebuildStateView | null
  connected: boolean
  /** How many visitors' suggestions wait in the Inbox (null until known). */
  pendingSubmissions: number | null
  /** Adds a job the API just answered with, before its events arrive. */
  add(job: Job): void
}

const LiveContext = createContext<LiveValue | null>(null)

/** Keeps the job history live for every screen. */
export function LiveProvider({ children, onSessionLost }: { children: ReactNode; onSessionLost: () => void }) {
  const [state, dispatch] = useReducer(reduce, {
    jobs: new Map(),
    rebuild: null,
    connected: false,
    pendingSubmissions: null,
  })

  useEffect(() => {
    let stopped = false
    const source = new EventSource('/api/events')
    // An EventSource types its named events' data as any; a server-sent event's data is always text.
    const parse = (event: MessageEvent<unknown>) => JSON.parse(event.data as string) as never
    source.addEventListener('open', () => {
      dispatch({ type: 'connected', connected: true })
      // Catch up with whatever happened while the stream was down.
      api<{ jobs: Job[] }>('/api/jobs?limit=200')
        .then(({ jobs }) => !stopped && dispatch({ type: 'jobs', jobs }))
        .catch(() => {})
      api<{ pending: number }>('/api/submissions?status=pending')
        .then(({ pending }) => !stopped && dispatch({ type: 'submissions', pending }))
        .catch(() => {})
    })
    source.addEventListener('job', (event) => dispatch({ type: 'job', job: parse(event) }))
    source.addEventListener('progress', (event) => {
      const data: { id: string; progress: Job['progress'] } = parse(event)
      dispatch({ type: 'progress', ...data })
    })
    source.addEventListener('log', (event) => {
      const data: { id: string; at: string; message: string } = parse(event)
      dispatch({ type: 'log', ...data })
    })
    source.addEventListener('rebuild', (event) => dispatch({ type: 'rebuild', state: parse(event) }))
    source.addEventListener('submissions', (event) => {
      const data: { pending: number } = parse(event)
      dispatch({ type: 'submissions', pending: data.pending })
    })
    source.addEventListener('error', () => {
      dispatch({ type: 'connected', connected: false })
      // A closed stream (not a retrying one) usually means the session ended.
      if (source.readyState === EventSource.CLOSED) {
        api('/api/session').catch(() => !stopped && onSessionLost())
      }
    })
    return () => {
      stopped = true
      source.close()
    }
  }, [onSessionLost])

  const value = useMemo<LiveValue>(() => {
    const jobs = [...state.jobs.values()].sort((a, b) => (a.created_at < b.created_at ? 1 : -1))
    return {
      jobs,
      byId: state.jobs,
      rebuild: state.rebuild,
      connected: state.connected,
      pendingSubmissions: state.pendingSubmissions,
      add: (job) => dispatch({ type: 'job', job }),
    }
  }, [state])

  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>
}

/** The live job history. */
export function useLive(): LiveValue {
  const value = useContext(LiveContext)
  if (!value) throw new Error('useLive must be used inside LiveProvider')
  return value
}

/** Says whether a job is still going. */
export function isActive(job: Job | undefined): boolean {
  return job?.status === 'queued' || job?.status === 'running'
}

/** A job's progress as a percentage (100 once it has finished). */
export function percentOf(job: Job | undefined): number {
  if (!job) return 0
  if (!isActive(job)) return 100
  const { done, total } = job.progress
  return total > 0 ? Math.min(99, Math.round((done / total) * 100)) : 0
}

/** How long a job took (or has been running), as "12.3 s" or "2 min 5 s". */
export function durationOf(job: Job, now = Date.now()): string | null {
  if (!job.started_at) return null
  const end = job.finished_at ? Date.parse(job.finished_at) : now
  const ms = Math.max(0, end - Date.parse(job.started_at))
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`
}

/** Re-renders every second while something runs, so durations count up. */
export function useTicker(active: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [active])
  return now
}
