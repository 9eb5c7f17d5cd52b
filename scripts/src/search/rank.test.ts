import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { rankResults, rankSearch, rankingOf, type RankInputs } from './matcher.ts'

// The ranking as the matcher's comment states it, sorted plainly: "contains" results first, then by
// score (typo matches, 9 and up, after every other; a "contains" result's typo score counts as a
// description's), featured first among equals, then by number.
function rankedPlainly(
  scores: Uint8Array,
  contains: readonly number[],
  featured: Set<number>,
  keep: Set<number> | null,
) {
  const inContains = new Set(contains)
  const found = [...scores.keys()].filter((id) => (scores[id]! > 0 || inContains.has(id)) && (!keep || keep.has(id)))
  const rank = (id: number) => {
    const score = scores[id]!
    const rank = score === 0 ? 5 : score - 1
    return inContains.has(id) && rank >= 8 ? 5 : rank
  }
  const order = (id: number) => [inContains.has(id) ? 0 : 1, rank(id), featured.has(id) ? 0 : 1, id]
  return found.sort((a, b) => {
    const [x, y] = [order(a), order(b)]
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!
    return 0
  })
}

// Scores as matchScores gives them: 0 (not found), 1 + a field's rank (0…5), or that plus 9 (a typo).
const scoreArb = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 10, max: 14 }))
const searchArb = fc
  .array(fc.record({ score: scoreArb, contains: fc.boolean(), featured: fc.boolean(), kept: fc.boolean() }), {
    maxLength: 300,
  })
  .chain((docs) =>
    fc.record({ docs: fc.constant(docs), n: fc.integer({ min: 0, max: docs.length + 5 }), filtered: fc.boolean() }),
  )

describe('rankSearch', () => {
  test.prop([searchArb])(
    'orders as a plain sort does, and its first n are that order’s first n',
    ({ docs, n, filtered }) => {
      const scores = Uint8Array.from(docs.map((doc) => doc.score))
      const contains = docs.flatMap((doc, id) => (doc.contains ? [id] : []))
      const featured = new Set(docs.flatMap((doc, id) => (doc.featured ? [id] : [])))
      const keep = filtered ? new Set(docs.flatMap((doc, id) => (doc.kept ? [id] : []))) : null
      const inputs: RankInputs = {
        contains,
        featured: (id) => featured.has(id),
        ...(keep ? { keep: (id: number) => keep.has(id) } : {}),
      }
      const expected = rankedPlainly(scores, contains, featured, keep)
      expect(rankResults(scores, inputs)).toEqual(expected)
      const ranking = rankSearch(scores, inputs)
      expect(ranking.count).toBe(expected.length)
      expect(ranking.first(n)).toEqual(expected.slice(0, n))
    },
  )

  test('ranks an exact name first, then a name the query begins, where the names are given', () => {
    const scores = Uint8Array.from([6, 6, 6])
    const names = ['Valley Hardware Store', 'Hardware', 'Hardware Depot']
    const ranking = rankSearch(scores, { contains: [], featured: () => false, names, query: 'hardware' })
    expect(ranking.first(3)).toEqual([1, 2, 0])
    expect(ranking.first(1)).toEqual([1])
  })
})

describe('rankingOf', () => {
  test('gives a list already in order, all of it or its first n', () => {
    const ranking = rankingOf([4, 2, 9])
    expect(ranking.count).toBe(3)
    expect(ranking.first(2)).toEqual([4, 2])
    expect(ranking.first(10)).toEqual([4, 2, 9])
  })
})
