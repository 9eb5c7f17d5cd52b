import type { AstroIntegration } from 'astro'
import { fileURLToPath } from 'node:url'

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrates the island when the visitor first opens a <details> inside it. */
    'client:open'?: boolean
  }
}

/** Adds the `client:open` directive (open-directive.ts): islands, such as the mobile menu, that wait to be opened. */
export function hydrateOnOpen(): AstroIntegration {
  return {
    name: 'roland:hydrate-on-open',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({
          name: 'open',
          entrypoint: fileURLToPath(new URL('./open-directive.ts', import.meta.url)),
        })
      },
    },
  }
}
