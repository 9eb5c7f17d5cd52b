import type { AstroIntegration } from 'astro'
import { createReadStream, existsSync, rmSync } from 'node:fs'
import { copyFile, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { dataDir } from '@roland/scripts/paths'
import { storageFilePath, storageReferences, storageUrlPrefix } from '../lib/storage-files.ts'

const imageTypes: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
}

/**
 * Publishes a build all at once (DESIGN.md: "a build never publishes a broken site").
 * Astro writes into a staging folder beside the output folder; only when every page is written
 * and every storage file the pages refer to is copied in does the staging folder replace the
 * output folder. A failed build leaves the previous site as it was and no half-written folder.
 */
export function publishSite(): AstroIntegration {
  let finalDir = ''
  let stagingDir = ''
  let published = false
  let siteOrigin = ''
  return {
    name: 'roland:publish-site',
    hooks: {
      'astro:config:setup': ({ command, config, updateConfig }) => {
        if (command !== 'build') return
        siteOrigin = config.site ? new URL(config.site).origin : ''
        finalDir = fileURLToPath(config.outDir).replace(/[\\/]+$/, '')
        stagingDir = `${finalDir}.staging`
        rmSync(stagingDir, { recursive: true, force: true })
        updateConfig({ outDir: pathToFileURL(`${stagingDir}/`) })
        // Whatever stops the build (a loader error, a page that throws), the staging folder goes with it.
        // So does the record of the incremental build: Astro updates its cached pages as it renders them
        // but writes their record only at the end, so after a failure the two may disagree; the next
        // build then renders every page again.
        const incrementalRecord = fileURLToPath(new URL('incremental-build.json', config.cacheDir))
        process.once('exit', () => {
          if (published) return
          rmSync(stagingDir, { recursive: true, force: true })
          rmSync(incrementalRecord, { force: true })
        })
      },
      // `astro dev` serves the storage files straight from the storage folder.
      'astro:server:setup': ({ server }) => {
        const storageRoot = path.join(dataDir(), 'storage', 'files')
        server.middlewares.use((request, response, next) => {
          const file = storageFilePath(request.url ?? '', storageRoot)
          if (!file || !existsSync(file)) return next()
          response.setHeader('content-type', imageTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream')
          createReadStream(file).pipe(response)
        })
      },
      'astro:build:done': async ({ dir, logger }) => {
        const outDir = fileURLToPath(dir)
        const copied = await copyStorageFiles(outDir, path.join(dataDir(), 'storage', 'files'), siteOrigin)
        if (copied > 0) logger.info(`copied ${copied} storage file(s) into /files`)
        // The last site is moved aside first, so the new one takes its place at once; only then is it deleted.
        const previousDir = `${finalDir}.previous`
        await rm(previousDir, { recursive: true, force: true })
        if (existsSync(finalDir)) await rename(finalDir, previousDir)
        await rename(stagingDir, finalDir)
        published = true
        logger.info(`published ${finalDir}`)
        await rm(previousDir, { recursive: true, force: true })
      },
    },
  }
}

/** Copies every /files/… the built pages refer to from the storage folder; fails on a missing one. */
async function copyStorageFiles(outDir: string, storageRoot: string, siteOrigin: string): Promise<number> {
  const references = new Set<string>()
  const marker = Buffer.from(storageUrlPrefix)
  // Thousands of pages: read several at a time, and look closer only at those that mention /files/.
  const pending = await htmlFiles(outDir)
  const readNext = async () => {
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
      const bytes = await readFile(file)
      if (!bytes.includes(marker)) continue
      for (const url of storageReferences(bytes.toString('utf8'), siteOrigin)) references.add(url)
    }
  }
  await Promise.all(Array.from({ length: 16 }, readNext))
  const missing: string[] = []
  for (const url of references) {
    const source = storageFilePath(url, storageRoot)
    if (!source || !existsSync(source)) {
      missing.push(url)
      continue
    }
    const target = storageFilePath(url, path.join(outDir, 'files'))!
    await mkdir(path.dirname(target), { recursive: true })
    await copyFile(source, target)
  }
  if (missing.length > 0) {
    throw new Error(
      `The site refers to ${missing.length} storage file(s) missing from ${storageRoot}: ${missing.slice(0, 5).join(', ')}.\n` +
        'The site was not published. Re-run the crawl or image job for those businesses, or remove the images.',
    )
  }
  return references.size
}

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => path.join(e.parentPath, e.name))
}
