import { createRequire } from 'node:module'
import { readFile } from 'node:fs/promises'
import { beforeAll, describe, expect, test } from 'vitest'
import { phone, useSite } from '../support/site-session.ts'

const site = useSite()
const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface Violation {
  id: string
  help: string
  nodes: Array<{ target: string[] }>
}

/** Runs axe (WCAG 2 A and AA) on a page of the site and lists what it finds. */
async function audit(path: string, viewport?: { width: number; height: number }): Promise<string[]> {
  const { page } = await site.open(path, viewport ? { viewport } : {})
  await page.addScriptTag({ content: await axeSource })
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (options: object) => Promise<{ violations: Violation[] }> } }).axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })
    return result.violations
  })
  return violations.map((v) => `${path}: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

let pages: string[]

beforeAll(async () => {
  const xml = await (await fetch(site.url('/sitemap.xml'))).text()
  pages = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname)
})

describe('accessibility', () => {
  test('every page of the sitemap passes an axe audit', async () => {
    const found: string[] = []
    for (const path of pages) found.push(...(await audit(path)))
    expect(pages.length).toBeGreaterThan(40)
    expect(found).toEqual([])
  }, 240_000)

  test('the 404 page, a filtered businesses list and the phone menu pass an axe audit', async () => {
    expect([
      ...(await audit('/no-such-page')),
      ...(await audit('/businesses?q=zzz')),
      ...(await audit('/', phone)),
    ]).toEqual([])
  })
})
