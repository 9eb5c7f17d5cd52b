import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { repoRoot } from '@roland/scripts/paths'

const astroBin = path.join(path.dirname(createRequire(import.meta.url).resolve('astro/package.json')), 'bin', 'astro.mjs')

/** How a build ended: its exit code and everything it printed. */
export interface BuildResult {
  code: number | null
  output: string
}

/**
 * Runs `astro build` for the repository's site in a child process, reading the catalog from the
 * embedded store in dataDir (or from the environment given) and writing into outDir.
 */
export function buildSite(options: { outDir: string; dataDir?: string; siteUrl?: string; env?: NodeJS.ProcessEnv }): Promise<BuildResult> {
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
    const child = spawn(process.execPath, [astroBin, 'build'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}
