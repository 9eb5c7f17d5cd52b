import { PGlite } from '@electric-sql/pglite'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
// PGlite's settings as the embedded store starts it.
import { startParams } from '../embedded.ts'
import { clusterFile, emptyCluster, openFromEmptyCluster } from './empty-cluster.ts'

let root: string

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-empty-cluster-'))
})

afterAll(() => rm(root, { recursive: true, force: true }))

/** Opens PGlite in memory, loading what it is given, and counts what it was given. */
function opener() {
  const loads: boolean[] = []
  return {
    loads,
    open: (loadDataDir?: Blob) => {
      loads.push(loadDataDir !== undefined)
      return PGlite.create({ loadDataDir, startParams })
    },
  }
}

/** The tables of ours in the database: none in a new one. */
async function publicTables(db: PGlite): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from pg_tables where schemaname = 'public'`)
  return rows[0]!.n
}

describe('the empty cluster a new database starts from', () => {
  test('is made once, kept in its folder, and read from there after; a database loaded from it is a new one', async () => {
    const folder = path.join(root, 'kept')
    const made = await emptyCluster(startParams, folder)
    expect(made?.size).toBeGreaterThan(0)
    const keptAt = (await stat(clusterFile(folder))).mtimeMs
    const { loads, open } = opener()
    const db = await openFromEmptyCluster({ open, clear: async () => {}, startParams, folder })
    try {
      expect(loads).toEqual([true])
      await expect(publicTables(db)).resolves.toBe(0)
    } finally {
      await db.close()
    }
    // Read, not made again.
    expect((await stat(clusterFile(folder))).mtimeMs).toBe(keptAt)
  })

  test('kept damaged, it goes: initdb makes the database, after what the load left is cleared', async () => {
    const folder = path.join(root, 'damaged')
    await mkdir(folder)
    await writeFile(clusterFile(folder), 'not a tar of a database')
    let cleared = 0
    const { loads, open } = opener()
    const db = await openFromEmptyCluster({ open, clear: async () => void cleared++, startParams, folder })
    try {
      expect(loads).toEqual([true, false])
      expect(cleared).toBe(1)
      await expect(publicTables(db)).resolves.toBe(0)
    } finally {
      await db.close()
    }
    expect(existsSync(clusterFile(folder))).toBe(false)
  })
})
