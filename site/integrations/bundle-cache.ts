// Astro's bundling of the site, kept and reused (issue 50). Every build bundled the site's code
// anew with Vite (1.5–2 s, most of both cores, of a rebuild at 10,000 businesses; a third of a test
// site's build), though a rebuild changes data, not code: the bundle of the same code, packages and
// settings is the same. So a build keeps what bundling left (the prerender bundle Astro renders the
// pages with, the browser's files, and what Astro noted of them) under the hash of all it came from,
// and a build whose hash matches copies that in place of bundling. Astro has no such cache: the
// repository's patch of it (patches/astro@*.patch, static-build.js) asks this one through a global
// slot, before it bundles and once it has.
//
// What the hash covers: every file of site/ and scripts/src/ but their tests (the site's code and
// what it imports of the project's), astro.config.mjs, the package files, the lockfile and the patches of packages,
// the settings of Astro's config that reach the bundle (Vite's `define`, the trailing slash…) and
// the environment the bundle reads (PUBLIC_*, NODE_ENV). A package edited by hand in node_modules
// is not seen: `ROLAND_BUNDLE_CACHE=0` bundles afresh (and keeps nothing).
//
// Entries live under node_modules/.cache/roland-site-bundle/, one folder per hash, written whole
// into a folder of their own and then renamed into place, so builds at once (the tests) never read
// half of one; the eight used last are kept. The bundle names the build's folders (its output, its
// cache) and the site's address (SITE_URL): a build into another folder, or for another address (each
// test site has its own), gets its own written in.
import type { AstroIntegration, AstroIntegrationLogger } from 'astro'
import { createHash } from 'node:crypto'
import { cpSync, existsSync } from 'node:fs'
import { readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { escapeRegExp } from '@roland/scripts/text/index'
import { recordPhase } from '../lib/build-profile.ts'
import { processSlot } from '@roland/scripts/process-slot'

/** The slot Astro's patched build reads (static-build.js). */
const slot = processSlot<{ restore: typeof restore; save: typeof save }>('astro.build.bundle-cache')

/** What Astro's patched build hands the cache. */
interface BundleCacheCall {
  settings: AstroSettingsSeen
  internals: BuildInternalsSeen
  prerenderOutputDir: URL
  clientDir: URL
}

interface SaveCall extends BundleCacheCall {
  /** The files bundling wrote into the output folder (relative to it). */
  clientFiles: string[]
}

/** What the cache reads of Astro's settings (astro/dist/types/astro.ts, AstroSettings). */
export interface AstroSettingsSeen {
  config: {
    root: URL
    srcDir: URL
    publicDir: URL
    outDir: URL
    cacheDir: URL
    site?: string
    base: string
    trailingSlash: string
    compressHTML: boolean
    build: { client: URL; server: URL; format: string; assets: string; inlineStylesheets: string }
    vite: { define?: Record<string, unknown> }
  }
}

interface PageStyle {
  sheet: unknown
}

/** What the cache keeps of Astro's build internals (astro/dist/core/build/types.ts): what rendering reads. */
interface BuildInternalsSeen {
  prerenderEntryFileName?: string
  pageDependencyHashes?: Map<string, string>
  contentEntryRenderHashes?: Map<string, string>
  serverIslandPageComponents?: Set<string>
  entrySpecifierToBundleMap: Map<string, string>
  pagesByKeys: Map<string, { styles: PageStyle[] }>
}

/**
 * The form of an entry: a change to what it holds changes this, and so every key. (4: only bundles
 * Vite made for production are kept, save; an entry of an earlier version may be one made otherwise.)
 */
const recordVersion = 4

/** An entry's record of what bundling left (record.json). */
interface BundleRecord {
  version: typeof recordVersion
  prerenderEntryFileName: string
  pageDependencyHashes: Array<[string, string]>
  contentEntryRenderHashes: Array<[string, string]>
  serverIslandPageComponents: string[]
  entrySpecifierToBundleMap: Array<[string, string]>
  pageStyles: Record<string, PageStyle[]>
  /** The folders and the address the bundle names, as the build that made it had them. */
  names: Names
}

// The tests build with a few settings (a suggestions endpoint of their own, another town's) beside the usual ones.
const keptEntries = 8

/** What the build's log says when it reused a bundle. */
export const reusedMessage = "the site's code is as when last bundled: its bundle reused, Vite not run"

const recordFile = 'record.json'

let log: AstroIntegrationLogger | null = null

/** The prerender bundle's entry when this build's bundle came from the cache (else Vite's writeBundle says). */
let restoredEntry: string | null = null
/**
 * This build's key, worked out before it bundles: a file edited while Vite bundles must not give
 * the bundle of the code before it the key of the code after.
 */
let keyBeforeBundling: string | null = null

/**
 * Whether Vite resolved this build's config for production (null: not resolved yet). Vite decides it
 * from NODE_ENV as it resolves, and writes it into the bundle: `import.meta.env.DEV` is true, and the
 * site's code takes its development branches (search-build.ts makes the search index on the pages'
 * thread, beside the catalog reader's), in a bundle made otherwise. The key reads NODE_ENV too, but
 * earlier: a bundle whose config said otherwise is not kept, whatever made it so.
 */
let viteProduction: boolean | null = null

/**
 * A hash of this build's code, its packages and the settings its bundle reads (bundleKey), known
 * once Astro is about to bundle; null when the cache is off (ROLAND_BUNDLE_CACHE=0). What a build
 * makes of its code alone (the service worker's script, the app's icons for a town) may be kept
 * under it.
 */
export function siteCodeKey(): string | null {
  return keyBeforeBundling
}

/** The prerender bundle's entry file (file: URL) when the bundle was restored rather than bundled. */
export function restoredPrerenderEntry(): string | null {
  return restoredEntry
}

/** The integration: puts the cache in Astro's slot for a build (none with ROLAND_BUNDLE_CACHE=0). */
export function bundleCache(): AstroIntegration {
  return {
    name: 'roland:bundle-cache',
    hooks: {
      'astro:config:setup': ({ command, logger, updateConfig }) => {
        // A process may build again (site/integrations/build-server.ts): nothing of the last build's.
        restoredEntry = null
        keyBeforeBundling = null
        viteProduction = null
        if (command !== 'build' || process.env.ROLAND_BUNDLE_CACHE === '0') {
          slot.set(undefined)
          return
        }
        log = logger
        slot.set({ restore, save })
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'roland:bundle-mode',
                configResolved(config: { isProduction: boolean }) {
                  viteProduction = config.isProduction
                },
              },
            ],
          },
        })
      },
    },
  }
}

