import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { supabaseDir } from '../paths.ts'
import type { Store } from '../store/types.ts'
import { rolandObjectPath, runMigration } from './job.ts'

/** The sample business list the embedded store starts with. */
export const sampleRolandFile = path.join(supabaseDir, 'Roland.txt')

/**
 * Fills a newly created embedded store: the sample Roland.txt goes into its 'files' bucket
 * (where the console's migration reads it) and is imported from there.
 */
export async function loadSampleData(store: Store): Promise<void> {
  await store.files.put(rolandObjectPath, new Uint8Array(await readFile(sampleRolandFile)), {
    contentType: 'text/plain; charset=utf-8',
    upsert: true,
  })
  await runMigration({ store, source: { bucket: true }, startedBy: 'setup' })
}
