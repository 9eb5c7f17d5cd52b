import type { AstroIntegration } from 'astro'
import { build } from 'esbuild'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { keepGeneratedFile } from './generated-files.ts'
import { appIconPath, appIconSizes } from '../lib/web-app-manifest.ts'
import { serviceWorkerPath } from '../lib/offline.ts'
import { recordPhase } from '../lib/build-profile.ts'
import { siteCodeKey } from './bundle-cache.ts'

/**
 * What the worker precaches, as paths in the output folder (DESIGN.md, "Offline and print"): the
 * emergency numbers, the contact page, the offline page, the stylesheets, the icon sprite and the
 * app's icons and manifest, the print stylesheet, and the search's manifest and scripts (with up to
 * 200 businesses the manifest is the whole index, so search works offline from the first visit).
 * Each pattern names a file or one folder's files, so finding them never walks the site's pages:
 * the business pages are kept as a visitor opens them, never precached.
 */
export const precachedFiles = [
  'offline/index.html',
  'community/emergency/index.html',
  'contact/index.html',
  '_astro/*.css',
  'icons.svg',
  'favicon.svg',
  'print.css',
  'manifest.webmanifest',
  'businesses/search-index.json',
  'businesses/directory.js',
  'businesses/save-offline.js',
]

/** The site path a precached file answers: a page by its folder ('/contact'), any other file by its own. */
export function precachedUrl(file: string): string {
  return `/${file}`.replace(/\/index\.html$/, '') || '/'
}

/**
 * The file in the build's cache folder, `name`, that holds what `make` makes of the site's code and
 * `inputs`: the last build's, with its key beside it, when neither changed since (the code as when
 * last bundled: bundle-cache.ts, siteCodeKey); else made now, and kept only when the bundle cache
 * is on.
 */
async function keptFile(
  folder: string,
  name: string,
  inputs: unknown,
  make: () => Promise<Uint8Array>,
): Promise<string> {
  const code = siteCodeKey()
  const file = path.join(folder, name)
  const keyFile = `${file}.key`
  const key =
    code &&
    createHash('sha256')
      .update(JSON.stringify([code, inputs]))
      .digest('hex')
  if (key && existsSync(file) && (await readFile(keyFile, 'utf8').catch(() => null)) === key) return file
  // The key goes last: a file without its key is made again.
  await rm(keyFile, { force: true })
  await writeFile(file, await make())
  if (key) await writeFile(keyFile, key)
  return file
}

/**
 * Writes the app's icons (lib/app-icon.ts) and /sw.js after each build: site/service-worker/sw.ts bundled with Workbox's modules by
 * esbuild, with this build's precache list injected by workbox-build (injectManifest), its search
 * numbering and stylesheet. A few files are read and hashed, whatever the size of the catalog.
 */
export function serviceWorker(): AstroIntegration {
  let cacheDir = ''
  return {
    name: 'roland:service-worker',
    hooks: {
      'astro:config:setup': ({ config }) => {
        cacheDir = fileURLToPath(config.cacheDir)
      },
      'astro:build:done': async ({ dir, logger }) => {
        const started = performance.now()
        const outDir = fileURLToPath(dir)
        // The app's icons, drawn here rather than by a page: the renderer's native module (resvg) is
        // loaded by Node, never bundled.
        const { renderAppIcon } = await import('../lib/app-icon.ts')
        // The town's name on the sign, as this build's web app manifest (a page of the build) says it.
        const installed = JSON.parse(await readFile(path.join(outDir, 'manifest.webmanifest'), 'utf8')) as {
          name: string
          short_name: string
        }
        const town = { name: installed.short_name, place: installed.name }
        await mkdir(cacheDir, { recursive: true })
        for (const size of appIconSizes) {
          const file = appIconPath(size).slice(1)
          const icon = await keptFile(cacheDir, `app-icon-${size}.png`, [size, town], () => renderAppIcon(size, town))
          await copyFile(icon, path.join(outDir, file))
          keepGeneratedFile(file)
        }
        const manifest = JSON.parse(await readFile(path.join(outDir, 'businesses/search-index.json'), 'utf8')) as {
          v: string
        }
        const offlineHtml = await readFile(path.join(outDir, 'offline/index.html'), 'utf8')
        const stylesheet = /<link rel="?stylesheet"? href="?([^"\s>]+)/.exec(offlineHtml)?.[1]
        if (!stylesheet)
          throw new Error('The offline page links no stylesheet: the service worker needs one to precache.')
        const define = {
          SEARCH_VERSION: JSON.stringify(manifest.v),
          STYLESHEET: JSON.stringify(stylesheet),
          'process.env.NODE_ENV': '"production"',
        }
        // Read by workbox-build, which writes the worker with its precache list (it leaves this file as it is).
        const swSrc = await keptFile(cacheDir, 'sw-source.js', define, async () => {
          const bundled = await build({
            entryPoints: [fileURLToPath(new URL('../service-worker/sw.ts', import.meta.url))],
            bundle: true,
            format: 'iife',
            minify: true,
            target: 'es2022',
            legalComments: 'none',
            define,
            write: false,
          })
          return bundled.outputFiles[0]!.contents
        })
        // workbox-build's index also loads generateSW's bundler (rollup, babel): only injectManifest is needed.
        const { injectManifest } = await import('workbox-build/build/inject-manifest.js')
        const { count, size, warnings } = await injectManifest({
          swSrc,
          swDest: path.join(outDir, serviceWorkerPath.slice(1)),
          globDirectory: outDir,
          globPatterns: precachedFiles,
          // The bundles' names carry their hash already.
          dontCacheBustURLsMatching: /^_astro\//,
          manifestTransforms: [
            async (entries) => ({ manifest: entries.map((entry) => ({ ...entry, url: precachedUrl(entry.url) })) }),
          ],
        })
        for (const warning of warnings) logger.warn(`service worker: ${warning}`)
        keepGeneratedFile(serviceWorkerPath.slice(1))
        const took = Math.round(performance.now() - started)
        recordPhase('app icons and service worker precache list', performance.now() - started)
        logger.info(`service worker: ${count} file(s) precached, ${Math.round(size / 1024)} KB, written in ${took} ms`)
      },
    },
  }
}
