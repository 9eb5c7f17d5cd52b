import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface Violation {
  id: string
  help: string
  nodes: Array<{ target: string[] }>
}

/**
 * Loads axe into every document the page opens from now on, for a page that audits many: sent to
 * Chromium once, instead of once a page (about 120 ms a page). It stays for the page's life.
 */
export async function preloadAxe(page: Page): Promise<void> {
  await page.addInitScript({ content: await axeSource })
}

// The WCAG rule sets every audit runs: 2.0 and 2.1, at A and AA.
const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

/**
 * Runs axe (WCAG 2.0 and 2.1, A and AA; with `bestPractice`, also axe's best-practice rules: one
 * h1, every piece of content in a landmark, …) on the page once its transitions have ended, and
 * describes each violation in a line.
 */
export async function axeViolations(page: Page, options: { bestPractice?: boolean } = {}): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: await axeSource })
  const tags = options.bestPractice ? [...wcagTags, 'best-practice'] : wcagTags
  const violations = await page.evaluate(async (values) => {
    // The page as it settles: a colour transition under way (a button enabled a moment ago, going
    // from grey to blue under its white text) has a contrast no one reads; its end is the page's.
    // Endless animations (a spinner) are audited as they stand.
    const ending = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
    await Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)))
    const axe = (window as unknown as { axe: { run: (options: object) => Promise<{ violations: Violation[] }> } }).axe
    const result = await axe.run({
      runOnly: { type: 'tag', values },
      // Only violations are read: axe then skips working out a selector for every element that passed.
      resultTypes: ['violations'],
    })
    return result.violations
  }, tags)
  return violations.map((v) => `${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}
