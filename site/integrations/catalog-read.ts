import { Worker } from 'node:worker_threads'
import type { Catalog } from '@roland/scripts/catalog/types'
import { processSlot } from '@roland/scripts/process-slot'
import {
  catalogHandoverVariable,
  readCatalogFile,
  type FromBuild,
  type ToBuild,
} from '@roland/scripts/rebuild/build-process'
import { recordPhase } from '../lib/build-profile.ts'
import { readSiteCatalog } from '../lib/catalog-source.ts'
import type { PackedSearchIndex } from '../lib/search-index.ts'
import { collectWhileIdle } from './idle-gc.ts'
import { holdKeptIndex, holdsSearchIndex, updateHeldIndex, updateHeldIndexAhead } from './search-index-held.ts'
import { revive, type ThreadError } from './thread-error.ts'

// The catalog a build renders, read on a thread of its own: the catalog reader (catalog-reader.ts)
// reads it while Astro bundles the site, sends it to the main thread and ends, and the embedded
// database's memory goes with it; it then makes the businesses page's search index. A catalog the
// rebuild hands over (@roland/scripts/rebuild/build-process) is read from its file here, on the main
// thread, and by the reader for the index; one handed ahead, on standby, is read then. A process
// that builds again updates the index it holds on this thread instead, when it can
// (search-index-held.ts). The pages are rendered on the build's other thread (build-thread.ts).

/** What the catalog reader sends: the catalog, then the search index it makes of it (null: not made there). */
export type CatalogMessage =
  | { type: 'catalog'; catalog: Catalog }
  | { type: 'catalog-failed'; error: ThreadError }
  | {
      type: 'search-index'
      index: PackedSearchIndex | null
      /** Made from the last build's index: how many businesses changed, how many of its files were written again. */
      updated?: { changed: number; rewritten: number } | null
    }
  | { type: 'search-index-failed'; error: ThreadError }
  /** A reader started on standby: the modules it loaded (file URLs), which must not change before the build starts. */
  | { type: 'loaded'; urls: string[] }

const catalogReadSlot = processSlot<CatalogRead>('roland.site.catalog-read')

/** What the catalog reader starts with. */
export interface ReaderData {
  /** The rebuild hands the catalog over (build-process.ts): one ReaderHandover message of the catalog comes. */
  handedOver: boolean
  /** A catalog handed ahead, on standby (readCatalogAhead): read, and its index made, while the handover is awaited. */
  ahead?: string
}

/** The catalog's handover as the reader gets it: with the build's environment, .env read. */
export type ReaderHandover = Extract<ToBuild, { type: 'catalog-file' | 'catalog-unread' }> & {
  env: Record<string, string | undefined>
}

/** What the catalog reader gives the build. */
interface CatalogRead {
  catalog: Promise<Catalog>
  /** The businesses page's search index, when the reader made it (a catalog too big to inline its cards). */
  searchIndex: Promise<PackedSearchIndex | null>
  /** Keeps the process alive while the reader works on what `awaited` waits for (see readCatalogOnThread). */
  hold<T>(awaited: Promise<T>): Promise<T>
}

/**
 * The catalog this build reads on a thread of its own (catalog-reader.ts), started on the first
 * call in the process: by read-catalog-early.ts when the build's process starts with it (as the
 * console's and the CLI's rebuilds do), else by the roland:catalog integration once Astro has its
 * config, half a second later.
 */
export function catalogRead(): Promise<Catalog> {
  const read = startedRead()
  return read.hold(read.catalog)
}

/**
 * The search index the catalog reader makes once it has sent the catalog, while Astro is still
 * bundling: null when the catalog is small enough for the index to hold its cards, which only this
 * thread can draw (search-build.ts makes that index itself).
 */
export function searchIndexRead(): Promise<PackedSearchIndex | null> {
  const read = startedRead()
  return read.hold(read.searchIndex)
}

/**
 * Forgets this process's read of the catalog, before it builds again (build-server.ts): the next
 * catalogRead() starts a new one.
 */
export function forgetCatalogRead(): void {
  catalogReadSlot.set(undefined)
}

function startedRead(): CatalogRead {
  return catalogReadSlot.kept(readCatalogOnThread)
}

/** Starts a catalog reader (catalog-reader.ts; catalog-reader-ahead.ts for a catalog handed ahead). */
function startReader(data: ReaderData): Worker {
  const module = data.ahead ? './catalog-reader-ahead.ts' : './catalog-reader.ts'
  return new Worker(new URL(module, import.meta.url), { execArgv: [], workerData: data })
}

