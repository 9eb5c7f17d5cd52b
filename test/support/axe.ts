import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface Violation {
  id: string
  help: string
  nodes: Array<{ target: string[] }>
}

/** Runs axe (WCAG 2.0 and 2.1, A and AA) on the page as it stands and describes each violation in a line. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: await axeSource })
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
