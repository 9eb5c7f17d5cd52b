import type { AstroIntegration } from 'astro'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { recordPhase } from '../lib/build-profile.ts'
import { restoredPrerenderEntry } from './bundle-cache.ts'
import { setCatalogSource, setSearchIndexSource } from '../lib/catalog-slot.ts'
import { BuildThread, defaultPrerenderer, oneThread, sharedPrerenderer, threadFromFirstPage } from './build-thread.ts'
import { catalogRead, searchIndexRead } from './catalog-read.ts'

/**
 * Gives the pages their catalog (lib/catalog-source.ts). A build reads it on a thread of its own
 * (catalog-read.ts), from the process's start (read-catalog-early.ts) or else as soon as Astro has
 * its config, so the read (about a second at 10,000 businesses, seven at 100,000) runs beside
 * Astro's bundling instead of before it; so does the search index the reader then makes of a big
 * catalog. It then renders on two threads: a build thread takes a share of a big site's pages, once
 * threadAfterPages have rendered here (none with ROLAND_BUILD_THREADS=1). `astro dev` reads the
 * catalog afresh for each request.
 */
export function siteCatalog(): AstroIntegration {
  // Holds no catalog: Astro's manifest in each build's prerender bundle keeps that build's Vite
  // config, and with it the plugin below and whatever its functions' scope holds, for as long as
  // the process runs (a module stays loaded). A process that builds again (build-server.ts) kept
  // each earlier build's catalog that way: 50 MB a build at 10,000 businesses.
  // The prerender bundle's entry file, as Vite writes it: the build thread loads its own copy.
  let prerenderEntry: string | null = null
  // The profile's marks (lib/build-profile.ts): Astro bundles the site, then renders the pages.
  let buildStartedAt = 0
  let bundledAt = 0
  return {
    name: 'roland:catalog',
    hooks: {
      'astro:config:setup': async ({ command, updateConfig }) => {
        // The store's code loads only for `astro dev`: a build reads the catalog on its own thread.
        if (command === 'dev') (await import('../lib/catalog-source.ts')).provideDevCatalog()
        if (command !== 'build') return
        provideBuildCatalog()
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'roland:prerender-entry',
                applyToEnvironment: (environment) => environment.name === 'prerender',
                writeBundle(options, bundle) {
                  const entry = Object.values(bundle).find(
                    (chunk) => chunk.type === 'chunk' && chunk.isEntry && chunk.fileName.startsWith('prerender-entry'),
                  )
                  if (entry && options.dir) prerenderEntry = pathToFileURL(path.join(options.dir, entry.fileName)).href
                  bundledAt = performance.now()
                  recordPhase('bundling (Vite)', bundledAt - buildStartedAt)
                },
              },
            ],
          },
        })
      },
      'astro:build:start': ({ setPrerenderer, logger }) => {
        buildStartedAt = performance.now()
        if (oneThread()) {
          setPrerenderer(defaultPrerenderer)
          return
        }
        const options = { waitForThread: threadFromFirstPage(), log: logger }
        setPrerenderer((base) =>
          sharedPrerenderer(
            base,
            () => new BuildThread(),
            () => prerenderEntry ?? restoredPrerenderEntry(),
            catalogRead(),
            options,
          ),
        )
      },
      'astro:build:generated': () => {
        recordPhase('page rendering (and writing)', performance.now() - (bundledAt || buildStartedAt))
      },
    },
  }
}

/**
 * Leaves the pages this build's catalog and search index (read on the reader's thread), in the
 * process's slots, which the next build replaces. The read is held here, in a scope of its own: in
 * the hook's, it would be kept with the hook's other functions (see siteCatalog).
 */
function provideBuildCatalog(): void {
  const read = catalogRead()
  setCatalogSource(() => read)
  setSearchIndexSource(searchIndexRead)
}
