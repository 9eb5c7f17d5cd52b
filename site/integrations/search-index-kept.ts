import { hash } from 'node:crypto'
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import path from 'node:path'
import { threadId } from 'node:worker_threads'
import { deserialize, serialize } from 'node:v8'
import { repoRoot } from '@roland/scripts/paths'
import type { SearchIndexFiles } from '../lib/search-index.ts'
import type { LastSearchIndex } from '../lib/search-index-update.ts'

// The search index a build made, kept for the next build to update rather than make anew
// (site/lib/search-index-update.ts): in Astro's cache folder for the site (astro.config.mjs), one
// file, replaced whole once written. It is only ever a head start: a file that is missing, cut
// short, unreadable or written by other code is passed over, and the index made anew.

/** Astro's cache folder for a build (astro.config.mjs's cacheDir): beside a test's output folder, else node_modules/.astro. */
export function siteCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.ROLAND_OUT_DIR ? `${env.ROLAND_OUT_DIR}.cache` : './node_modules/.astro'
}

/** The file the index is kept in, for this build's site. */
export function keptIndexFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(path.resolve(repoRoot, siteCacheDir(env)), 'roland-search-index.v8')
}

// The code that turns the businesses' entries into the index's files: a kept index made by other
// code (another release, another Node and its Unicode tables) is not updated. The entries carry what
// the code that makes them does (a changed entry is updated like any other).
const indexCode = [
  'site/lib/search-index.ts',
  'site/lib/search-index-update.ts',
  'site/lib/search-shards.ts',
  'site/lib/build-cache.ts',
  'scripts/src/search/matcher.ts',
  'scripts/src/search/text.ts',
  'pnpm-lock.yaml',
]

let codeKey: string | undefined
function indexCodeKey(): string {
  codeKey ??= hash(
    'sha256',
    JSON.stringify([
      process.versions.node,
      process.versions.unicode,
      ...indexCode.map((file) => hash('sha256', readFileSync(path.join(repoRoot, file)))),
    ]),
  )
  return codeKey
}

// The file: records, each its length (4 bytes) and its value as V8 writes it (node:v8's serialize):
// a header (the code's key, the manifest, how many entries and files follow), then the entries'
// JSON and the files' names and JSON, a few thousand a record. At 100,000 businesses the index is
// 200 MB of text, which the build's thread holds already: written whole, it was held twice.

interface Header {
  code: string
  manifest: SearchIndexFiles['manifest']
  entries: number
  files: number
}

const perRecord = 2048

/** The index kept by the last build, or null (none, or one not to be trusted: see above). */
export function readKeptIndex(file: string): LastSearchIndex | null {
  try {
    const bytes = readFileSync(file)
    let at = 0
    const next = (): unknown => {
      const length = bytes.readUInt32LE(at)
      const value: unknown = deserialize(bytes.subarray(at + 4, at + 4 + length))
      at += 4 + length
      return value
    }
    const header = next() as Partial<Header>
    if (header.code !== indexCodeKey() || !header.manifest) return null
    const entries: string[] = []
    while (entries.length < header.entries!) entries.push(...(next() as string[]))
    const files = new Map<string, string>()
    while (files.size < header.files!)
      for (const [name, json] of next() as Array<[string, string]>) files.set(name, json)
    // Longer than it says, or another file's counts: not the file it says it is.
    if (at !== bytes.length || entries.length !== header.entries || files.size !== header.files) return null
    return { entries, index: { manifest: header.manifest, files, cardFiles: new Map() } }
  } catch {
    // Missing, cut short (a build ended while it wrote it), or unreadable.
    return null
  }
}

/** Keeps an index and its entries (as JSON) for the next build; a failure to keep it loses nothing. */
export function keepIndex(file: string, entries: readonly string[], index: SearchIndexFiles): void {
  const temporary = `${file}.${process.pid}-${threadId}.tmp`
  let fd: number | null = null
  try {
    mkdirSync(path.dirname(file), { recursive: true })
    removeLeftOvers(file)
    fd = openSync(temporary, 'w')
    const write = (value: unknown) => {
      const record = serialize(value)
      const length = Buffer.alloc(4)
      length.writeUInt32LE(record.length)
      writeSync(fd!, length)
      writeSync(fd!, record)
    }
    const header: Header = {
      code: indexCodeKey(),
      manifest: index.manifest,
      entries: entries.length,
      files: index.files.size,
    }
    write(header)
    for (let from = 0; from < entries.length; from += perRecord) write(entries.slice(from, from + perRecord))
    const files = [...index.files]
    for (let from = 0; from < files.length; from += perRecord) write(files.slice(from, from + perRecord))
    closeSync(fd)
    fd = null
    renameSync(temporary, file)
  } catch {
    try {
      if (fd !== null) closeSync(fd)
      rmSync(temporary, { force: true })
    } catch {
      // Nothing was written there, or it cannot be removed either.
    }
  }
}

/**
 * Removes what a build that ended while it kept its index left beside it: a temporary file not
 * written to for ten minutes (at 100,000 businesses, 100 MB; one being written is a second old).
 */
function removeLeftOvers(file: string): void {
  const folder = path.dirname(file)
  const prefix = `${path.basename(file)}.`
  for (const name of readdirSync(folder)) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue
    const left = path.join(folder, name)
    if (Date.now() - statSync(left).mtimeMs > leftOverMs) rmSync(left, { force: true })
  }
}

const leftOverMs = 10 * 60_000
