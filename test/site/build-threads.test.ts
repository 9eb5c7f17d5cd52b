import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { buildSite, type BuildResult } from '../support/build-site.ts'
import { addBusinesses, numberedBusinesses } from '../support/catalog-changes.ts'
import { copyFixtureDataDir } from '../support/fixture-data-dir.ts'

// A build renders its pages on two threads (site/integrations/build-thread.ts): the second reads
// the catalog and renders a share of the pages from its own copy of Astro's prerender bundle. The
// site must be the same, byte for byte, as the one a build on one thread writes.

let root: string
let dataDir: string
let shared: BuildResult
let single: BuildResult
let usual: BuildResult

async function build(name: string, env: NodeJS.ProcessEnv = {}): Promise<BuildResult> {
  const result = await buildSite({ outDir: path.join(root, name), dataDir, env })
  if (result.code !== 0) throw new Error(`The site did not build (exit ${result.code}):\n${result.output.slice(-3000)}`)
  return result
}

async function filesOf(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      files.set(
        path.relative(dir, path.join(entry.parentPath, entry.name)),
        await readFile(path.join(entry.parentPath, entry.name)),
      )
  }
  return files
}

/** The moment a calendar was made (DTSTAMP) is the only line two builds may differ in. */
const withoutTimeStamps = (file: string, content: Buffer) =>
  file.endsWith('.ics') ? content.toString('utf8').replace(/^DTSTAMP:.*$/gm, 'DTSTAMP:') : content.toString('base64')

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-threads-'))
  dataDir = path.join(root, 'data')
  copyFixtureDataDir(dataDir)
  // Enough pages that both threads render many: two pages of the list, and a page per business.
  await addBusinesses(dataDir, numberedBusinesses('Ozark Shop', 40))
  // The second thread takes its share from the first page (by default it starts only after
  // threadAfterPages pages, and then takes pages once it has loaded: a site this small may get none there).
  shared = await build('shared', { ROLAND_BUILD_THREADS: '2' })
  single = await build('single', { ROLAND_BUILD_THREADS: '1' })
  // As every build runs: the second thread starts late (threadAfterPages), if at all for a site this small.
  usual = await build('usual')
  // Three builds: about 110 s in a whole run of the suite, over 240 s (the suite's hook limit) on a loaded machine.
}, 600_000)

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

test('a build renders pages on its second thread, and says how many', () => {
  const said = shared.output.match(/rendered (\d+) of (\d+) pages on the second thread/)
  expect(said, shared.output.slice(-2000)).not.toBeNull()
  const [onThread, all] = [Number(said![1]), Number(said![2])]
  expect(onThread).toBeGreaterThan(0)
  expect(onThread).toBeLessThanOrEqual(all)
})

test('a build as every build runs (its second thread started late, or not at all) gives the same site, without a warning', async () => {
  expect(usual.output).not.toMatch(/could not load|second thread stopped/)
  const [byDefault, one] = await Promise.all([filesOf(path.join(root, 'usual')), filesOf(path.join(root, 'single'))])
  expect([...byDefault.keys()].sort()).toEqual([...one.keys()].sort())
  const differing = [...byDefault].filter(
    ([file, content]) => withoutTimeStamps(file, content) !== withoutTimeStamps(file, one.get(file)!),
  )
  expect(differing.map(([file]) => file)).toEqual([])
})

test('with ROLAND_BUILD_THREADS=1 every page renders on the main thread', () => {
  expect(single.output).not.toMatch(/on the second thread/)
})

test('the site built on two threads is the site built on one, byte for byte', async () => {
  const [two, one] = await Promise.all([filesOf(path.join(root, 'shared')), filesOf(path.join(root, 'single'))])
  expect([...two.keys()].sort()).toEqual([...one.keys()].sort())
  const differing = [...two].filter(
    ([file, content]) => withoutTimeStamps(file, content) !== withoutTimeStamps(file, one.get(file)!),
  )
  expect(differing.map(([file]) => file)).toEqual([])
  // The business pages are most of the site, and the second thread renders most of them.
  expect([...two.keys()].filter((file) => file.startsWith('business/')).length).toBeGreaterThan(40)
})