/** A catalog handed ahead, on standby (build-process.ts, `catalog-ahead`), and the work begun on it. */
interface CatalogAhead {
  file: string
  /** The catalog as the file has it, read on this thread. */
  catalog: Promise<Catalog>
  /**
   * A reader that reads it too, and makes its search index, before the build starts; none when this
   * process holds the last build's index, which it updates itself (search-index-held.ts).
   */
  reader: Worker | null
  /** The reader's modules count among those checked when the build starts (build-standby.ts). */
  checked: boolean
  exited: boolean
}

const aheadSlot = processSlot<CatalogAhead | null>('roland.site.catalog-ahead')

/**
 * Begins the work on a catalog handed ahead to this process on standby: its read here, and its
 * search index: updated here, from the index this process holds or takes up now
 * (search-index-held.ts), else made by a reader of its own (catalog-reader.ts). A later one
 * replaces it; the build uses it when its rebuild hands over the same file (readCatalogOnThread).
 */
export function readCatalogAhead(file: string, countLoaded: (urls: string[]) => void): void {
  const earlier = aheadSlot.get()
  earlier?.reader?.terminate().catch(() => {})
  const catalog = readCatalogFile(file, { reuse: true })
  // A process that has not built yet takes up the index the site's last build kept, while it waits;
  // either way, the index it holds is updated from the catalog once read (updateHeldIndexAhead): a
  // build handed the same file takes that update. Without a kept index, a reader makes one.
  const holds = holdsSearchIndex() || holdKeptIndex()
  const reader = holds ? null : startReader({ handedOver: true, ahead: file })
  const ahead: CatalogAhead = { file, catalog, reader, checked: reader === null, exited: false }
  // Its failure is the build's if the build uses it: it reads the file again then. Once that work
  // is done, the garbage is collected (unless the build has started): the build then starts with
  // V8's whole allocation budget (idle-gc.ts).
  catalog
    .then((read) => holds && updateHeldIndexAhead(read))
    .catch(() => {})
    .finally(collectWhileIdle)
  aheadSlot.set(ahead)
  // The rebuild that handed it ahead waits until this process is at work on it (or cannot be).
  const ready = () => process.send?.({ type: 'catalog-ahead-ready', file } satisfies FromBuild, () => {})
  if (!reader) {
    ready()
    return
  }
  reader.unref()
  reader.on('error', () => {})
  reader.on('exit', () => {
    if (!ahead.checked) ready()
    ahead.exited = true
  })
  reader.on('message', (message: CatalogMessage) => {
    if (message.type !== 'loaded') return
    countLoaded(message.urls)
    ahead.checked = true
    ready()
  })
}

/** The reader that made the last build's search index, which keeps it on disk as it ends; none if the build made it. */
const indexReaderSlot = processSlot<Promise<unknown> | null>('roland.site.index-reader')

/**
 * Takes up, on standby, the search index the last build's reader kept on disk, once kept, and the
 * entries of the last build's businesses, for the next build to update on its own thread
 * (search-index-held.ts); one it updated itself is held already. Called before forgetCatalogRead.
 */
export async function holdLastSearchIndex(): Promise<void> {
  const reader = indexReaderSlot.get()
  const lastCatalog = catalogReadSlot.get()?.catalog.catch(() => undefined)
  indexReaderSlot.set(null)
  if (!reader) return
  await reader
  holdKeptIndex(await lastCatalog)
}

