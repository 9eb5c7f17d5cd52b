import { chmod, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sitePathOf } from './build-site.ts'
import { checkBuiltSite, ensureJava, findJava, noJavaHelp } from './html-checker.ts'

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

describe('finding Java for the checker', () => {
  let root: string
  const fakeJava = async (dir: string) => {
    const file = path.join(root, dir, 'java')
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, '#!/bin/sh\nexit 0\n')
    await chmod(file, 0o755)
    return file
  }
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'roland-java-lookup-'))
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  test("takes JAVA_HOME's java before one on PATH", async () => {
    const home = await fakeJava('jdk/bin')
    const onPath = await fakeJava('usr/bin')
    expect(findJava({ JAVA_HOME: path.join(root, 'jdk'), PATH: path.dirname(onPath) })).toBe(home)
    expect(findJava({ PATH: path.dirname(onPath) })).toBe(onPath)
  })

  test('installs Java once when there is none, then finds it', async () => {
    const dir = path.join(root, 'later/bin')
    let installs = 0
    const found = ensureJava({ PATH: dir }, () => {
      installs++
      mkdirSync(dir, { recursive: true })
      writeFileSync(path.join(dir, 'java'), '#!/bin/sh\n', { mode: 0o755 })
      return undefined
    })
    expect(found).toBe(path.join(dir, 'java'))
    expect(installs).toBe(1)
  })

  test('stops with why the install failed and what to install', () => {
    expect(() => ensureJava({ PATH: path.join(root, 'nowhere') }, () => 'apt-get exited with 100')).toThrow(
      `No Java for the Nu HTML checker, and installing it failed (apt-get exited with 100). ${noJavaHelp}`,
    )
  })
})
