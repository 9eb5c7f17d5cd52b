import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { runAstroBuild } from '@roland/scripts/rebuild/astro-build'

/** How a build ended: its exit code and everything it printed. */
export interface BuildResult {
  code: number | null
  output: string
}

/**
 * Runs `astro build` for the repository's site in a child process, the way the console's and the
 * CLI's rebuild does (runAstroBuild: a working directory of its own, so builds may run side by
 * side), reading the catalog from the embedded store in dataDir (or from the environment given)
 * and writing into outDir.
 */
export async function buildSite(options: {
  outDir: string
  dataDir?: string
  siteUrl?: string
  env?: NodeJS.ProcessEnv
}): Promise<BuildResult> {
  const env: NodeJS.ProcessEnv = {
    // Never a developer's Supabase project from .env: the embedded store unless a test says otherwise.
    SUPABASE_URL: '',
    ROLAND_OUT_DIR: options.outDir,
    ...(options.dataDir ? { ROLAND_DATA_DIR: options.dataDir } : {}),
    ...(options.siteUrl ? { SITE_URL: options.siteUrl } : {}),
    ASTRO_TELEMETRY_DISABLED: '1',
    ...options.env,
  }
  const lines: string[] = []
  // A test file builds site after site: each in the build's process the last one kept, where one is.
  const code = await runAstroBuild({ env, onLine: (line) => lines.push(line), reuse: true })
  return { code, output: lines.join('\n') }
}

/** The site path a built HTML file answers: index.html files by their folder, 404.html as /404. */
export function sitePathOf(outDir: string, file: string): string {
  const relative = path.relative(outDir, file).split(path.sep).join('/')
  return `/${relative.replace(/(^|\/)index\.html$/, '').replace(/\.html$/, '')}`
}

/** Every HTML file of a built site. */
export async function builtPages(outDir: string): Promise<string[]> {
  const entries = await readdir(outDir, { withFileTypes: true, recursive: true })
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort()
}
