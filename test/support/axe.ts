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

/** Runs axe (WCAG 2.0 and 2.1, A and AA) on the page as it stands and describes each violation in a line. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: await axeSource })
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (options: object) => Promise<{ violations: Violation[] }> } }).axe
    const result = await axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      // Only violations are read: axe then skips working out a selector for every element that passed.
      resultTypes: ['violations'],
    })
    return result.violations
  })
  return violations.map((v) => `${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}