/** What of this build the bundle names, besides its code. */
export interface Names {
  /** Its folders: the output (a page's file is named under it), its cache, the client and server folders. */
  folders: { client: string; server: string; outDir: string; cacheDir: string }
  /** The site's address (Astro.site, written into every page's module); '' when unset. */
  site: string
}

const namesOf = ({ config }: AstroSettingsSeen): Names => ({
  folders: {
    client: config.build.client.href,
    server: config.build.server.href,
    outDir: config.outDir.href,
    cacheDir: config.cacheDir.href,
  },
  site: config.site ?? '',
})

const cacheRoot = (settings: AstroSettingsSeen) =>
  path.join(fileURLToPath(settings.config.root), 'node_modules', '.cache', 'roland-site-bundle')

async function restore(call: BundleCacheCall): Promise<boolean> {
  const started = performance.now()
  keyBeforeBundling = await bundleKey(call.settings)
  const entry = path.join(cacheRoot(call.settings), keyBeforeBundling)
  let record: BundleRecord
  try {
    record = JSON.parse(await readFile(path.join(entry, recordFile), 'utf8')) as BundleRecord
  } catch {
    return false
  }
  const pages = [...call.internals.pagesByKeys.keys()].sort()
  if (
    record.version !== recordVersion ||
    JSON.stringify(pages) !== JSON.stringify(Object.keys(record.pageStyles).sort())
  )
    return false
  // Used now: the last to be pruned.
  const now = new Date()
  await utimes(entry, now, now).catch(() => {})
  const prerenderDir = fileURLToPath(call.prerenderOutputDir)
  const clientDir = fileURLToPath(call.clientDir)
  try {
    await rm(prerenderDir, { recursive: true, force: true })
    // Node's synchronous copy walks the folders in C++; fs/promises' cp takes a few promises a file
    // (an entry's 115 files and folders: 4 ms of CPU time instead of 33).
    cpSync(path.join(entry, 'prerender'), prerenderDir, { recursive: true })
    await writeNames(prerenderDir, record.names, namesOf(call.settings))
    // Vite copies the public folder into the output before it writes the browser's files.
    const publicDir = fileURLToPath(call.settings.config.publicDir)
    if (existsSync(publicDir)) cpSync(publicDir, clientDir, { recursive: true })
    cpSync(path.join(entry, 'client'), clientDir, { recursive: true })
  } catch {
    // Pruned by another build as this one copied it, say: this build bundles (into the same names).
    return false
  }
  const { internals } = call
  internals.prerenderEntryFileName = record.prerenderEntryFileName
  internals.pageDependencyHashes = new Map(record.pageDependencyHashes)
  internals.contentEntryRenderHashes = new Map(record.contentEntryRenderHashes)
  internals.serverIslandPageComponents = new Set(record.serverIslandPageComponents)
  for (const [specifier, file] of record.entrySpecifierToBundleMap)
    internals.entrySpecifierToBundleMap.set(specifier, file)
  for (const [key, page] of internals.pagesByKeys) page.styles = record.pageStyles[key] ?? []
  restoredEntry = pathToFileURL(path.join(prerenderDir, record.prerenderEntryFileName)).href
  recordPhase('bundle (reused, not bundled)', performance.now() - started)
  log?.info(`${reusedMessage} (${keyBeforeBundling.slice(0, 12)})`)
  return true
}

