import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { acquireLockFile } from '@roland/scripts/lock-file'

// `pnpm console` works from a fresh clone: the server builds the app (vite build) when
// console/dist is missing or older than its sources. Builds go to a temporary folder that
// replaces dist/ when complete; a lock file makes concurrent starts (parallel tests) build once.

/** The console package folder. */
export const consoleDir = fileURLToPath(new URL('../../', import.meta.url))

/** Where the built app lives. */
export const distDir = path.join(consoleDir, 'dist')

const stampFile = path.join(distDir, '.build-stamp.json')
const sources = [
  path.join(consoleDir, 'src', 'app'),
  path.join(consoleDir, 'src', 'shared'),
  path.join(consoleDir, 'vite.config.ts'),
  // The operator rules the app shares with the CLI (minimum password length, roles).
  path.join(consoleDir, '..', 'scripts', 'src', 'operators', 'schema.ts'),
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

/** Builds the app when it is missing or stale; returns whether it built. */
export function ensureAppBuilt(log: (message: string) => void = () => {}): Promise<boolean> {
  building ??= buildIfStale(log).finally(() => {
    building = null
  })
  return building
}

async function buildIfStale(log: (message: string) => void): Promise<boolean> {
  if (!(await appIsStale())) return false
  const release = await acquireLockFile(path.join(consoleDir, 'dist.lock'), { pollMs: 200 })
  try {
    // Another process may have built it while this one waited.
    if (!(await appIsStale())) return false
    log('Building the console app (vite build)…')
    const sourceMtimeMs = await newestSourceMtime()
    const outDir = path.join(consoleDir, `dist.tmp-${process.pid}`)
    const { build } = await import('vite')
    await build({
      configFile: path.join(consoleDir, 'vite.config.ts'),
      build: { outDir, emptyOutDir: true },
      logLevel: 'warn',
    })
    await writeFile(path.join(outDir, '.build-stamp.json'), JSON.stringify({ sourceMtimeMs }))
    await rm(distDir, { recursive: true, force: true })
    await rename(outDir, distDir)
    return true
  } finally {
    await release()
  }
}
