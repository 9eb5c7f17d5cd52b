import type { AstroIntegration } from 'astro'
import { fileURLToPath } from 'node:url'

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrates the island when the visitor starts to search; the value is the search index to fetch with it. */
    'client:search'?: string
  }
}

/** Adds the `client:search` directive (search-directive.ts): islands that wait for a search. */
export function searchOnDemand(): AstroIntegration {
  return {
    name: 'roland:search-on-demand',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({
          name: 'search',
          entrypoint: fileURLToPath(new URL('./search-directive.ts', import.meta.url)),
        })
      },
    },
  }
}
