import { statSync } from 'node:fs'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { processSlot } from '@roland/scripts/process-slot'
import type { FileStampsData, FileStampsMessage } from './file-stamps-worker.ts'

// The stamps publishing takes of the staging folder's files (publish-site.ts): a file whose time is
// later than the build's start was written by it. The last site's files are stamped on a thread of
// their own as a big build starts (file-stamps-worker.ts), and a page Astro kept as it was keeps
// that stamp: at 100,000 businesses, 123,000 files took the main thread about a second after the
// pages, where the thread takes what the build's other threads leave idle.

/** A file (a path relative to its folder) with its modification time and size. */
export interface FileStamp {
  file: string
  mtimeMs: number
  size: number
}

/**
 * Where Astro's patched build (generate.js) notes each page it kept in the staging folder as it was,
 * not written: its stamp taken as the build started is then its stamp when it publishes. A page
 * kept on its last entry as it was is among the files built only here, not in its route's URLs
 * (Astro's `assets`): publishing takes both (keptInPlace).
 */
const filesKept = processSlot<Set<string>>('astro.build.files-kept')

/** The pages Astro kept in the staging folder as they were, in this build so far. */
export function keptInPlace(): ReadonlySet<string> {
  return filesKept.get() ?? new Set()
}

/**
 * From this many files of the last site on, they are stamped on a thread as the build starts;
 * below, a build stamps them when it publishes, in a few milliseconds, where the thread would cost
 * 60 ms of CPU to start. ROLAND_BUILD_STAMPS_AHEAD_FROM sets another number (the rebuild tests: 0).
 */
const stampsAheadFrom = () => Number(process.env.ROLAND_BUILD_STAMPS_AHEAD_FROM || 5000)

/** The stamps of the last site's files, taken as a build started: each file's, null for one not there. */
export type StampsAhead = Promise<Map<string, FileStamp | null> | null>

/**
 * Has Astro note the pages it keeps from now on (whatever an earlier build left noted is forgotten),
 * and starts stamping these files (paths relative to dir) as a build starts, if there are enough of
 * them (else null). Resolves to null if the thread fails: the build then stamps the files itself.
 */
export function stampAhead(dir: string, files: readonly string[]): StampsAhead | null {
  filesKept.set(new Set())
  if (files.length === 0 || files.length < stampsAheadFrom()) return null
  return new Promise((resolve) => {
    const thread = new Worker(new URL('./file-stamps-worker.ts', import.meta.url), {
      execArgv: [],
      workerData: { dir, files } satisfies FileStampsData,
    })
    thread.unref()
    thread.once('message', ({ mtimes, sizes }: FileStampsMessage) => {
      const stamps = new Map<string, FileStamp | null>()
      for (const [n, file] of files.entries())
        stamps.set(file, Number.isNaN(mtimes[n]) ? null : { file, mtimeMs: mtimes[n]!, size: sizes[n]! })
      resolve(stamps)
    })
    thread.once('error', () => resolve(null))
    thread.once('exit', () => resolve(null))
  })
}

/** The stamps taken ahead that still hold once the pages are done: how many, and each page's. */
export interface StampsKept {
  pages: number
  /** A kept page's stamp (null: it was not there), or undefined for a file to stamp now. */
  of: (file: string) => FileStamp | null | undefined
}

/**
 * Of the stamps taken ahead (stampAhead), those of the pages Astro kept as it was; undefined when
 * none were taken. What Astro noted is forgotten.
 */
export async function stampsKept(ahead: StampsAhead | null): Promise<StampsKept | undefined> {
  const kept = filesKept.get()
  filesKept.set(undefined)
  const stamps = await ahead
  if (!stamps || !kept) return undefined
  return { pages: kept.size, of: (file) => (kept.has(file) ? stamps.get(file) : undefined) }
}

/** A file (a path relative to dir) with its modification time and size. */
export function stampOf(dir: string, file: string): FileStamp {
  const { mtimeMs, size } = statSync(path.join(dir, file))
  return { file, mtimeMs, size }
}

/**
 * The files among these (paths relative to dir, in order, each once: sortedUnion) that are there,
 * with their modification time and size: a file's stamp as `kept` gives it, else as the disk gives
 * it now. The files were just written or read by the build, so their details are in memory: one
 * call after another takes a third of the time of the same calls overlapped (40 ms against 130 ms
 * at 13,500 files). The candidates that are not there are pushed onto `missing`, when given.
 */
export function stampsOf(
  dir: string,
  candidates: readonly string[],
  kept?: StampsKept,
  missing?: string[],
): FileStamp[] {
  const stamps: FileStamp[] = []
  for (const file of candidates) {
    const stamp = kept?.of(file)
    if (stamp !== undefined) {
      if (stamp !== null) stamps.push(stamp)
      else missing?.push(file)
      continue
    }
    const stats = statSync(path.join(dir, file), { throwIfNoEntry: false })
    if (stats?.isFile()) stamps.push({ file, mtimeMs: stats.mtimeMs, size: stats.size })
    else missing?.push(file)
  }
  return stamps
}

/**
 * The names of `sorted` (in order, each once, as the last site's record lists them) and of `more`,
 * in order, each once. A rebuild's files are nearly all the last site's: only the few others are
 * sorted (at 100,000 businesses, sorting 124,000 names took a tenth of a second each time). `known`
 * is the set of `sorted`'s names, when the caller has it (making it took 40 ms at 100,000).
 */
export function sortedUnion(
  sorted: readonly string[],
  more: Iterable<string>,
  known: ReadonlySet<string> = new Set(sorted),
): string[] {
  const others = [...new Set([...more].filter((name) => !known.has(name)))].sort()
  if (others.length === 0) return sorted.slice()
  const union: string[] = []
  let next = 0
  for (const name of sorted) {
    while (next < others.length && others[next]! < name) union.push(others[next++]!)
    union.push(name)
  }
  while (next < others.length) union.push(others[next++]!)
  return union
}
