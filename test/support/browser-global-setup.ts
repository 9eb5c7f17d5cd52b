import { ensureChromium, ensureHeadlessShell, type FoundChromium } from './browser.ts'

// Both test projects list this setup; the first to run looks (and installs when it must), the
// other reuses its answer, so a run installs a browser at most once.
const once = Symbol.for('roland.test.chromium')
const state = globalThis as { [once]?: FoundChromium }

/**
 * Makes sure the browser tests have a Chrome or Chromium before any worker starts: finds one, or
 * installs one, or stops the run with one message saying what to run; and, where it can, the
 * headless shell they run in (the full browser is still wanted: Lighthouse runs in it).
 */
export default function setup() {
  if (state[once]) return
  state[once] = ensureChromium()
  ensureHeadlessShell()
}
