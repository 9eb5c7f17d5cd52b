import { openStore, type OnCreate } from '../store/index.ts'
import type { CatalogRead, Store } from '../store/types.ts'
import type { Catalog } from './types.ts'

/** The error a build fails with when the data source cannot give it a catalog. */
export class CatalogUnavailableError extends Error {
  override name = 'CatalogUnavailableError'
}

/** The last read of each open store's catalog (Store.followCatalog): the next reads only what changed. */
const lastReads = new WeakMap<Store, CatalogRead>()

async function followCatalog(store: Store): Promise<Catalog> {
  if (!store.followCatalog) return store.loadCatalog()
  const since = lastReads.get(store)
  // A read that fails leaves no mark: the next one reads everything.
  lastReads.delete(store)
  const read = await store.followCatalog(since)
  lastReads.set(store, read)
  return read.catalog
}

/**
 * Reads the whole public catalog once (DESIGN.md, "The site"), from Supabase when SUPABASE_URL
 * is set, else from the embedded store (created with the sample data on first use); or from
 * `store`, a store already open, which stays open. Read again from the same store, the embedded
 * store reads only the businesses changed since (Store.followCatalog).
 * Fails with a clear message rather than handing a build an empty catalog.
 */
export async function loadPublicCatalog(
  options: { env?: NodeJS.ProcessEnv; onCreate?: OnCreate; store?: Store } = {},
): Promise<Catalog> {
  let catalog: Catalog
  let location = options.store?.location ?? 'the data source'
  try {
    if (options.store) catalog = await followCatalog(options.store)
    else {
      // The sample data's importer is loaded only for a database made afresh.
      const onCreate: OnCreate = async (created) => (await import('../migrate/sample.ts')).loadSampleData(created)
      const store = await openStore({ onCreate, ...options })
      location = store.location
      try {
        catalog = await store.loadCatalog()
      } finally {
        await store.close()
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
  return catalog
}
