// A new embedded database starts as a copy of the empty database cluster PGlite's initdb makes.
// For each new database (`roland db init`, a restore, the console's or the site's first start on an
// empty data folder, and a good many tests), PGlite ran initdb: a second PGlite, initdb's own
// WebAssembly, and a copy of what it made from the one to the other, about 2.5 CPU-seconds on a
// 2-core machine. It made the same cluster every time; loading a copy of it takes about 0.6. The
// copy is made once for each version of PGlite and kept under node_modules/.cache/roland-store/;
// where that folder cannot be written, a process makes it once for itself.
import { PGlite } from '@electric-sql/pglite'
import { readFileSync } from 'node:fs'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { repoRoot } from '../../paths.ts'
import { TarBlob } from './tar-blob.ts'

/** Where the cluster is kept. */
export const keptClusterFolder = path.join(repoRoot, 'node_modules', '.cache', 'roland-store')

/** The cluster this process made, by folder, where it could not keep it there (it is read from there otherwise). */
const unkept = new Map<string, Blob>()

/**
 * Opens a new database as a copy of the empty cluster, made and kept in `folder` the first time.
 * `open` opens PGlite, loading what it is given; without (there is no cluster: it could not be
 * made), PGlite runs initdb as before. A kept copy that does not load (damaged, say) goes: `clear`
 * removes what its load left, and initdb runs.
 */
export async function openFromEmptyCluster(options: {
  open: (loadDataDir?: Blob) => Promise<PGlite>
  clear: () => Promise<void>
  startParams: string[]
  folder?: string
}): Promise<PGlite> {
  const folder = options.folder ?? keptClusterFolder
  const cluster = await emptyCluster(options.startParams, folder)
  if (!cluster) return options.open()
  try {
    return await options.open(cluster)
  } catch {
    unkept.delete(folder)
    await rm(clusterFile(folder), { force: true })
    await options.clear()
    return options.open()
  }
}

/** The installed PGlite's version, once read. */
let version: string | undefined

/** The file the cluster is kept in, in a folder. */
export const clusterFile = (folder: string) => path.join(folder, `empty-cluster-${(version ??= pgliteVersion())}.tar`)

/**
 * The empty cluster a new database is loaded from (PGlite's loadDataDir), as PGlite with these
 * start parameters makes it; undefined when it cannot be made.
 */
export async function emptyCluster(startParams: string[], folder = keptClusterFolder): Promise<Blob | undefined> {
  try {
    return unkept.get(folder) ?? (await keptCluster(startParams, folder))
  } catch {
    return undefined
  }
}

async function keptCluster(startParams: string[], folder: string): Promise<Blob> {
  const file = clusterFile(folder)
  const kept = await readFile(file).catch(() => null)
  if (kept) return new TarBlob(kept)
  const db = await PGlite.create({ startParams })
  let cluster: Blob
  try {
    cluster = await db.dumpDataDir('none')
  } finally {
    await db.close()
  }
  // Written whole under a name of its own, then renamed into place: a process at once never reads half of it.
  const partial = `${file}.${process.pid}-${Date.now()}`
  try {
    await mkdir(folder, { recursive: true })
    await writeFile(partial, new Uint8Array(await cluster.arrayBuffer()))
    await rename(partial, file)
  } catch {
    await rm(partial, { force: true })
    unkept.set(folder, cluster)
  }
  return cluster
}

/** The version of PGlite installed: a cluster made by another may not open under it. */
function pgliteVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')))
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string
        version?: string
      }
      if (manifest.name === '@electric-sql/pglite' && manifest.version) return manifest.version
    } catch {
      // No package.json here: look further up.
    }
    const parent = path.dirname(dir)
    if (parent === dir) throw new Error('The installed PGlite has no package.json to say its version.')
    dir = parent
  }
}
