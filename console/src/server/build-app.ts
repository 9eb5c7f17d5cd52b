import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import { acquireLockFile } from '@roland/scripts/lock-file'

// `pnpm console` works from a fresh clone: the server builds the app (vite build) when
// console/dist is missing or older than its sources. Builds go to a temporary folder that
// replaces dist/ when complete; a lock file makes concurrent starts (parallel tests) build once.
// Each build prints its chunks' sizes (`pnpm console:build` builds and prints them on demand), and
// writes a gzip copy beside each text file, which the server sends to browsers that accept gzip.

/** The console package folder. */
export const consoleDir = fileURLToPath(new URL('../../', import.meta.url))

/** Where the built app lives. */
export const distDir = path.join(consoleDir, 'dist')

const stampFile = path.join(distDir, '.build-stamp.json')
const sources = [
  path.join(consoleDir, 'src', 'app'),
  path.join(consoleDir, 'src', 'shared'),
  path.join(consoleDir, 'vite.config.ts'),
  // How it is built.
  path.join(consoleDir, 'src', 'server', 'build-app.ts'),
  // What the app shares with the CLI and the site: the operator rules (minimum password length,
  // roles), the content schemas and town time, the kinds of finding.
  path.join(consoleDir, '..', 'scripts', 'src', 'operators', 'schema.ts'),
  path.join(consoleDir, '..', 'scripts', 'src', 'content'),
  path.join(consoleDir, '..', 'scripts', 'src', 'check', 'kinds.ts'),
]

async function newestSourceMtime(): Promise<number> {
  let newest = 0
  for (const source of sources) {
    const info = await stat(source).catch(() => null)
    if (!info) continue
    if (info.isFile()) {
      newest = Math.max(newest, info.mtimeMs)
      continue
    }
    for (const entry of await readdir(source, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile()) continue
      newest = Math.max(newest, (await stat(path.join(entry.parentPath, entry.name))).mtimeMs)
    }
  }
  return newest
}

async function builtFrom(): Promise<number | null> {
  try {
    const stamp = JSON.parse(await readFile(stampFile, 'utf8')) as { sourceMtimeMs?: number }
    return typeof stamp.sourceMtimeMs === 'number' ? stamp.sourceMtimeMs : null
  } catch {
    return null
  }
}

/** Says whether console/dist is missing or older than the app's sources. */
export async function appIsStale(): Promise<boolean> {
  const built = await builtFrom()
  return built === null || (await newestSourceMtime()) > built
}

let building: Promise<boolean> | null = null

/** Builds the app when it is missing or stale (or always, with `force`); returns whether it built. */
export function ensureAppBuilt(
  log: (message: string) => void = () => {},
  options: { force?: boolean } = {},
): Promise<boolean> {
  building ??= buildIfStale(log, options.force ?? false).finally(() => {
    building = null
  })
  return building
}

async function buildIfStale(log: (message: string) => void, force: boolean): Promise<boolean> {
  if (!force && !(await appIsStale())) return false
  const release = await acquireLockFile(path.join(consoleDir, 'dist.lock'), { pollMs: 200 })
  try {
    // Another process may have built it while this one waited.
    if (!force && !(await appIsStale())) return false
    log('Building the console app (vite build)…')
    const sourceMtimeMs = await newestSourceMtime()
    const outDir = path.join(consoleDir, `dist.tmp-${process.pid}`)
    const { files } = await buildApp(outDir, log)
    log(formatSizes(files))
    await writeFile(path.join(outDir, '.build-stamp.json'), JSON.stringify({ sourceMtimeMs }))
    await rm(distDir, { recursive: true, force: true })
    await rename(outDir, distDir)
    return true
  } finally {
    await release()
  }
}

/** A file of the built app, with its size as stored and gzipped (as the server sends it). */
export interface BuiltFile {
  /** Its path inside the output folder, with / separators (assets/index-….js). */
  file: string
  bytes: number
  gzipBytes: number
}

/** A script chunk of the built app: what it holds and which chunks it loads with it. */
export interface BuiltChunk {
  /** Its path inside the output folder (assets/Events-….js). */
  file: string
  /** Its name: a screen's module name (Events), or index for the entry. */
  name: string
  /** The source module it stands for (a screen's, the entry's), or null for a chunk of shared code. */
  facade: string | null
  /** Whether it is the entry: what index.html loads, before the sign-in screen shows. */
  isEntry: boolean
  /** The chunks it imports statically (their `file`): loaded with it, before it runs. */
  imports: string[]
  /** The source modules with code in it (absolute paths; a package's show its node_modules path). */
  modules: string[]
}

/** What a build made and what Vite warned about (nothing, when all is well). */
export interface AppBuild {
  files: BuiltFile[]
  chunks: BuiltChunk[]
  warnings: string[]
}

const gzipAsync = promisify(gzip)
const compressible = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt'])

/**
 * Builds the app into `outDir` (vite build) with a gzip copy of each text file beside it, and
 * answers the files' sizes and Vite's warnings (which also go to `log`).
 */
export async function buildApp(outDir: string, log: (message: string) => void = () => {}): Promise<AppBuild> {
  const { build, createLogger } = await import('vite')
  const warnings: string[] = []
  const logger = createLogger('warn')
  const warn = (message: string) => {
    warnings.push(message)
    log(message)
  }
  logger.warn = warn
  logger.warnOnce = warn
  // Vite bundles for process.env.NODE_ENV when it is set, before the mode: under Vitest (NODE_ENV
  // test) it would build React's development code, twice the size. The app is always built for production.
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  const chunks: BuiltChunk[] = []
  try {
    const output = await build({
      configFile: path.join(consoleDir, 'vite.config.ts'),
      mode: 'production',
      build: { outDir, emptyOutDir: true },
      customLogger: logger,
    })
    for (const result of Array.isArray(output) ? output : 'output' in output ? [output] : []) {
      for (const item of result.output) {
        if (item.type !== 'chunk') continue
        chunks.push({
          file: item.fileName,
          name: item.name,
          facade: item.facadeModuleId,
          isEntry: item.isEntry,
          imports: item.imports,
          // A module tree-shaken away to nothing is listed with no code: it does not count.
          modules: Object.entries(item.modules)
            .filter(([, module]) => module.renderedLength > 0)
            .map(([id]) => id),
        })
      }
    }
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  }
  const files: BuiltFile[] = []
  for (const entry of await readdir(outDir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !compressible.has(path.extname(entry.name))) continue
    const full = path.join(entry.parentPath, entry.name)
    const bytes = await readFile(full)
    const zipped = await gzipAsync(bytes, { level: 9 })
    await writeFile(`${full}.gz`, zipped)
    files.push({
      file: path.relative(outDir, full).split(path.sep).join('/'),
      bytes: bytes.length,
      gzipBytes: zipped.length,
    })
  }
  files.sort((a, b) => a.bytes - b.bytes)
  return { files, chunks, warnings }
}

/** The files of a build as a table: name, size, gzip size, largest last. */
export function formatSizes(files: readonly BuiltFile[]): string {
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`
  const width = Math.max(...files.map((file) => file.file.length))
  return files
    .map(
      (file) => `  ${file.file.padEnd(width)}  ${kb(file.bytes).padStart(10)}  gzip ${kb(file.gzipBytes).padStart(9)}`,
    )
    .join('\n')
}
