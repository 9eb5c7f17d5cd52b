import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readBackup, restoreBackup } from '../../scripts/src/backup/restore.ts'
import { loadPublicCatalog } from '../../scripts/src/catalog/load.ts'
import type { Catalog } from '../../scripts/src/catalog/types.ts'
import { alwaysPublishedPaths } from '../../scripts/src/content/schema.ts'
import { openEmbeddedStore, type EmbeddedStore } from '../../scripts/src/store/embedded.ts'
import { readMigrations } from '../../scripts/src/store/sql-files.ts'
import { freshStore } from '../../scripts/test/support/fresh-store.ts'
import { pageAt, textPagePaths } from '../../site/lib/pages.ts'
import { sitePaths } from '../../site/lib/site-paths.ts'

// An upgraded Roland store builds the same site as before (issue 39). The release before town
// settings and pages kept Roland's words in its code; a store it made (the upgrade fixture, see
// scripts/test/fixtures/upgrade/release-326396a) gets, from the migrations since, Roland's settings and every page's
// words, the same as a new store's, so the site it builds has its home page, /events, /contact and
// every text page. And the same store with its pages table emptied still builds the pages the site
// cannot do without.

const repoRoot = path.resolve(import.meta.dirname, '../..')
const fixtureDir = path.join(repoRoot, 'scripts/test/fixtures/upgrade/release-326396a')

let root: string
let upgraded: EmbeddedStore
let seeded: EmbeddedStore

// Restoring and migrating a database: many seconds on a loaded machine, never asserted.
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-upgraded-site-'))
  const release = JSON.parse(await readFile(path.join(fixtureDir, 'release.json'), 'utf8')) as {
    migrations: Array<{ name: string }>
  }
  const names = new Set(release.migrations.map((migration) => migration.name))
  const releaseMigrations = (await readMigrations()).filter((migration) => names.has(migration.name))
  const dir = path.join(root, 'upgraded')
  await restoreBackup({ dir, file: path.join(fixtureDir, 'store.tar.gz'), migrations: releaseMigrations })
  // The release's schema holds no town: the fixture is a store from before town settings and pages.
  const backup = await readBackup(path.join(fixtureDir, 'store.tar.gz'), path.join(root, 'files'))
  expect([...backup.tables.keys()]).not.toContain('pages')
  upgraded = await openEmbeddedStore({ dir })
  seeded = await freshStore()
}, 240_000)

afterAll(async () => {
  await upgraded?.close()
  await seeded?.close()
  if (root) await rm(root, { recursive: true, force: true })
})

describe('a Roland store made by the release before town settings, upgraded', () => {
  let catalog: Catalog
  beforeAll(async () => {
    catalog = await loadPublicCatalog({ store: upgraded })
  })

  test("has Roland's settings, the same as a new store's", async () => {
    const fresh = await seeded.loadCatalog()
    expect(catalog.town).toEqual(fresh.town)
    expect(catalog.town).toMatchObject({ name: 'Roland', state: 'Arkansas', time_zone: 'America/Chicago' })
  })

  test("has every page's words, the same as a new store's", async () => {
    const fresh = await seeded.loadCatalog()
    const byPath = (pages: Catalog['pages']) => [...pages].sort((a, b) => a.path.localeCompare(b.path))
    expect(byPath(catalog.pages)).toEqual(byPath(fresh.pages))
    for (const path of textPagePaths) expect(pageAt(catalog, path), path).not.toBeNull()
    expect(pageAt(catalog, '/community/emergency')?.items.map((item) => item.phone)).toContain('911')
  })

  test('builds the home page, /events, /contact and every text page', () => {
    const paths = sitePaths(catalog)
    for (const path of [
      '/',
      '/events',
      '/contact',
      '/businesses',
      '/about',
      '/about/history',
      '/community/emergency',
      '/nearby',
    ]) {
      expect(paths, path).toContain(path)
    }
  })
})

describe('a store whose pages table is empty', () => {
  test('still builds the home page, /businesses, /events, /contact and the 404 page, in its own words', async () => {
    await upgraded.db.exec('delete from public.pages')
    const catalog = await loadPublicCatalog({ store: upgraded })
    for (const path of alwaysPublishedPaths) expect(pageAt(catalog, path), path).not.toBeNull()
    expect(sitePaths(catalog)).toEqual(expect.arrayContaining(['/', '/businesses', '/events', '/contact']))
    expect(pageAt(catalog, '/')?.title).toContain(catalog.town.name)
    // The other pages went with their rows.
    expect(pageAt(catalog, '/about')).toBeNull()
    expect(sitePaths(catalog)).not.toContain('/about')
  })
})
