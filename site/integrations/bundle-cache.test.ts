import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import type { AstroIntegrationLogger } from 'astro'
import { bundleCache, bundleKey, writeNames, type AstroSettingsSeen, type Names } from './bundle-cache.ts'

// What a kept bundle is keyed by: a build reuses one only when nothing it was made of has changed.
// (That a reused bundle gives the site a fresh one does is test/site/incremental-build.test.ts's
// last test; the site's tests build with bundles reused.)

let root: string

const settingsIn = (outDir: string, define: Record<string, unknown> = {}): AstroSettingsSeen => {
  const url = (dir: string) => pathToFileURL(`${path.join(root, dir)}/`)
  return {
    config: {
      root: url('.'),
      srcDir: url('site'),
      publicDir: url('site/public'),
      outDir: url(outDir),
      cacheDir: url(`${outDir}.cache`),
      site: 'http://127.0.0.1:4321',
      base: '/',
      trailingSlash: 'ignore',
      compressHTML: true,
      build: {
        client: url(`${outDir}/client`),
        server: url(`${outDir}/server`),
        format: 'directory',
        assets: '_astro',
        inlineStylesheets: 'auto',
      },
      vite: { define },
    },
  }
}

const write = async (file: string, text: string) => {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true })
  await writeFile(path.join(root, file), text)
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-bundle-key-'))
  await write('astro.config.mjs', 'export default {}')
  await write('pnpm-lock.yaml', 'lockfileVersion: 9.0')
  await write('site/pages/index.astro', '<h1>Roland</h1>')
  await write('scripts/src/text/index.ts', 'export const a = 1')
  await write('patches/astro@7.3.5.patch', 'diff')
})

afterEach(async () => {
  vi.unstubAllEnvs()
  await rm(root, { recursive: true, force: true })
})

test('is the same for the same code and settings, whatever folder the site is built into', async () => {
  const key = await bundleKey(settingsIn('dist'))
  expect(key).toMatch(/^[0-9a-f]{64}$/)
  expect(await bundleKey(settingsIn('dist'))).toBe(key)
  expect(await bundleKey(settingsIn('elsewhere/site'))).toBe(key)
})

test.each([
  ['a page', 'site/pages/index.astro', '<h1>Roland, Arkansas</h1>'],
  ['a new file of the site', 'site/lib/new.ts', 'export {}'],
  ['a file the site no longer has', 'site/pages/index.astro', null],
  ['code the site imports from scripts/', 'scripts/src/text/index.ts', 'export const a = 2'],
  ["Astro's config", 'astro.config.mjs', 'export default { site: "x" }'],
  ['the packages installed', 'pnpm-lock.yaml', 'lockfileVersion: 9.1'],
  ['the patch of a package', 'patches/astro@7.3.5.patch', 'diff 2'],
])('changes with %s', async (_, file, text) => {
  const key = await bundleKey(settingsIn('dist'))
  if (text === null) await rm(path.join(root, file))
  else await write(file, text)
  expect(await bundleKey(settingsIn('dist'))).not.toBe(key)
})

test('is the same when only a test or a README changes: neither is part of the bundle', async () => {
  const key = await bundleKey(settingsIn('dist'))
  await write('site/lib/links.test.ts', "test('a link', () => {})")
  await write('scripts/src/text/index.test.ts', "test('a text', () => {})")
  await write('site/README.md', '# site/\n\nWhere things are.\n')
  expect(await bundleKey(settingsIn('dist'))).toBe(key)
})

test('changes with what the code is given: a public variable, NODE_ENV, a value written into it', async () => {
  const key = await bundleKey(settingsIn('dist'))
  vi.stubEnv('PUBLIC_SUBMISSIONS_URL', 'http://127.0.0.1:8787/api/public/submissions')
  const withPublic = await bundleKey(settingsIn('dist'))
  expect(withPublic).not.toBe(key)
  vi.stubEnv('NODE_ENV', 'development')
  expect(await bundleKey(settingsIn('dist'))).not.toBe(withPublic)
  vi.unstubAllEnvs()
  expect(await bundleKey(settingsIn('dist', { __ROLAND_SUBMISSIONS__: '{"url":"x"}' }))).not.toBe(key)
  expect(await bundleKey(settingsIn('dist'))).toBe(key)
})

test('is the same for another site address, unless the code holds that address', async () => {
  const at = (site: string) => {
    const settings = settingsIn('dist')
    settings.config.site = site
    return bundleKey(settings)
  }
  const key = await at('http://127.0.0.1:4321')
  expect(await at('http://127.0.0.1:38211')).toBe(key)
  await write('site/lib/links.ts', "export const home = 'http://127.0.0.1:38211'")
  const holding = await at('http://127.0.0.1:38211')
  expect(holding).not.toBe(await at('http://127.0.0.1:4321'))
})

