import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openEmbeddedStore } from '@roland/scripts/store/embedded'
import { buildSite } from '../support/build-site.ts'
import { copyFixtureDataDir } from '../support/fixture-data-dir.ts'

let root: string

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-build-failure-'))
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

/** An output folder holding a previously published site, to see whether a failed build touches it. */
async function publishedSite(name: string): Promise<string> {
  const outDir = path.join(root, name)
  await mkdir(outDir, { recursive: true })
  await writeFile(path.join(outDir, 'index.html'), '<h1>The site as it was</h1>')
  return outDir
}

async function expectUntouched(outDir: string) {
  await expect(readdir(outDir)).resolves.toEqual(['index.html'])
  await expect(readFile(path.join(outDir, 'index.html'), 'utf8')).resolves.toBe('<h1>The site as it was</h1>')
  expect(existsSync(`${outDir}.staging`)).toBe(false)
}

/** A port on 127.0.0.1 nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

// Each test runs a whole build's start in its own process: 25–35 s in a whole run of the suite, a
// minute on a loaded one, so each has more time than the suite's default.
describe('a build', { timeout: 240_000 }, () => {
  test('from a data source without active businesses fails with the loader message and leaves the published site as it was', async () => {
    const dataDir = path.join(root, 'empty-data')
    copyFixtureDataDir(dataDir)
    const store = await openEmbeddedStore({ dir: dataDir })
    await store.db.query('update businesses set is_active = false')
    await store.close()
    const outDir = await publishedSite('empty-out')
    const result = await buildSite({ outDir, dataDir })
    expect(result.code).not.toBe(0)
    expect(result.output).toContain(
      `the embedded database in ${dataDir} has no active businesses, so the site was not built`,
    )
    await expectUntouched(outDir)
  })

  test('from an unreachable Supabase fails with the loader message and writes no site at all', async () => {
    const port = await closedPort()
    const outDir = path.join(root, 'unreachable-out')
    const result = await buildSite({
      outDir,
      env: { SUPABASE_URL: `http://127.0.0.1:${port}`, SUPABASE_PUBLISHABLE_KEY: 'publishable-key-for-tests' },
    })
    expect(result.code).not.toBe(0)
    expect(result.output).toContain(`Could not read the catalog from Supabase at http://127.0.0.1:${port}`)
    expect(result.output).toContain('The site was not built.')
    expect(existsSync(outDir)).toBe(false)
    expect(existsSync(`${outDir}.staging`)).toBe(false)
  })

  // A build that fails while writing pages, with a published site before it: incremental-build.test.ts
  // ('a failed build, then a good one'), which has a real site to leave as it was.
})
