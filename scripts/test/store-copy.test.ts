import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openEmbeddedStore, type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'

// An in-memory store opened as a copy of another (what freshStore() gives every test that wants a
// database of its own): the original's rows, its migrations, and nothing shared afterwards.

let original: EmbeddedStore
let copy: EmbeddedStore

const names = async (store: EmbeddedStore) =>
  (await store.db.query<{ name: string }>('select name from businesses order by name')).rows.map((r) => r.name)

beforeAll(async () => {
  original = await freshStore()
  await original.db.query(`insert into businesses (slug, name) values ('big-rock-coffee', 'Big Rock Coffee')`)
  copy = await openEmbeddedStore({ copyOf: await original.db.dumpDataDir('none') })
})

afterAll(async () => {
  await copy?.close()
  await original?.close()
})

describe('an embedded store opened as a copy', () => {
  test("has the original's rows and every migration, and was not created anew (no second seed)", async () => {
    expect(await names(copy)).toEqual(['Big Rock Coffee'])
    const migrations = 'select version from roland.schema_migrations order by version'
    expect((await copy.db.query(migrations)).rows).toEqual((await original.db.query(migrations)).rows)
    expect(copy.created).toBe(false)
  })

  test('changes apart from the original', async () => {
    await copy.db.query(`insert into businesses (slug, name) values ('lakeview-marina', 'Lakeview Marina')`)
    expect(await names(copy)).toEqual(['Big Rock Coffee', 'Lakeview Marina'])
    expect(await names(original)).toEqual(['Big Rock Coffee'])
  })

  test('is refused for a data folder, which is opened as it is', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'roland-copy-'))
    try {
      await expect(openEmbeddedStore({ dir, copyOf: new Blob([]) })).rejects.toThrow(
        'A copy of an embedded database can only be opened in memory.',
      )
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
