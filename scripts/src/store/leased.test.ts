import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openEmbeddedStore, type EmbeddedStore } from './embedded.ts'
import type { Store } from './types.ts'
import { openLeasedStore } from './leased.ts'

// A real embedded database in a temporary folder: the point is the lock file, which only a
// folder-backed database takes.

let dir = ''
let opens = 0
const open = async (): Promise<Store> => {
  opens++
  return openEmbeddedStore({ dir, lockTimeoutMs: 5000 })
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'roland-leased-'))
  await (await openEmbeddedStore({ dir })).close()
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('openLeasedStore', () => {
  test('knows the store’s kind and location without keeping it open', async () => {
    const store = await openLeasedStore(open)
    expect(store.kind).toBe('embedded')
    expect(store.location).toContain(dir)
    expect(store.files.publicUrl('business-images/a.png')).toBe('/files/business-images/a.png')
    // Closed again: this process can open the database itself.
    await (await openEmbeddedStore({ dir })).close()
    await store.close()
  })

  test('shares one open among calls in flight, and closes when the last one ends', async () => {
    const store = await openLeasedStore(open)
    opens = 0
    const [jobs, businesses, status] = await Promise.all([
      store.jobs.list(5),
      store.listBusinesses(),
      store.call<{ isComplete: boolean }>('migration_status', {}),
    ])
    expect(Array.isArray(jobs)).toBe(true)
    expect(Array.isArray(businesses)).toBe(true)
    expect(typeof status.isComplete).toBe('boolean')
    expect(opens).toBe(1)
    await (await openEmbeddedStore({ dir })).close()
    await store.close()
  })

  test('opens again for the next call after closing', async () => {
    const store = await openLeasedStore(open)
    opens = 0
    const job = await store.jobs.create('rebuild', {}, 'test')
    await store.jobs.update(job.id, { status: 'running' })
    expect((await store.jobs.get(job.id))?.status).toBe('running')
    expect(opens).toBe(3)
    await store.close()
    await expect(store.jobs.list()).rejects.toThrow(/closed/)
  })

  test('held open for a call known to come, the calls meanwhile share one open; closing ends the hold', async () => {
    const store = await openLeasedStore(open)
    opens = 0
    store.holdOpen(600_000)
    await store.listBusinesses()
    await store.jobs.list(5)
    expect(opens).toBe(1)
    // Held: this process cannot open the database beside it.
    await expect(openEmbeddedStore({ dir })).rejects.toThrow(/already open in this process/)
    await store.close()
    // Closed, the hold with it: the database is free again.
    await (await openEmbeddedStore({ dir })).close()
  })

  test('with an idle delay, calls in quick succession share one open', async () => {
    const store = await openLeasedStore(open, { idleMs: 60_000 })
    opens = 0
    await store.jobs.list(1)
    await store.jobs.list(1)
    expect(opens).toBe(1)
    await store.close()
    await (await openEmbeddedStore({ dir })).close()
  })

  test('follows the catalog as its store does: a read again takes only what changed since', async () => {
    const store = await openLeasedStore(open)
    await store.use((s) =>
      (s as EmbeddedStore).db.query(
        `insert into businesses (slug, name, category, address)
         values ('leased-cafe', 'Leased Cafe', 'Dining & Refreshments', '1 Main St, Roland, AR 72135')`,
      ),
    )
    const first = await store.followCatalog!()
    expect(first.read).toBe('all')
    expect(first.catalog.businesses.map((business) => business.slug)).toContain('leased-cafe')
    expect((await store.followCatalog!(first.mark)).read).toBe(0)
    await store.close()
  })
})