function readCatalogOnThread(): CatalogRead {
  // A rebuild that reads the catalog itself hands it over (@roland/scripts/rebuild/build-process):
  // the reader then waits for it instead of opening the data source.
  const handedOver = process.env[catalogHandoverVariable] === '1' && process.send !== undefined
  const unsettled = <T>() => {
    const result = Promise.withResolvers<T>()
    // A failure is the build's: the first page that asks for it fails with it.
    result.promise.catch(() => {})
    return result
  }
  const catalog = unsettled<Catalog>()
  const searchIndex = unsettled<PackedSearchIndex | null>()
  const readStarted = performance.now()
  let catalogAt = readStarted
  const gotCatalog = (read: Catalog) => {
    catalogAt = performance.now()
    recordPhase(handedOver ? 'catalog read (handed over)' : 'catalog read (reader thread)', catalogAt - readStarted)
    catalog.resolve(read)
  }
  // The reader keeps the process alive only while something waits for what it sends: a failed
  // build ends without waiting for it, and a build waiting for its search index, with nothing else
  // to do, does not end before it comes.
  let current: Worker | null = null
  let awaited = 0
  const hold = <T>(promise: Promise<T>) => {
    if (awaited++ === 0) current?.ref()
    const release = () => {
      if (--awaited === 0) current?.unref()
    }
    promise.then(release, release)
    return promise
  }
  const listen = (reader: Worker) => {
    current = reader
    indexReaderSlot.set(new Promise((resolve) => reader.once('exit', resolve)))
    if (awaited === 0) reader.unref()
    else reader.ref()
    const stopped = (code: number, what: string) =>
      new Error(`The catalog reader stopped (exit code ${code}) before it sent ${what}.`)
    reader.on('error', (error) => {
      // A catalog handed over is read on this thread: the reader may end before this read does.
      if (!handedOver) catalog.reject(error)
      searchIndex.reject(error)
    })
    reader.on('exit', (code) => {
      if (!handedOver) catalog.reject(stopped(code, 'the catalog'))
      searchIndex.reject(stopped(code, 'the search index'))
    })
    reader.on('message', (message: CatalogMessage) => {
      switch (message.type) {
        case 'catalog':
          return gotCatalog(message.catalog)
        case 'catalog-failed':
          catalog.reject(revive(message.error))
          return searchIndex.resolve(null)
        case 'search-index':
          recordPhase(
            message.updated
              ? `search index (reader thread; the last one's, ${message.updated.rewritten} files written again)`
              : 'search index (reader thread)',
            performance.now() - catalogAt,
          )
          return searchIndex.resolve(message.index)
        case 'search-index-failed':
          return searchIndex.reject(revive(message.error))
      }
    })
  }
  if (!handedOver) {
    listen(startReader({ handedOver }))
    return { catalog: catalog.promise, searchIndex: searchIndex.promise, hold }
  }
  // The file a rebuild hands over is read twice at once: here, for the pages, and on the reader
  // thread, for the search index. At 100,000 businesses that takes this thread 2 s, where a copy
  // sent from the reader took 3.5 s of both threads' time (a structured clone is written out and
  // read back), after the reader's own read. A file handed ahead, on standby, was read then: the
  // reads, and the search index, are done or under way.
  const ahead = aheadSlot.get()
  aheadSlot.set(null)
  const onMessage = (message: ToBuild) => {
    if (message.type !== 'catalog-file' && message.type !== 'catalog-unread') return
    process.off('message', onMessage)
    process.channel?.unref()
    const asAhead = ahead && message.type === 'catalog-file' && message.file === ahead.file
    // This process updates the index it holds, once it has the catalog; a reader makes it if it cannot.
    const onThisThread = message.type === 'catalog-file' && holdsSearchIndex()
    const usable = !onThisThread && asAhead && ahead.reader !== null && ahead.checked && !ahead.exited
    if (ahead?.reader && !usable) void ahead.reader.terminate().catch(() => {})
    const readerNow = () => {
      const reader = usable ? ahead.reader! : startReader({ handedOver })
      listen(reader)
      // The reader takes the environment as it is now (.env read): one started on standby had it before.
      reader.postMessage({ ...message, env: { ...process.env } } satisfies ReaderHandover)
    }
    if (!onThisThread) readerNow()
    else indexReaderSlot.set(null)
    recordPhase(
      usable || (onThisThread && asAhead) ? 'catalog handover: as read ahead' : 'catalog handover: the file came',
      performance.now() - readStarted,
    )
    if (message.type === 'catalog-file')
      readSiteCatalog(undefined, () =>
        asAhead
          ? ahead.catalog.catch(() => readCatalogFile(message.file, { reuse: true }))
          : readCatalogFile(message.file, { reuse: true }),
      ).then(
        (read) => {
          gotCatalog(read)
          if (onThisThread) indexHere(read, readerNow)
        },
        (error: unknown) => {
          catalog.reject(error)
          if (onThisThread) searchIndex.reject(error)
        },
      )
  }
  /** Updates the index this process holds (search-index-held.ts), or has a reader make it. */
  const indexHere = (read: Catalog, orReader: () => void) => {
    const started = performance.now()
    let made: ReturnType<typeof updateHeldIndex> = null
    try {
      made = updateHeldIndex(read)
    } catch {
      // Made by a reader instead, which reports what fails.
    }
    if (!made) return orReader()
    recordPhase(
      `search index (this thread; the last one's, ${made.rewritten} files written again)`,
      performance.now() - started,
    )
    searchIndex.resolve(made.index)
  }
  process.on('message', onMessage)
  process.send!({ type: 'catalog-wanted' } satisfies FromBuild)
  return { catalog: catalog.promise, searchIndex: searchIndex.promise, hold }
}
