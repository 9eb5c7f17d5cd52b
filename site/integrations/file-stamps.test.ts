import { fc, test as property } from '@fast-check/vitest'
import { describe, expect, test } from 'vitest'
import { sortedUnion } from './file-stamps.ts'

describe('sortedUnion', () => {
  const names = fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'é', '/', '.', '-', '1', 'Z') }), {
    maxLength: 30,
  })

  property.prop([names, names])('is the names of both, in order, each once', (first, more) => {
    const sorted = [...new Set(first)].sort()
    expect(sortedUnion(sorted, more)).toEqual([...new Set([...sorted, ...more])].sort())
  })

  test('gives a list of its own when nothing is added', () => {
    const sorted = ['a/index.html', 'b/index.html']
    const union = sortedUnion(sorted, ['b/index.html'])
    expect(union).toEqual(sorted)
    expect(union).not.toBe(sorted)
  })
})
