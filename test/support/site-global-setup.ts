import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { buildSite } from './build-site.ts'
import { buildFixtureDataDir } from './fixture-catalog.ts'
import { ensureJava } from './html-checker.ts'
import { serveStatic } from './static-server.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The base URL the built fixture site is served from, on 127.0.0.1. */
    siteUrl: string
    /** The folder the fixture site was built into. */
    siteDir: string
    /** The data folder of the fixture catalog the site was built from (copyFixtureDataDir copies it). */
    fixtureDataDir: string
  }
}

/**
 * Builds the site once for the end-to-end tests: the fixture catalog in a temporary embedded
 * store, built into a temporary folder, served from 127.0.0.1.
 */
export default async function setup(project: TestProject) {
  // The HTML checker's Java (html.test.ts), found or installed once, before any test file starts.
  ensureJava()
  const root = await mkdtemp(path.join(tmpdir(), 'roland-site-'))
  const dataDir = path.join(root, 'data')
  const outDir = path.join(root, 'site')
  await buildFixtureDataDir(dataDir)
  // The server starts first, so the build can use its address for canonical URLs and the sitemap.
  const server = await serveStatic(outDir)
  const build = await buildSite({ outDir, dataDir, siteUrl: server.url })
  if (build.code !== 0) {
    await server.close()
    await rm(root, { recursive: true, force: true })
    throw new Error(`The fixture site did not build (exit ${build.code}):\n${build.output}`)
  }
  project.provide('siteUrl', server.url)
  project.provide('siteDir', outDir)
  project.provide('fixtureDataDir', dataDir)
  return async () => {
    await server.close()
    await rm(root, { recursive: true, force: true })
  }
}
