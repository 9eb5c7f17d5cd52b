import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { Catalog } from '@roland/scripts/catalog/types'
import { openEmbeddedStore } from '@roland/scripts/store/embedded'
import { catalogRead } from './build-thread.ts'

// A build's catalog, read on the catalog reader's thread (catalog-reader.ts) once per process.
describe('the catalog a build reads', () => {
  let dir = ''
  const rename = async (name: string) => {
    const store = await openEmbeddedStore({ dir })
    try {
      await store.db.query(`update public.businesses set name = $1 where slug = 'big-rock-coffee'`, [name])
    } finally {
      await store.close()
    }
  }
  const nameIn = async (catalog: Promise<Catalog>) =>
    (await catalog).businesses.find((b) => b.slug === 'big-rock-coffee')?.name

  beforeEach(async () => {
    vi.stubEnv('SUPABASE_URL', '')
    dir = await mkdtemp(path.join(os.tmpdir(), 'roland-catalog-read-'))
    vi.stubEnv('ROLAND_DATA_DIR', dir)
  })
  afterEach(async () => {
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('roland.site.catalog-read')]
    vi.unstubAllEnvs()
    await rm(dir, { recursive: true, force: true })
  })

  test('is read once, from the start, for every page', async () => {
    const first = catalogRead()
    expect(await nameIn(first)).toBe('Big Rock Coffee')
    await rename('Big Rock Coffee & Bakery')
    expect(catalogRead()).toBe(first)
  })

  test('comes in list order, and a read that failed fails the page that asks, with its message', async () => {
    const names = (await catalogRead()).businesses.map((b) => b.name)
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')))
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('roland.site.catalog-read')]
    // A data folder that is a file: the embedded database cannot open there.
    const file = path.join(dir, 'not-a-folder')
    await writeFile(file, '')
    vi.stubEnv('ROLAND_DATA_DIR', file)
    await expect(catalogRead()).rejects.toThrow(/Could not read the catalog from/)
  })
})
