import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import type { TestProject } from 'vitest/node'
import { openEmbeddedStore, type EmbeddedStore } from '../../src/store/embedded.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a freshly created, migrated and seeded embedded database (freshStore copies it). */
    storeTemplate: string
    /** The data folder of that database, closed (freshStoreIn copies it). */
    storeTemplateDir: string
  }
}

/**
 * The global setup of the unit tests: creates one embedded database in a folder the way
 * `openEmbeddedStore({ dir })` does (migrations and seed) and dumps it to a temporary file, once
 * for the whole run.
 */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(tmpdir(), 'roland-store-template-'))
  const file = path.join(dir, 'store.tar')
  const dataDir = path.join(dir, 'data')
  const store = await openEmbeddedStore({ dir: dataDir })
  try {
    await writeFile(file, Buffer.from(await (await store.db.dumpDataDir('none')).arrayBuffer()))
  } finally {
    await store.close()
  }
  project.provide('storeTemplate', file)
  project.provide('storeTemplateDir', dataDir)
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

/**
 * A fresh embedded store in a data folder (which must not hold one yet), migrated and seeded: a
 * copy of the global setup's folder, for a test that needs the folder itself (a CLI or a build
 * reads it, files are stored beside it). About 0.5 s instead of 2.3 s for creating one.
 */
export async function freshStoreIn(dir: string): Promise<EmbeddedStore> {
  await cp(path.join(inject('storeTemplateDir'), 'db'), path.join(dir, 'db'), {
    recursive: true,
    errorOnExist: true,
    force: false,
  })
  return openEmbeddedStore({ dir })
}
