import type { AstroIntegration } from 'astro'
import { submissionSettings } from '../lib/submission-settings.ts'

declare global {
  /**
   * The suggestion forms' endpoint, key and Turnstile site key as the build read them
   * (lib/submission-settings.ts), or null: pages then keep the mailto links. Written into the
   * code by this integration, so a page carries none of it in its HTML.
   */
  const __ROLAND_SUBMISSIONS__: import('../lib/submission-settings.ts').SubmissionSettings | null
}

/** Reads the submissions endpoint once per build and hands it to the pages and the form islands. */
export function submissions(): AstroIntegration {
  return {
    name: 'roland:submissions',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({ vite: { define: { __ROLAND_SUBMISSIONS__: JSON.stringify(submissionSettings()) } } })
      },
    },
  }
}
