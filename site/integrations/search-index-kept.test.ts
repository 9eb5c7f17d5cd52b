import { mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { serialize } from 'node:v8'
import { afterAll, describe, expect, test } from 'vitest'
import type { SearchIndexFiles } from '../lib/search-index.ts'
import { keepIndex, keptIndexFile, readKeptIndex, siteCacheDir } from './search-index-kept.ts'

const root = mkdtempSync(path.join(tmpdir(), 'roland-kept-index-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

// More entries and files than one record holds, some of them not Latin-1.
const entries = Array.from({ length: 5000 }, (_, id) => JSON.stringify({ slug: `shop-${id}`, name: `Café ${id} ✓` }))
const index: SearchIndexFiles = {
  manifest: {
    v: 'abc',
    count: 5000,
    categories: ['Shopping'],
    cardsPerFile: 8,
    textsPerFile: 250,
    chars: 'ab',
    featured: [],
  },
  files: new Map(Array.from({ length: 4500 }, (_, n) => [`g/${n}.json`, JSON.stringify([n, 'crème'])])),
  cardFiles: new Map(),
}

describe('the kept search index', () => {
  test('reads back as it was kept', () => {
    const file = path.join(root, 'whole', 'index.v8')
    keepIndex(file, entries, index)
    const kept = readKeptIndex(file)!
    expect(kept.entries).toEqual(entries)
    expect(kept.index.manifest).toEqual(index.manifest)
    expect([...kept.index.files]).toEqual([...index.files])
    // Written beside it, then moved in place: nothing else is left in the folder.
    expect(readdirSync(path.dirname(file))).toEqual(['index.v8'])
  })

  test('is passed over when missing, cut short, longer than it says, or kept by other code', () => {
    const file = path.join(root, 'broken', 'index.v8')
    expect(readKeptIndex(file)).toBeNull()
    keepIndex(file, entries, index)
    const whole = readFileSync(file)
    truncateSync(file, whole.length - 10)
    expect(readKeptIndex(file)).toBeNull()
    writeFileSync(file, Buffer.concat([whole, Buffer.from([1, 0, 0, 0, 0])]))
    expect(readKeptIndex(file)).toBeNull()
    writeFileSync(file, 'not an index')
    expect(readKeptIndex(file)).toBeNull()
    const header = serialize({ code: 'other code', manifest: index.manifest, entries: 0, files: 0 })
    const length = Buffer.alloc(4)
    length.writeUInt32LE(header.length)
    writeFileSync(file, Buffer.concat([length, header]))
    expect(readKeptIndex(file)).toBeNull()
    // The same file, with this code's key, is read.
    keepIndex(file, [], { ...index, files: new Map() })
    expect(readKeptIndex(file)?.entries).toEqual([])
  })

  test('where it cannot be written, loses nothing and throws nothing', () => {
    // A file where its folder should be (root may write in any folder).
    const blocked = path.join(root, 'blocked')
    writeFileSync(blocked, 'kept as it was')
    expect(() => keepIndex(path.join(blocked, 'index.v8'), entries, index)).not.toThrow()
    expect(readFileSync(blocked, 'utf8')).toBe('kept as it was')
    // And the one kept before stays when the next cannot replace it.
    const file = path.join(root, 'kept-before', 'index.v8')
    keepIndex(file, entries, index)
    // A file the serializer refuses (a function) stops the next one half-way.
    const unkeepable = new Map([...index.files, ['bad', (() => 'no') as unknown as string]])
    expect(() => keepIndex(file, entries, { ...index, files: unkeepable })).not.toThrow()
    expect([...readKeptIndex(file)!.index.files]).toEqual([...index.files])
    expect(readdirSync(path.dirname(file))).toEqual(['index.v8'])
  })

  test('takes away what a build that ended while keeping one left, once not written to for ten minutes', () => {
    const file = path.join(root, 'left-over', 'index.v8')
    keepIndex(file, entries, index)
    const [old, recent] = [`${file}.111-1.tmp`, `${file}.222-1.tmp`]
    writeFileSync(old, 'half')
    writeFileSync(recent, 'half')
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000)
    utimesSync(old, elevenMinutesAgo, elevenMinutesAgo)
    keepIndex(file, entries, index)
    expect(readdirSync(path.dirname(file)).sort()).toEqual(['index.v8', 'index.v8.222-1.tmp'])
  })

  test("is kept in Astro's cache folder for the site", () => {
    expect(siteCacheDir({ ROLAND_OUT_DIR: '/tmp/site' })).toBe('/tmp/site.cache')
    expect(siteCacheDir({})).toBe('./node_modules/.astro')
    expect(keptIndexFile({ ROLAND_OUT_DIR: '/tmp/site' })).toBe('/tmp/site.cache/roland-search-index.v8')
  })
})
