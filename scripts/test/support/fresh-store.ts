import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import type { TestProject } from 'vitest/node'
import { openEmbeddedStore, type EmbeddedStore } from '../../src/store/embedded.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a freshly created, migrated and seeded embedded database (freshStore copies it). */
    storeTemplate: string
  }
}

/**
 * The global setup of the unit tests: creates one embedded database the way `openEmbeddedStore()`
 * does (migrations and seed) and dumps it to a temporary file, once for the whole run.
 */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(tmpdir(), 'roland-store-template-'))
  const file = path.join(dir, 'store.tar')
  const store = await openEmbeddedStore()
  try {
    await writeFile(file, Buffer.from(await (await store.db.dumpDataDir('none')).arrayBuffer()))
  } finally {
    await store.close()
  }
  project.provide('storeTemplate', file)
  return () => rm(dir, { recursive: true, force: true })
}

let template: Promise<Blob> | undefined

/**
 * A fresh in-memory embedded store, migrated and seeded: a copy of the one the global setup made,
 * which opens in a fraction of the time creating one takes (about 0.4 s instead of 2.3 s here).
 */
export async function freshStore(): Promise<EmbeddedStore> {
  template ??= readFile(inject('storeTemplate')).then((bytes) => new Blob([bytes]))
  return openEmbeddedStore({ copyOf: await template })
}
