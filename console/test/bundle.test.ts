import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launchBrowser } from '../../test/support/browser.ts'
import { buildApp, ensureAppBuilt, type AppBuild } from '../src/server/build-app.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { startTestConsole, tempDataDir } from './support/console.ts'

// The console loads fast (issue 43): its app is split by screen, so a volunteer on a rural
// connection waits only for the sign-in screen's code before the form appears.

/** The most script, gzipped, the sign-in screen may load. */
const signInBudget = 90 * 1024

/** Vite's own limit for one chunk: above it, it warns. */
const chunkLimit = 500 * 1000

let data: Awaited<ReturnType<typeof tempDataDir>>
let server: ConsoleServer
let browser: Browser
let buildDir: string | undefined
let built: Promise<AppBuild> | undefined

/** The app built once into a temporary folder, for the tests that read what the build made. */
function build(): Promise<AppBuild> {
  built ??= mkdtemp(path.join(tmpdir(), 'roland-console-build-')).then((dir) => {
    buildDir = dir
    return buildApp(dir)
  })
  return built
}

// Chromium and the console share the machine with other suites: generous limits, never asserted.
const slow = { timeout: 240_000 }

beforeAll(async () => {
  await ensureAppBuilt()
  data = await tempDataDir('roland-console-bundle-')
  server = await startTestConsole({ dataDir: data.dir, serveApp: true })
  browser = await launchBrowser()
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await data?.remove()
  if (buildDir) await rm(buildDir, { recursive: true, force: true })
})

describe('the console app', () => {
  test('builds with no warning, into chunks of at most 500 kB, with a gzip copy of each', slow, async () => {
    const { files, warnings } = await build()
    expect(warnings).toEqual([])
    const scripts = files.filter((file) => file.file.endsWith('.js'))
    // One chunk per screen at least: the app is split, not one file.
    expect(scripts.length).toBeGreaterThan(10)
    expect(scripts.filter((file) => file.bytes > chunkLimit)).toEqual([])
    // React's production code, whatever NODE_ENV the build ran under (Vitest's is test).
    const entry = files.find((file) => /^assets\/index-.*\.js$/.test(file.file))!
    expect(await readFile(path.join(buildDir!, entry.file), 'utf8')).not.toContain('cannot be a child of')
    for (const file of files) expect(file.gzipBytes).toBeLessThan(file.bytes + 100)
  })

  test('loads the phone library (libphonenumber-js) only with the screens that edit phone numbers', slow, async () => {
    const { chunks } = await build()
    const byFile = new Map(chunks.map((chunk) => [chunk.file, chunk]))
    /** Whether a chunk, or a chunk it loads with it, holds libphonenumber-js. */
    const pullsPhones = (file: string, seen = new Set<string>()): boolean => {
      if (seen.has(file)) return false
      seen.add(file)
      const chunk = byFile.get(file)!
      return (
        chunk.modules.some((id) => id.includes('/node_modules/libphonenumber-js/')) ||
        chunk.imports.some((next) => pullsPhones(next, seen))
      )
    }
    const screens = chunks.filter((chunk) => chunk.facade?.includes('/console/src/app/screens/'))
    // Every screen the app lazy-loads is its own chunk.
    expect(screens.map((chunk) => chunk.name).sort()).toEqual(
      expect.arrayContaining(['Attractions', 'Businesses', 'Events', 'Inbox', 'Pages', 'Today', 'Town']),
    )
    // Businesses (a listing's phone), Town (the contact phone) and Pages (emergency numbers) edit
    // phone numbers; no other screen, nor the sign-in screen's entry, loads the library.
    const entry = chunks.find((chunk) => chunk.isEntry)!
    expect(pullsPhones(entry.file)).toBe(false)
    expect(
      screens
        .filter((chunk) => pullsPhones(chunk.file))
        .map((chunk) => chunk.name)
        .sort(),
    ).toEqual(['Businesses', 'Pages', 'Town'])
  })

  test('the sign-in screen loads at most 90 KB of script, gzip, and the browser gets it gzipped', slow, async () => {
    const page = await browser.newPage()
    try {
      const scripts: Array<{ url: string; encoding: string | undefined; bytes: Promise<number> }> = []
      page.on('response', (response) => {
        if (response.request().resourceType() !== 'script') return
        scripts.push({
          url: response.url(),
          encoding: response.headers()['content-encoding'],
          // What came over the wire: the body as sent, gzipped.
          bytes: response
            .request()
            .sizes()
            .then((sizes) => sizes.responseBodySize),
        })
      })
      await page.goto(`${server.url}/`, { waitUntil: 'networkidle' })
      await page.getByRole('button', { name: 'Sign in' }).waitFor()
      expect(scripts.length).toBeGreaterThan(0)
      expect(scripts.filter((script) => script.encoding !== 'gzip').map((script) => script.url)).toEqual([])
      const total = (await Promise.all(scripts.map((script) => script.bytes))).reduce((sum, bytes) => sum + bytes, 0)
      expect(total).toBeGreaterThan(0)
      expect(total, scripts.map((script) => script.url).join('\n')).toBeLessThanOrEqual(signInBudget)
    } finally {
      await page.close()
    }
  })
})
