import type { AstroIntegration } from 'astro'
import { provideCatalog } from '../lib/catalog-source.ts'

/**
 * Gives the pages their catalog (lib/catalog-source.ts, provideCatalog). A build starts reading it
 * as soon as Astro has its config, so the pages find it read, or nearly, once Astro has bundled
 * them: the read (about a second at 10,000 businesses, seven at 100,000) overlaps the bundling.
 */
export function siteCatalog(): AstroIntegration {
  return {
    name: 'roland:catalog',
    hooks: {
      'astro:config:setup': ({ command }) => {
        if (command === 'build' || command === 'dev') provideCatalog(command)
      },
    },
  }
}
