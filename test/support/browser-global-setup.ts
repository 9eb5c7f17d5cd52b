import { ensureChromium, type FoundChromium } from './browser.ts'

// Both test projects list this setup; the first to run looks (and installs when it must), the
// other reuses its answer, so a run installs a browser at most once.
const once = Symbol.for('roland.test.chromium')
const state = globalThis as { [once]?: FoundChromium }

/**
 * Makes sure the browser tests have a Chrome or Chromium before any worker starts: finds one, or
 * installs one, or stops the run with one message saying what to run.
 */
export default function setup() {
  state[once] ??= ensureChromium()
}
