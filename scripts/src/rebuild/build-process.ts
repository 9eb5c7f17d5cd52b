// What a rebuild (runAstroBuild, astro-build.ts) and the site build's process it starts tell each other
// over Node's IPC channel, each part to take work off the build's critical path on a
// 2-core machine:
//
// - The catalog's handover. A rebuild that has the store open (the console's, the CLI's) reads the
//   catalog itself, while the build's process loads Astro, and hands it over in a file. The build
//   then never opens the embedded database: at 10,000 businesses its own read took about 2 s of
//   CPU (PGlite's WebAssembly compiled afresh, the read, their garbage) beside Astro's bundling.
//   The build's side is site/integrations/catalog-read.ts.
// - The standby. The console starts its next build's process as soon as a build ends: it loads
//   Node, Astro, Vite and the site's config modules, then waits, before it reads .env or a page,
//   until the next rebuild starts it. The build's side is site/integrations/build-standby.ts.
// - The catalog ahead. Once data changed, while the console waits for its quiet window to pass, it
//   reads the catalog and hands it to the process on standby, which reads it and makes the search
//   index of it meanwhile. When the rebuild starts and the catalog is still the same, the build
//   finds that work done. The build's side is site/integrations/catalog-read.ts.
// - The reuse. A process that builds many sites in turn (the tests) keeps a build's process once
//   its build is done, and hands it the next build's environment and working folder: Node, Astro,
//   Vite and the site's modules stay loaded. The build's side is site/integrations/build-server.ts.
// - The standby kept. The console's build's process, once its build is done, is put back on
//   standby for the next (`stand-by`), as one started ahead waits for its first: handed catalogs
//   ahead, then started with the next build's environment and working folder (`start`). Its
//   Astro and modules stay loaded and warm, and no process ends and starts between two rebuilds.
//
// Each side speaks only once the other has said it is listening: a message sent before the other
// side's listener exists would be lost.
import { hash } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { deserialize, serialize } from 'node:v8'
import type { Business, Catalog } from '../catalog/types.ts'
import { processSlot } from '../process-slot.ts'

/** Set in a build's environment when its rebuild hands over the catalog. */
export const catalogHandoverVariable = 'ROLAND_BUILD_CATALOG_HANDOVER'

/** Set in a build's environment (ROLAND_BUILD_PROFILE=1) for it to print where it spends its time and memory. */
export const profileVariable = 'ROLAND_BUILD_PROFILE'

/** How each line of a build's profile starts (site/lib/build-profile.ts), for whoever picks them out. */
export const profileLinePrefix = '[roland:profile]'

/** Set in a build's environment when its process starts on standby. */
export const standbyVariable = 'ROLAND_BUILD_STANDBY'

/** What a build's process tells its rebuild. */
export type FromBuild =
  /** On standby, listening for `start`. */
  | { type: 'standing-by' }
  /** Started: nothing it loaded on standby has changed since. */
  | { type: 'started' }
  /** Not started: `file`, a module it loaded on standby, has changed since; it ends. */
  | { type: 'stale'; file: string }
  /** Listening for the catalog. */
  | { type: 'catalog-wanted' }
  /** On standby: at work on the catalog handed ahead in `file` (its reader started). */
  | { type: 'catalog-ahead-ready'; file: string }

/**
 * The line a reused build's process (site/integrations/build-server.ts) prints on its standard
 * output and its standard error once a build is done and it waits for the next: what it printed
 * before on each is then all there.
 */
export const buildServedLine = '[roland:build-server] done; waiting for the next build'

/**
 * How a build's process that outlives its build (build-server.ts) says, once each build is done,
 * the most memory it has held (its peak resident set, in MB): it does not exit, where another is
 * measured.
 */
export const peakMemoryPrefix = "[roland:build-server] this process's peak memory so far:"

