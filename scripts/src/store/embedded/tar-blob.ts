/**
 * A database's tar, as PGlite's `loadDataDir` takes it (a Blob), over bytes already in memory, for
 * the copies a process opens again and again (a test's fresh store, the empty cluster of each new
 * database). PGlite reads the whole tar once with `arrayBuffer()` and only reads it: it copies each
 * file out of it into its own file system. Node's own Blob hands its bytes out in chunks, joined
 * into a new buffer at each read: for the 43 MB of a seeded store, 0.08 CPU-seconds of the 0.45 an
 * open takes on a 2-core machine (0.04 with one plain copy, most of it the new memory's page faults).
 *
 * So `arrayBuffer()` answers with the bytes it holds, not a copy: what it is given must not be
 * changed after, nor what it hands out. Its other readers copy, as a Blob's do.
 *
 * PGlite's own reading of the tar is patched too (patches/@electric-sql__pglite@0.5.16.patch, in
 * `loadTar`): it asked its file system whether each folder on a file's path existed, for every
 * file (some 6,000 path lookups for 1,189 files), and copied each file's bytes a second time,
 * though untar had just copied them out for it. It now makes each folder once and hands the file
 * system the bytes untar made (`canOwn`). An open of that seeded store: 0.41-0.46 CPU-s, then
 * 0.32-0.35 (`openEmbeddedStore({ copyOf })` twenty times, alternating).
 *
 * Then, by the same measure, 0.30-0.34 CPU-s before and 0.26-0.29 after: each file is made in its
 * folder's node, found once, instead of by its path (three path lookups a file: the open, the
 * create, the times), and a tar's headers are read once for each buffer it comes in (its entries
 * kept in a WeakMap keyed by the ArrayBuffer, which this Blob hands out the same each time): each
 * open copies each file's bytes out of those entries, and the file system owns the copy, so no
 * copy's writes reach another.
 */
export class TarBlob extends Blob {
  readonly #bytes: Uint8Array<ArrayBuffer>

  constructor(bytes: Uint8Array) {
    super([])
    // A Buffer may be a window on a larger shared one (Node's pool): then the tar gets its own.
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    this.#bytes = whole && bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : bytes.slice()
  }

  override get size(): number {
    return this.#bytes.byteLength
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes.buffer)
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return Promise.resolve(this.#bytes.slice())
  }

  override slice(start?: number, end?: number, contentType?: string): Blob {
    return new Blob([this.#bytes.slice(start, end)], { type: contentType })
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return new Blob([this.#bytes]).stream()
  }

  override text(): Promise<string> {
    return Promise.resolve(new TextDecoder().decode(this.#bytes))
  }
}
