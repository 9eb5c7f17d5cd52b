import type { AstroIntegration } from 'astro'
import { fileURLToPath } from 'node:url'

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrates the island when the visitor first opens a <details> inside it. */
    'client:open'?: boolean
    /** Hydrates the island when the visitor first focuses or taps inside it. */
    'client:interact'?: boolean
  }
}

/** The site's own client directives, each a module beside this file: when an island waits to hydrate. */
const directives = {
  /** Islands that wait to be opened: the mobile menu. */
  open: './open-directive.ts',
  /** Islands that wait to be touched: the "Notify me" form. */
  interact: './interact-directive.ts',
}

/** Adds the site's client directive, `client:open`. */
export function clientDirectives(): AstroIntegration {
  return {
    name: 'roland:client-directives',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        for (const [name, module] of Object.entries(directives)) {
          addClientDirective({ name, entrypoint: fileURLToPath(new URL(module, import.meta.url)) })
        }
      },
    },
  }
}
