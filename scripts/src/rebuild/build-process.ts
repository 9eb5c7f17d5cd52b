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
import { open, writeFile } from 'node:fs/promises'
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
 * The parts of businesses this process wrote last (writeCatalogFile), each with its bytes and their
 * digest. A store that reads only what changed keeps each unchanged business as the same object
 * (sameCatalog), so a part of the same objects is written from the bytes it had: after one business
 * changed at 100,000 businesses, one part of a hundred is serialized again, where all of them took
 * the console 1.7 s of its 3 s wait before a rebuild.
 */
const partsWritten = processSlot<Array<{ businesses: readonly Business[]; bytes: Buffer; digest: Buffer }>>(
  'roland.rebuild.catalog-parts-written',
)

/**
 * What a catalog file starts with: its parts of businesses each carry the SHA-256 of their bytes
 * before them (readCatalogFile). A file without it (written by a console started before this form)
 * has its parts hashed as they are read.
 */
const digestsMark = Buffer.from('RCF2')
const digestBytes = 32

/**
 * Writes the catalog for the build: the mark, the rest of it, then its businesses in parts, each
 * part's length first, then the digest of its bytes. A part is hashed as it is serialized, once: the
 * build reads the digests instead of hashing a hundred parts (0.25 s at 100,000 businesses).
 */
export async function writeCatalogFile(file: string, catalog: Catalog): Promise<void> {
  const { businesses, ...rest } = catalog
  const before = partsWritten.get() ?? []
  const written: Array<{ businesses: readonly Business[]; bytes: Buffer; digest: Buffer }> = []
  for (let i = 0; i < businesses.length; i += businessesPerPart) {
    const part = businesses.slice(i, i + businessesPerPart)
    const last = before[written.length]
    const same = last?.businesses.length === part.length && part.every((business, n) => business === last.businesses[n])
    if (same) written.push(last)
    else {
      const bytes = serialize(part)
      written.push({ businesses: part, bytes, digest: hash('sha256', bytes, 'buffer') })
    }
  }
  partsWritten.set(written)
  const length = (bytes: number) => {
    const buffer = Buffer.alloc(4)
    buffer.writeUInt32LE(bytes)
    return buffer
  }
  const restBytes = serialize(rest)
  await writeFile(file, [
    digestsMark,
    length(restBytes.byteLength),
    restBytes,
    ...written.flatMap(({ bytes, digest }) => [length(digest.byteLength + bytes.byteLength), digest, bytes]),
  ])
}

/**
 * The parts of businesses this process read last with `reuse` (readCatalogFile), by the digest of
 * their bytes, as read.
 */
const partsRead = processSlot<Map<string, unknown>>('roland.rebuild.catalog-parts-read')

/**
 * Reads the catalog a rebuild handed over (writeCatalogFile). With `reuse` (the build's main
 * thread, whose process builds again), a part of businesses whose bytes are those of a part it
 * read last is not read again: its businesses are the objects read then, as unchanged as the
 * bytes, and what a build works out once per business object (its cacheKey's hash,
 * site/lib/build-cache.ts) holds from one build to the next. At 100,000 businesses, after one
 * changed, the read takes a part of a hundred (the digests written with the parts say which), where it
 * took 1.2 s of the build's main thread, with as much again of garbage collection. The site never
 * changes a business object it reads.
 */
export async function readCatalogFile(file: string, options: { reuse?: boolean } = {}): Promise<Catalog> {
  const before = options.reuse ? partsRead.get() : undefined
  const read = new Map<string, unknown>()
  const parts: unknown[] = []
  const handle = await open(file)
  try {
    const { size } = await handle.stat()
    /** `length` bytes of the file from `at`. */
    const bytesAt = async (at: number, length: number): Promise<Buffer> => {
      const buffer = Buffer.allocUnsafe(length)
      const { bytesRead } = await handle.read(buffer, 0, length, at)
      if (bytesRead !== length) throw new Error(`The catalog file ${file} ends before its last part`)
      return buffer
    }
    const withDigests = size >= digestsMark.byteLength && (await bytesAt(0, digestsMark.byteLength)).equals(digestsMark)
    for (let at = withDigests ? digestsMark.byteLength : 0; at < size;) {
      // Each part's length, then (in a file with digests, but for the first) its digest: a part of
      // businesses this process read last is not read from the file at all (a hundredth of a
      // 100,000 businesses' file is, after one changed: 0.5 s less).
      const head = await bytesAt(at, parts.length > 0 && withDigests ? 4 + digestBytes : 4)
      const length = head.readUInt32LE(0)
      const partAt = at + head.byteLength
      const partLength = length - (head.byteLength - 4)
      at += 4 + length
      // The first part is the rest of the catalog, read afresh each time: it is small.
      if (!options.reuse || parts.length === 0) {
        parts.push(deserialize(await bytesAt(partAt, partLength)))
        continue
      }
      const digest = withDigests ? head.subarray(4).toString('base64') : undefined
      const known = digest === undefined ? undefined : before?.get(digest)
      if (digest !== undefined && known !== undefined) {
        read.set(digest, known)
        parts.push(known)
        continue
      }
      const part = await bytesAt(partAt, partLength)
      const key = digest ?? hash('sha256', part, 'base64')
      const value: unknown = before?.get(key) ?? deserialize(part)
      read.set(key, value)
      parts.push(value)
    }
  } finally {
    await handle.close()
  }
  if (options.reuse) partsRead.set(read)
  const [rest, ...businesses] = parts as [Omit<Catalog, 'businesses'>, ...Catalog['businesses'][]]
  return { ...rest, businesses: businesses.flat() }
}
