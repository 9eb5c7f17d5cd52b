// Preloaded into a site build's process (node --import, by runAstroBuild in
// scripts/src/rebuild/rebuild.ts): starts reading the catalog on its thread as the process starts,
// while Astro loads its config, instead of after (build-thread.ts, catalogRead).
import { isMainThread } from 'node:worker_threads'
import { loadDotEnv } from '@roland/scripts/env'
import { catalogRead } from './build-thread.ts'

// Only the build's own thread reads (its threads start without preloads, but a thread started by
// anything else would inherit this one).
if (isMainThread) {
  // The reader's thread takes the environment as it is now: .env first, as astro.config.mjs reads it.
  loadDotEnv()
  void catalogRead()
}
