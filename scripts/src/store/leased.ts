import type { FunctionName } from './database.ts'
import type { CallOptions, CatalogMark, Store } from './types.ts'

// The embedded PGlite can be open in one process at a time, and a local site build (`astro build`)
// opens it in a child process. A leased store opens the database for each call (several calls at
// once share one open) and closes it once idle, so a long job — a rebuild, a crawl, the console
// itself — never keeps another process waiting for the lock.

/** A store that opens the database only while a call needs it. */
export interface LeasedStore extends Store {
  /** Runs fn with the database open, sharing one open with any other call in flight. */
  use<T>(fn: (store: Store) => Promise<T>): Promise<T>
  /**
   * Keeps the database open for the next `ms` (or until closed), for a call known to come soon:
   * it then finds it open. The console does once it has readied a rebuild, until the rebuild reads
   * the catalog again (at 10,000 businesses, opening the database took that read from about 0.1 s
   * to 0.3–0.6 s). Another process that opens the database meanwhile waits for it.
   */
  holdOpen(ms: number): void
}

/** Options of a leased store. */
export interface LeasedStoreOptions {
  /** How long the database stays open after the last call ends (default 0: close at once). */
  idleMs?: number
}

/** Opens a leased store: the first open checks the settings and learns the store's kind and location. */
export async function openLeasedStore(
  open: () => Promise<Store>,
  options: LeasedStoreOptions = {},
): Promise<LeasedStore> {
  const idleMs = options.idleMs ?? 0
  let current: Promise<Store> | null = null
  let closing: Promise<void> | null = null
  let users = 0
  let idleTimer: NodeJS.Timeout | undefined
  let closed = false
  // The holds of holdOpen, each ended by its timer or by close().
  const holds = new Set<() => void>()

  const shut = (): Promise<void> => {
    const store = current
    current = null
    if (!store) return closing ?? Promise.resolve()
    const done: Promise<void> = store
      .then((s) => s.close())
      .catch(() => {})
      .finally(() => {
        if (closing === done) closing = null
      })
    closing = done
    return done
  }

  const use = async <T>(fn: (store: Store) => Promise<T>): Promise<T> => {
    if (closed) throw new Error('This store is closed: open a new one.')
    clearTimeout(idleTimer)
    users++
    try {
      while (closing) await closing
      current ??= open()
      let store: Store
      try {
        store = await current
      } catch (error) {
        current = null
        throw error
      }
      return await fn(store)
    } finally {
      users--
      if (users === 0) {
        if (idleMs > 0) idleTimer = setTimeout(() => void shut(), idleMs)
        else await shut()
      }
    }
  }

  const first = await open()
  const kind = first.kind
  const location = first.location
  const publicUrl = first.files.publicUrl.bind(first.files)
  // A store that can follow its catalog (the embedded one) can whenever it is open.
  const follows = first.followCatalog !== undefined
  current = Promise.resolve(first)
  await shut()

  return {
    kind,
    location,
    use,
    loadCatalog: () => use((s) => s.loadCatalog()),
    ...(follows && { followCatalog: (since: CatalogMark | undefined) => use((s) => s.followCatalog!(since)) }),
    listBusinesses: () => use((s) => s.listBusinesses()),
    call: <T>(fn: FunctionName, args: Record<string, unknown>, options?: CallOptions) =>
      use((s) => s.call<T>(fn, args, options)),
    addImage: (image) => use((s) => s.addImage(image)),
    addImages: (images) => use((s) => s.addImages(images)),
    listImages: () => use((s) => s.listImages()),
    recordImageDerivatives: (records) => use((s) => s.recordImageDerivatives(records)),
    files: {
      get: (path) => use((s) => s.files.get(path)),
      put: (path, bytes, opts) => use((s) => s.files.put(path, bytes, opts)),
      remove: (path) => use((s) => s.files.remove(path)),
      list: () => use((s) => s.files.list()),
      publicUrl,
    },
    jobs: {
      create: (kind, params, startedBy) => use((s) => s.jobs.create(kind, params, startedBy)),
      update: (id, update) => use((s) => s.jobs.update(id, update)),
      get: (id) => use((s) => s.jobs.get(id)),
      list: (limit) => use((s) => s.jobs.list(limit)),
      unfinished: () => use((s) => s.jobs.unfinished()),
    },
    holdOpen(ms) {
      if (closed || ms <= 0) return
      const held = use(
        () =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(release, ms)
            // A hold keeps no process alive.
            timer.unref()
            function release() {
              clearTimeout(timer)
              holds.delete(release)
              resolve()
            }
            holds.add(release)
          }),
      )
      // A database that cannot open now fails the call that comes, which says why.
      held.catch(() => {})
    },
    async close() {
      closed = true
      clearTimeout(idleTimer)
      for (const release of [...holds]) release()
      await shut()
    },
  }
}
