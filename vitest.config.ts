import { configDefaults, defineConfig } from 'vitest/config'

const siteEndToEnd = 'test/site/**/*.test.ts'
// Finds (or installs, once) the Chromium the browser tests drive, before any worker starts.
const browserSetup = 'test/support/browser-global-setup.ts'

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 240_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['scripts/**/*.test.ts', 'console/**/*.test.ts', 'site/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, siteEndToEnd],
          globalSetup: [browserSetup],
        },
      },
      {
        // The built site in a real Chromium: the site is built once, from a fixture catalog, for this project only.
        extends: true,
        test: {
          name: 'site',
          include: [siteEndToEnd],
          globalSetup: [browserSetup, 'test/support/site-global-setup.ts'],
        },
      },
    ],
  },
})
