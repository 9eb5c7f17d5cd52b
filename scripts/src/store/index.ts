import { rm } from 'node:fs/promises'
import path from 'node:path'
import { markInterruptedJobs } from '../jobs/interrupted.ts'
import { dataDir } from '../paths.ts'
import { openEmbeddedStore } from './embedded.ts'
import type { SupabaseSettings } from './supabase.ts'
import { StoreError, type Store } from './types.ts'

export type { Store } from './types.ts'

/** Hook run once when the embedded database is first created (loads the sample Roland.txt). */
export type OnCreate = (store: Store) => Promise<void>

/**
 * Reads the Supabase settings from the environment, or null for the embedded store.
 * Accepts the new key names (publishable/secret) and the legacy ones (anon/service_role).
 */
export function supabaseSettings(env: NodeJS.ProcessEnv = process.env): SupabaseSettings | null {
  const url = env.SUPABASE_URL?.trim()
  if (!url) return null
  if (!/^https?:\/\/[^\s/]+/.test(url)) {
    throw new StoreError(
      `SUPABASE_URL is not a URL: "${url}". Use the Project URL from the Supabase dashboard, e.g. https://abcd.supabase.co.`,
    )
  }
  const publicKey = (env.SUPABASE_PUBLISHABLE_KEY ?? env.SUPABASE_ANON_KEY)?.trim()
  const secretKey = (env.SUPABASE_SECRET_KEY ?? env.SUPABASE_SERVICE_ROLE_KEY)?.trim() || null
  if (!publicKey) {
    throw new StoreError(
      'SUPABASE_URL is set but SUPABASE_PUBLISHABLE_KEY (or the legacy SUPABASE_ANON_KEY) is missing: ' +
        'add it to .env (see .env.example), or unset SUPABASE_URL to use the embedded store.',
    )
  }
  return { url: url.replace(/\/+$/, ''), publicKey, secretKey }
}

/** Opens the store the environment asks for: Supabase when SUPABASE_URL is set, else embedded. */
export async function openStore(options: { env?: NodeJS.ProcessEnv; onCreate?: OnCreate } = {}): Promise<Store> {
  const env = options.env ?? process.env
  const settings = supabaseSettings(env)
  if (settings) {
    // Loaded only here: a build or a job on the embedded store never needs supabase-js.
    const { openSupabaseStore } = await import('./supabase.ts')
    const store = openSupabaseStore(settings)
    // Only the secret key may read the job history; a store that cannot leaves it to one that can.
    if (settings.secretKey) await markInterruptedJobs(store).catch(() => {})
    return store
  }
  const dir = dataDir(env)
  const store = await openEmbeddedStore({ dir })
  if (store.created && options.onCreate) {
    try {
      await options.onCreate(store)
    } catch (error) {
      // A half-made database would never be filled on a later open: start over next time.
      await store.close()
      await rm(path.join(dir, 'db'), { recursive: true, force: true })
      throw error
    }
  }
  // The jobs of a process that died (killed mid-job) say so from the next start on (DESIGN.md, "Backups and crashes").
  await markInterruptedJobs(store)
  return store
}
