import { withAlwaysPublishedPages } from '../content/starter-pages.ts'
import { openStore, type OnCreate } from '../store/index.ts'
import type { CatalogMark, CatalogRead, Store } from '../store/types.ts'
import type { Catalog } from './types.ts'

/** The error a build fails with when the data source cannot give it a catalog. */
export class CatalogUnavailableError extends Error {
  override name = 'CatalogUnavailableError'
}

/**
 * Where the data stood at the last read of each open store's catalog (Store.followCatalog): the
 * next reads only what changed. The catalog read is not kept.
 */
const lastReads = new WeakMap<Store, CatalogMark | undefined>()
/** The read of each open store's catalog under way: the next waits for it, then reads what changed since. */
const readsUnderWay = new WeakMap<Store, Promise<CatalogRead>>()

// A store that cannot follow (Supabase) reads everything each time.
function followCatalog(store: Store): Promise<CatalogRead> {
  const before = readsUnderWay.get(store)
  const read = (async () => {
    await before?.catch(() => {})
    const since = lastReads.get(store)
    // A read that fails leaves no mark: the next one reads everything.
    lastReads.delete(store)
    const read: CatalogRead = store.followCatalog
      ? await store.followCatalog(since)
      : { catalog: await store.loadCatalog(), read: 'all' }
    lastReads.set(store, read.mark)
    return read
  })()
  readsUnderWay.set(store, read)
  const done = () => {
    if (readsUnderWay.get(store) === read) readsUnderWay.delete(store)
  }
  read.then(done, done)
  return read
}

/**
 * Reads the store's catalog ahead of a build, unless it was read before or is being read: the
 * build's own read (loadPublicCatalog with this store) then takes only what changed since. The
 * console does, while it waits to rebuild after a change. Never rejects: a read that fails here
 * fails again in the build, which says why.
 */
export async function readCatalogAhead(store: Store): Promise<void> {
  if (!store.followCatalog || lastReads.has(store)) return
  await (readsUnderWay.get(store) ?? followCatalog(store)).catch(() => {})
}

/**
 * Reads the whole public catalog once (DESIGN.md, "The site"), from Supabase when SUPABASE_URL
 * is set, else from the embedded store (created with the sample data on first use); or from
 * `store`, a store already open, which stays open. Read again from the same store, the embedded
 * store reads only the businesses changed since (Store.followCatalog).
 * Fails with a clear message rather than handing a build an empty catalog.
 */
export async function loadPublicCatalog(
  options: {
    env?: NodeJS.ProcessEnv
    onCreate?: OnCreate
    store?: Store
    /** Told how many businesses were read from the store: all, or those changed since its last read. */
    onRead?: (read: CatalogRead['read']) => void
  } = {},
): Promise<Catalog> {
  let catalog: Catalog
  let location = options.store?.location ?? 'the data source'
  try {
    const { store } = options
    if (store) {
      const read = await followCatalog(store)
      options.onRead?.(read.read)
      catalog = read.catalog
    } else {
      // The sample data's importer is loaded only for a database made afresh.
      const onCreate: OnCreate = async (created) => (await import('../migrate/sample.ts')).loadSampleData(created)
      const opened = await openStore({ env: options.env, onCreate: options.onCreate ?? onCreate })
      location = opened.location
      try {
        catalog = await opened.loadCatalog()
        options.onRead?.('all')
      } finally {
        await opened.close()
      }
    }
  } catch (error) {
    throw new CatalogUnavailableError(
      `Could not read the catalog from ${location}: ${(error as Error).message}\n` +
        'The site was not built. Check SUPABASE_URL and the keys in .env, or unset SUPABASE_URL to build from the embedded store.',
    )
  }
  if (catalog.businesses.length === 0) {
    throw new CatalogUnavailableError(
      `${location} has no active businesses, so the site was not built (it would publish empty lists).\n` +
        'Import Roland.txt first: `pnpm roland migrate` (or `pnpm roland db reset` for the sample data).',
    )
  }
  if (catalog.categories.length === 0) {
    throw new CatalogUnavailableError(
      `${location} has no location categories, so the site was not built.\n` +
        'Apply supabase/seed.sql to that database (see README, "Deploy").',
    )
  }
  // The home page, /businesses, /events, /contact and /404 are always on the site, rows or not.
  return { ...catalog, pages: withAlwaysPublishedPages(catalog.pages, catalog.town) }
}
