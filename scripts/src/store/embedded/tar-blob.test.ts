import { PGlite } from '@electric-sql/pglite'
import { describe, expect, test } from 'vitest'
import { emptyCluster } from './empty-cluster.ts'
import { TarBlob } from './tar-blob.ts'

describe('TarBlob', () => {
  const bytes = new Uint8Array([0, 1, 2, 250, 104, 105])

  test('reads as a Blob of the same bytes does: size, whole, sliced, streamed', async () => {
    const blob = new TarBlob(bytes)
    const plain = new Blob([bytes])
    expect(blob).toBeInstanceOf(Blob)
    expect(blob.size).toBe(plain.size)
    expect(blob.type).toBe('')
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(new Uint8Array(await plain.arrayBuffer()))
    expect(await blob.bytes()).toEqual(await plain.bytes())
    expect(new Uint8Array(await blob.slice(2, 5).arrayBuffer())).toEqual(new Uint8Array([2, 250, 104]))
    expect(new Uint8Array(await new Response(blob.stream()).arrayBuffer())).toEqual(bytes)
    expect(await new TarBlob(new TextEncoder().encode('tar')).text()).toBe('tar')
  })

  test('hands PGlite its own bytes, uncopied, and a window on a larger buffer as bytes of its own', async () => {
    const whole = new TarBlob(bytes)
    expect(await whole.arrayBuffer()).toBe(await whole.arrayBuffer())
    expect(await whole.arrayBuffer()).toBe(bytes.buffer)
    const shared = new Uint8Array(64).fill(3)
    const window = new TarBlob(shared.subarray(8, 12))
    expect((await window.arrayBuffer()).byteLength).toBe(4)
    expect(new Uint8Array(await window.arrayBuffer())).toEqual(new Uint8Array([3, 3, 3, 3]))
  })

  test('a database loads from one twice, each time the same: PGlite only reads the tar', async () => {
    // A new database, as the store starts one: from the kept empty cluster, not initdb (2.5 CPU-s).
    const source = await PGlite.create({ loadDataDir: await emptyCluster(PGlite.defaultStartParams) })
    await source.exec(`create table kept (word text); insert into kept values ('roland')`)
    const tar = new TarBlob(new Uint8Array(await (await source.dumpDataDir('none')).arrayBuffer()))
    await source.close()
    for (let copy = 0; copy < 2; copy++) {
      const db = await PGlite.create({ loadDataDir: tar })
      try {
        expect((await db.query<{ word: string }>('select word from kept')).rows).toEqual([{ word: 'roland' }])
        await db.exec(`insert into kept values ('changed in copy ${copy}')`)
      } finally {
        await db.close()
      }
    }
  })
})
