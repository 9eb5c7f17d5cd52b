import { hash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
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

interface Kept {
  code: string
  entries: string[]
  manifest: SearchIndexFiles['manifest']
  files: SearchIndexFiles['files']
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

/** The index kept by the last build, or null (none, or one not to be trusted: see above). */
export function readKeptIndex(file: string): LastSearchIndex | null {
  try {
    const kept = deserialize(readFileSync(file)) as Partial<Kept>
    if (kept.code !== indexCodeKey() || !Array.isArray(kept.entries) || !(kept.files instanceof Map) || !kept.manifest)
      return null
    return { entries: kept.entries, index: { manifest: kept.manifest, files: kept.files, cardFiles: new Map() } }
  } catch {
    return null
  }
}

/** Keeps an index and its entries (as JSON) for the next build; a failure to keep it loses nothing. */
export function keepIndex(file: string, entries: string[], index: SearchIndexFiles): void {
  const temporary = `${file}.${process.pid}-${threadId}.tmp`
  try {
    mkdirSync(path.dirname(file), { recursive: true })
    const kept: Kept = { code: indexCodeKey(), entries, manifest: index.manifest, files: index.files }
    writeFileSync(temporary, serialize(kept))
    renameSync(temporary, file)
  } catch {
    rmSync(temporary, { force: true })
  }
}
