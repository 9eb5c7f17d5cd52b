import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sitePathOf } from './build-site.ts'
import { checkBuiltSite } from './html-checker.ts'

const page = (head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A page</title>${head}</head><body>${body}</body></html>`

describe('the Nu HTML checker over a built site', () => {
  let root: string
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'roland-html-checker-'))
    await mkdir(path.join(root, 'business', 'a-cafe'), { recursive: true })
    await writeFile(
      path.join(root, 'index.html'),
      page('<link rel="expect" href="#main" blocking="render">', '<main id="main"><p>Hello</p></main>'),
    )
    await writeFile(
      path.join(root, 'business', 'a-cafe', 'index.html'),
      page(
        '<link rel="preload" href="/a.css" as="style" blocking="render">',
        '<div>\n<span><h3>A heading in a span</h3></span></div>',
      ),
    )
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  test(
    'reports each error with its page and line, and passes the expect link the standard allows',
    { timeout: 120_000 },
    async () => {
      const errors = await checkBuiltSite(root)
      expect(errors.map(({ page, line }) => `${page}:${line}`)).toEqual(
        expect.arrayContaining(['/business/a-cafe:1', '/business/a-cafe:2']),
      )
      // The blocking attribute on anything but an expect link (or a stylesheet) is still an error.
      expect(errors.some((error) => error.message.includes('“blocking” attribute'))).toBe(true)
      expect(errors.some((error) => error.message.includes('“h3” not allowed as child of element “span”'))).toBe(true)
      expect(errors.filter((error) => error.page === '/')).toEqual([])
    },
  )

  test('names pages by their site path', () => {
    expect(sitePathOf('/out', '/out/index.html')).toBe('/')
    expect(sitePathOf('/out', '/out/business/a-cafe/index.html')).toBe('/business/a-cafe')
    expect(sitePathOf('/out', '/out/404.html')).toBe('/404')
  })
})
