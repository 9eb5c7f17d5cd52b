import { existsSync } from 'node:fs'
import path from 'node:path'
import { repoRoot } from './paths.ts'

/** Loads the repository's .env into process.env (values already set win), if there is one. */
export function loadDotEnv(file = path.join(repoRoot, '.env')): void {
  if (existsSync(file)) process.loadEnvFile(file)
}
