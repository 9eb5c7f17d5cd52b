import { loadSampleData } from '../migrate/sample.ts'
import { openStore } from '../store/index.ts'
import type { Store } from '../store/types.ts'

/**
 * Runs a command's work on the store (a new embedded one starts with the sample data, as
 * `roland db init` makes it), and closes the store after, whatever the work came to.
 */
export async function withStore<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ onCreate: loadSampleData })
  try {
    return await work(store)
  } finally {
    await store.close()
  }
}