/** What a rebuild tells its build's process. */
export type ToBuild =
  /**
   * To a reused build's process, once its build is done: run another, with this environment (in
   * place of its own) in this working folder, a folder it has not built in before.
   */
  | { type: 'build'; env: Record<string, string | undefined>; cwd: string }
  /**
   * To a process on standby: start the build it waits for. A process that has built before (put
   * back on standby, `stand-by`) is handed the next build's environment and working folder with
   * it, a folder it has not built in before, as a reused one is (`build`).
   */
  | { type: 'start'; next?: { env: Record<string, string | undefined>; cwd: string } }
  /** To a process started on standby, once its build is done: wait on standby again for the next build. */
  | { type: 'stand-by' }
  /**
   * On standby: the catalog as it now stands, read ahead while the rebuild waits for its quiet
   * window, in a file (writeCatalogFile). The process reads it, and makes its search index, while
   * it waits; a later one replaces it. Once started, a `catalog-file` naming the same file says
   * the catalog has not changed since: the work is done.
   */
  | { type: 'catalog-ahead'; file: string }
  /** The catalog, in a file (writeCatalogFile): the last `catalog-ahead`'s when unchanged since. */
  | { type: 'catalog-file'; file: string }
  /** The catalog could not be read: the build fails with this message. */
  | { type: 'catalog-unread'; message: string }

/**
 * The businesses of the catalog file come in parts of this many, each a structured clone of its
 * own: at 100,000 businesses (113 MB) the console writes the file in 1.7–1.8 s, where one clone of
 * the whole took 2.4–2.6 s; the build reads it back in about the same time either way (2.3–2.5 s).
 */
const businessesPerPart = 1000

/**
 * The parts of businesses this process wrote last (writeCatalogFile), each with its bytes. A store
 * that reads only what changed keeps each unchanged business as the same object (sameCatalog), so a
 * part of the same objects is written from the bytes it had: after one business changed at 100,000
 * businesses, one part of a hundred is serialized again, where all of them took the console 1.7 s
 * of its 3 s wait before a rebuild.
 */
const partsWritten = processSlot<Array<{ businesses: readonly Business[]; bytes: Buffer }>>(
  'roland.rebuild.catalog-parts-written',
)

/** Writes the catalog for the build: the rest of it, then its businesses in parts, each part's length first. */
export async function writeCatalogFile(file: string, catalog: Catalog): Promise<void> {
  const { businesses, ...rest } = catalog
  const before = partsWritten.get() ?? []
  const written: Array<{ businesses: readonly Business[]; bytes: Buffer }> = []
  for (let i = 0; i < businesses.length; i += businessesPerPart) {
    const part = businesses.slice(i, i + businessesPerPart)
    const last = before[written.length]
    const same = last?.businesses.length === part.length && part.every((business, n) => business === last.businesses[n])
    written.push({ businesses: part, bytes: same ? last.bytes : serialize(part) })
  }
  partsWritten.set(written)
  const parts = [serialize(rest), ...written.map((part) => part.bytes)]
  await writeFile(
    file,
    parts.flatMap((part) => {
      const length = Buffer.alloc(4)
      length.writeUInt32LE(part.byteLength)
      return [length, part]
    }),
  )
}

/**
 * The parts of businesses this process read last with `reuse` (readCatalogFile), by the hash of
 * their bytes, as read.
 */
const partsRead = processSlot<Map<string, unknown>>('roland.rebuild.catalog-parts-read')

/**
 * Reads the catalog a rebuild handed over (writeCatalogFile). With `reuse` (the build's main
 * thread, whose process builds again), a part of businesses whose bytes are those of a part it
 * read last is not read again: its businesses are the objects read then, as unchanged as the
 * bytes, and what a build works out once per business object (its cacheKey's hash,
 * site/lib/build-cache.ts) holds from one build to the next. At 100,000 businesses, after one
 * changed, the read takes a part of a hundred and the hash of the file (0.1 s), where it took 1.2 s
 * of the build's main thread, with as much again of garbage collection. The site never changes a
 * business object it reads.
 */
export async function readCatalogFile(file: string, options: { reuse?: boolean } = {}): Promise<Catalog> {
  const bytes = await readFile(file)
  const before = options.reuse ? partsRead.get() : undefined
  const read = new Map<string, unknown>()
  const parts: unknown[] = []
  for (let at = 0; at < bytes.byteLength;) {
    const length = bytes.readUInt32LE(at)
    const part = bytes.subarray(at + 4, at + 4 + length)
    at += 4 + length
    // The first part is the rest of the catalog, read afresh each time: it is small.
    if (!options.reuse || parts.length === 0) {
      parts.push(deserialize(part))
      continue
    }
    const digest = hash('sha256', part, 'base64')
    const value: unknown = before?.get(digest) ?? deserialize(part)
    read.set(digest, value)
    parts.push(value)
  }
  if (options.reuse) partsRead.set(read)
  const [rest, ...businesses] = parts as [Omit<Catalog, 'businesses'>, ...Catalog['businesses'][]]
  return { ...rest, businesses: businesses.flat() }
}
