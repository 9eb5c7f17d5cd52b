import { fileURLToPath } from 'node:url'
import path from 'node:path'

/** The repository root, found from this file's place in scripts/src. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

/** The Supabase project folder: migrations, seed.sql, the sample Roland.txt. */
export const supabaseDir = path.join(repoRoot, 'supabase')

/** Where the embedded store keeps its database and files, unless ROLAND_DATA_DIR says otherwise. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.ROLAND_DATA_DIR ? path.resolve(env.ROLAND_DATA_DIR) : path.join(repoRoot, '.data')
}