test("writes a build's folders and address in place of those the kept bundle has, each by what it is", async () => {
  const bundle = path.join(root, 'prerender')
  await mkdir(path.join(bundle, 'chunks'), { recursive: true })
  // Kept by a test's build (its folders all under one), used by `pnpm build` (dist/, node_modules/.astro/).
  const was: Names = {
    folders: {
      client: 'file:///tmp/t/site/client/',
      server: 'file:///tmp/t/site/server/',
      outDir: 'file:///tmp/t/site/',
      cacheDir: 'file:///tmp/t/site.cache/',
    },
    site: 'http://127.0.0.1:38211',
  }
  const now: Names = {
    folders: {
      client: 'file:///repo/dist/client/',
      server: 'file:///repo/dist/server/',
      outDir: 'file:///repo/dist/',
      cacheDir: 'file:///repo/node_modules/.astro/',
    },
    site: 'https://roland.example',
  }
  const manifest = (names: Names) =>
    `const manifest = ${JSON.stringify({ ...names.folders, site: names.site, page: `${names.folders.outDir}about/index.html` })};\n` +
    `const site = new URL("${names.site}"); const docs = "see ${names.site}/about";\n`
  await writeFile(path.join(bundle, 'entry.mjs'), manifest(was))
  await writeFile(path.join(bundle, 'chunks', 'page.mjs'), `export const s = '${was.site}'`)
  await writeFile(path.join(bundle, 'notes.txt'), was.folders.outDir)
  await writeNames(bundle, was, now)
  const written = await readFile(path.join(bundle, 'entry.mjs'), 'utf8')
  // The address in a longer string is not the site's: only whole strings are.
  expect(written).toBe(manifest(now).replace(`see ${now.site}/about`, `see ${was.site}/about`))
  expect(await readFile(path.join(bundle, 'chunks', 'page.mjs'), 'utf8')).toBe(`export const s = '${now.site}'`)
  expect(await readFile(path.join(bundle, 'notes.txt'), 'utf8')).toBe(was.folders.outDir)
})

/** What Astro's patched build calls (static-build.js): the cache in its slot, once the integration has set up. */
interface Slot {
  restore(call: object): Promise<boolean>
  save(call: object): Promise<void>
}

/** The integration set up for a build, as Astro does: its slot, and the Vite plugin it adds. */
async function setUpBuild() {
  const warnings: string[] = []
  const plugins: Array<{ configResolved(config: { isProduction: boolean }): void }> = []
  const setup = bundleCache().hooks['astro:config:setup'] as (options: object) => Promise<void> | void
  await setup({
    command: 'build',
    logger: { warn: (line: string) => warnings.push(line), info: () => {} } as unknown as AstroIntegrationLogger,
    updateConfig: (config: { vite: { plugins: typeof plugins } }) => plugins.push(...config.vite.plugins),
  })
  const slot = (globalThis as Record<symbol, Slot>)[Symbol.for('astro.build.bundle-cache')]!
  return {
    slot,
    warnings,
    resolved: (isProduction: boolean) => plugins.forEach((p) => p.configResolved({ isProduction })),
  }
}

test('keeps only a bundle Vite made for production: one made for development is bundled again', async () => {
  const settings = settingsIn('dist')
  const prerenderOutputDir = pathToFileURL(`${path.join(root, 'dist', '.prerender')}/`)
  await mkdir(path.join(root, 'dist', '.prerender'), { recursive: true })
  await writeFile(path.join(root, 'dist', '.prerender', 'entry.mjs'), 'export const dev = false')
  await write('dist/_astro/island.js', 'export {}')
  const internals = () => ({
    prerenderEntryFileName: 'entry.mjs',
    entrySpecifierToBundleMap: new Map<string, string>(),
    pagesByKeys: new Map([['page:index', { styles: [] }]]),
  })
  const call = (made = internals()) => ({
    settings,
    internals: made,
    prerenderOutputDir,
    clientDir: settings.config.outDir,
  })
  const kept = () => readdir(path.join(root, 'node_modules', '.cache', 'roland-site-bundle')).catch(() => [])

  // NODE_ENV other than 'production' as Vite read its config: import.meta.env.DEV was true in that bundle.
  let build = await setUpBuild()
  expect(await build.slot.restore(call())).toBe(false)
  build.resolved(false)
  await build.slot.save({ ...call(), clientFiles: ['_astro/island.js'] })
  expect(await kept()).toEqual([])
  expect(build.warnings.join('\n')).toMatch(/not kept: Vite bundled for development/)

  build = await setUpBuild()
  expect(await build.slot.restore(call())).toBe(false)
  build.resolved(true)
  await build.slot.save({ ...call(), clientFiles: ['_astro/island.js'] })
  expect(await kept()).toHaveLength(1)
  expect(build.warnings).toEqual([])
  build = await setUpBuild()
  const made = internals()
  expect(await build.slot.restore(call(made))).toBe(true)
  expect(made.prerenderEntryFileName).toBe('entry.mjs')
})
