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
 * `loadTar`). It resolved each file's path in its file system several times (whether each folder on
 * it existed, then the open, the create and the times: some 6,000 path lookups for 1,189 files),
 * parsed the tar's headers at every load, and copied each file's bytes twice. It now makes each
 * folder once and each file in its folder's node; keeps the entries untar read, in a WeakMap keyed
 * by the ArrayBuffer (which this Blob hands out the same each time), so a process parses a tar's
 * headers once; and copies each file's bytes out of those entries once a load, a copy the file
 * system then owns (`canOwn`), so no copy's writes reach another. An open of that seeded store
 * (`openEmbeddedStore({ copyOf })` twenty times, alternating): 0.41-0.46 CPU-s unpatched, 0.26-0.29
 * patched. A tar loaded once (the empty cluster, read from its file for each new database) still
 * has its bytes copied twice, as unpatched: into the entries kept, and into the file system's own.
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
