import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { repoRoot } from '@roland/scripts/paths'

const astroBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve('astro/package.json')),
  'bin',
  'astro.mjs',
)

/** Where each build gets a working directory of its own (see buildSite). */
const buildsDir = path.join(repoRoot, '.astro', 'builds')

/** How a build ended: its exit code and everything it printed. */
export interface BuildResult {
  code: number | null
  output: string
}

/**
 * Runs `astro build` for the repository's site in a child process, reading the catalog from the
 * embedded store in dataDir (or from the environment given) and writing into outDir.
 *
 * Each build runs in a working directory of its own under the repository's .astro/ (the site still
 * comes from the repository, --root). Astro bundles the pages it pre-renders into `.astro/.prerender`
 * of the working directory when the output folder is outside it, and deletes that folder when done:
 * two builds sharing one would pull it from under each other's feet. (It must stay inside the
 * repository, where the bundle's imports of React and the rest resolve.)
 */
export function buildSite(options: {
  outDir: string
  dataDir?: string
  siteUrl?: string
  env?: NodeJS.ProcessEnv
}): Promise<BuildResult> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Never a developer's Supabase project from .env: the embedded store unless a test says otherwise.
    SUPABASE_URL: '',
    ROLAND_OUT_DIR: options.outDir,
    ...(options.dataDir ? { ROLAND_DATA_DIR: options.dataDir } : {}),
    ...(options.siteUrl ? { SITE_URL: options.siteUrl } : {}),
    ASTRO_TELEMETRY_DISABLED: '1',
    NO_COLOR: '1',
    ...options.env,
  }
  return new Promise((resolve, reject) => {
    mkdirSync(buildsDir, { recursive: true })
    const cwd = mkdtempSync(path.join(buildsDir, 'build-'))
    const child = spawn(process.execPath, [astroBin, 'build', '--root', repoRoot], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', (error) => {
      rmSync(cwd, { recursive: true, force: true })
      reject(error)
    })
    child.on('close', (code) => {
      rmSync(cwd, { recursive: true, force: true })
      resolve({ code, output })
    })
  })
}
