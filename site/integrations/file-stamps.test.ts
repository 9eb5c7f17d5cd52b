import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fc, test as property } from '@fast-check/vitest'
import { describe, expect, test } from 'vitest'
import { sortedUnion, stampsOf } from './file-stamps.ts'

describe('sortedUnion', () => {
  const names = fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'é', '/', '.', '-', '1', 'Z') }), {
    maxLength: 30,
  })

  property.prop([names, names])('is the names of both, in order, each once', (first, more) => {
    const sorted = [...new Set(first)].sort()
    expect(sortedUnion(sorted, more)).toEqual([...new Set([...sorted, ...more])].sort())
    // Handed the set of the sorted names (the last site's record's, made once), the same.
    expect(sortedUnion(sorted, more, new Set(sorted))).toEqual([...new Set([...sorted, ...more])].sort())
  })

  test('gives a list of its own when nothing is added', () => {
    const sorted = ['a/index.html', 'b/index.html']
    const union = sortedUnion(sorted, ['b/index.html'])
    expect(union).toEqual(sorted)
    expect(union).not.toBe(sorted)
  })
})

describe('stampsOf', () => {
  test('stamps the files that are there, as the kept stamps say or as the disk does, and names the others', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'roland-stamps-'))
    try {
      mkdirSync(path.join(dir, 'a'))
      writeFileSync(path.join(dir, 'a', 'index.html'), 'a page')
      writeFileSync(path.join(dir, 'c.txt'), 'c')
      const keptStamp = { file: 'b/index.html', mtimeMs: 1, size: 2 }
      const kept = {
        pages: 2,
        of: (file: string) => ({ 'b/index.html': keptStamp, 'd/index.html': null })[file],
      }
      const missing: string[] = []
      const stamps = stampsOf(dir, ['a/index.html', 'b/index.html', 'c.txt', 'd/index.html', 'e.txt'], kept, missing)
      expect(stamps.map((stamp) => stamp.file)).toEqual(['a/index.html', 'b/index.html', 'c.txt'])
      expect(stamps[1]).toBe(keptStamp)
      expect(stamps[0]).toMatchObject({ size: 'a page'.length })
      // A kept page that was not there as the build started, and a file not on the disk.
      expect(missing).toEqual(['d/index.html', 'e.txt'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