async function save(call: SaveCall): Promise<void> {
  const { internals, settings } = call
  if (!internals.prerenderEntryFileName || !keyBeforeBundling) return
  if (viteProduction !== true) {
    log?.warn(
      `the bundle was not kept: Vite bundled for development (NODE_ENV was ${JSON.stringify(process.env.NODE_ENV ?? '')} ` +
        'as it read its config), and only a bundle for production is reused',
    )
    return
  }
  const root = cacheRoot(settings)
  const entry = path.join(root, keyBeforeBundling)
  if (existsSync(entry)) return
  const temporary = `${entry}.${process.pid}-${Date.now()}`
  try {
    cpSync(fileURLToPath(call.prerenderOutputDir), path.join(temporary, 'prerender'), { recursive: true })
    const clientDir = fileURLToPath(call.clientDir)
    for (const file of call.clientFiles) cpSync(path.join(clientDir, file), path.join(temporary, 'client', file))
    const record: BundleRecord = {
      version: recordVersion,
      prerenderEntryFileName: internals.prerenderEntryFileName,
      pageDependencyHashes: [...(internals.pageDependencyHashes ?? [])],
      contentEntryRenderHashes: [...(internals.contentEntryRenderHashes ?? [])],
      serverIslandPageComponents: [...(internals.serverIslandPageComponents ?? [])],
      entrySpecifierToBundleMap: [...internals.entrySpecifierToBundleMap],
      pageStyles: Object.fromEntries([...internals.pagesByKeys].map(([key, page]) => [key, page.styles])),
      names: namesOf(settings),
    }
    await writeFile(path.join(temporary, recordFile), JSON.stringify(record))
    // Another build may have kept the same bundle meanwhile: theirs stays.
    await rename(temporary, entry).catch(() => {})
    await prune(root)
  } catch (error) {
    // Keeping the bundle only spares the next build some time: this one goes on without.
    log?.warn(`the bundle was not kept for the next build (${(error as Error).message}); it will bundle again`)
  } finally {
    await rm(temporary, { recursive: true, force: true })
  }
}

/**
 * Writes this build's names in place of those the kept bundle has, in one pass (a name written in
 * is never read again): a folder wherever it is, the longest first (one may hold another), the
 * address only where it is the whole of a string.
 */
