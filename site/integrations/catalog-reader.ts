// Reads the site's catalog on a thread of its own (build-thread.ts, readCatalogOnThread), sends it
// to the main thread and ends: the embedded database's WebAssembly memory (hundreds of megabytes at
// 100,000 businesses) goes with the thread, which nothing else could free.
import { parentPort } from 'node:worker_threads'
import { readSiteCatalog } from '../lib/catalog-source.ts'
import { threadError, type CatalogMessage } from './build-thread.ts'

const message: CatalogMessage = await readSiteCatalog().then(
  (catalog) => ({ type: 'catalog', catalog }),
  (error: unknown) => ({ type: 'catalog-failed', error: threadError(error) }),
)
parentPort!.postMessage(message)
