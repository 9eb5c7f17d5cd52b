// Preloaded into a site build's process (node --import, by runAstroBuild in
// scripts/src/rebuild/astro-build.ts): starts reading the catalog on its thread as the build starts,
// while Astro loads its config, instead of after (catalog-read.ts, catalogRead). A process on
// standby starts it once started (build-standby.ts), and meanwhile works on the catalog its rebuild
// hands it ahead (catalog-read.ts, readCatalogAhead).
import { isMainThread } from 'node:worker_threads'
import { loadDotEnv } from '@roland/scripts/env'
import { catalogRead, readCatalogAhead } from './catalog-read.ts'
import { buildStarted, loadedOnStandby, onCatalogAhead } from './build-standby.ts'

// Only the build's own thread reads (its threads start without preloads, but a thread started by
// anything else would inherit this one).
if (isMainThread) {
  onCatalogAhead((file) => readCatalogAhead(file, loadedOnStandby))
  void buildStarted().then(() => {
    // The reader's thread takes the environment as it is now: .env first, as astro.config.mjs reads it.
    loadDotEnv()
    void catalogRead()
  })
}