export async function writeNames(dir: string, was: Names, now: Names): Promise<void> {
  const folders = (Object.keys(now.folders) as Array<keyof Names['folders']>)
    .map((name) => [was.folders[name], now.folders[name]] as const)
    .filter(([from, to]) => from !== to)
  const renames = new Map(folders)
  const patterns = folders
    .map(([from]) => from)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
  if (was.site !== now.site && was.site !== '') {
    renames.set(was.site, now.site)
    patterns.push(`(?<=["'\`])${escapeRegExp(was.site)}(?=["'\`])`)
  }
  if (patterns.length === 0) return
  const pattern = new RegExp(patterns.join('|'), 'g')
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter(
    (file) => file.isFile() && /\.m?js$/.test(file.name),
  )
  await Promise.all(
    files.map(async (file) => {
      const name = path.join(file.parentPath, file.name)
      const code = await readFile(name, 'utf8')
      const renamed = code.replace(pattern, (found) => renames.get(found)!)
      if (renamed !== code) await writeFile(name, renamed)
    }),
  )
}

/** A half-written entry older than this was left by a build that was killed: it goes. */
const abandonedAfterMs = 10 * 60_000

/** Keeps the entries used last, and removes those killed builds left half-written. */
async function prune(root: string): Promise<void> {
  const entries = await Promise.all(
    (await readdir(root, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && /^[0-9a-f]{64}(\.\d+-\d+)?$/.test(entry.name))
      .map(async (entry) => ({ name: entry.name, used: (await stat(path.join(root, entry.name))).mtimeMs })),
  )
  const whole = entries.filter((entry) => entry.name.length === 64).sort((a, b) => b.used - a.used)
  const abandoned = entries.filter((entry) => entry.name.length > 64 && Date.now() - entry.used > abandonedAfterMs)
  for (const old of [...whole.slice(keptEntries), ...abandoned])
    await rm(path.join(root, old.name), { recursive: true, force: true })
}

/** What the bundle is made of, hashed: the code, the packages, the settings and environment it reads. */
export async function bundleKey(settings: AstroSettingsSeen): Promise<string> {
  const root = fileURLToPath(settings.config.root)
  const hash = createHash('sha256')
  const { config } = settings
  hash.update(
    JSON.stringify({
      version: recordVersion,
      base: config.base,
      trailingSlash: config.trailingSlash,
      compressHTML: config.compressHTML,
      build: { format: config.build.format, assets: config.build.assets, inline: config.build.inlineStylesheets },
      define: config.vite.define ?? {},
      srcDir: path.relative(root, fileURLToPath(config.srcDir)),
      publicDir: path.relative(root, fileURLToPath(config.publicDir)),
      env: Object.entries(process.env)
        .filter(([name]) => name.startsWith('PUBLIC_') || name === 'NODE_ENV')
        .sort(([a], [b]) => a.localeCompare(b)),
    }),
  )
  const files = ['astro.config.mjs', 'package.json', 'pnpm-lock.yaml', 'tsconfig.json', 'tsconfig.base.json']
  for (const folder of ['site', path.join('scripts', 'src'), 'patches']) {
    const found = await readdir(path.join(root, folder), { recursive: true, withFileTypes: true }).catch(() => [])
    for (const file of found) {
      // A test is never part of the site's bundle, nor is a folder's README.
      if (file.isFile() && !/\.test\.[cm]?[jt]sx?$/.test(file.name) && file.name !== 'README.md')
        files.push(path.relative(root, path.join(file.parentPath, file.name)))
    }
  }
  files.push(path.join('scripts', 'package.json'))
  files.sort()
  const holders: Buffer[] = []
  const digests = await Promise.all(
    files.map(async (file) => {
      const content = await readFile(path.join(root, file)).catch(() => null)
      if (content === null) return 'missing'
      holders.push(content)
      return createHash('sha256').update(content).digest('hex')
    }),
  )
  files.forEach((file, index) => hash.update(`${file}\0${digests[index]}\0`))
  // A bundle made for another address gets this one written in (namesOf), unless the code itself
  // holds the address, which is then not only the site's: such bundles are kept for their address.
  if (config.site && holders.some((content) => content.includes(config.site!))) hash.update(`site\0${config.site}`)
  return hash.digest('hex')
}
