import { fileURLToPath } from 'node:url'
import { parseCircular, parseDependencyTree } from 'dpdm'
import { describe, expect, test } from 'vitest'

// No two modules import each other, directly or in a ring (issue 51): a ring means neither can be
// read, tested or moved alone, and an import of one runs the other half-loaded. dpdm reads every
// module of scripts/, site/ and console/ with TypeScript's parser, type-only imports included (a
// ring of types is still a ring for whoever changes one), and lists the rings.

const root = fileURLToPath(new URL('..', import.meta.url))

describe('the import graph', () => {
  test('has no cycle in scripts/, site/ or console/', async () => {
    const tree = await parseDependencyTree(
      ['scripts/**/*.ts', 'site/**/*.ts', 'site/**/*.tsx', 'console/**/*.ts', 'console/**/*.tsx', 'test/**/*.ts'],
      { cwd: root, context: root, tsconfig: `${root}tsconfig.json`, transform: false, skipDynamicImports: false },
    )
    expect(Object.keys(tree).length, 'dpdm read no module: check the globs').toBeGreaterThan(300)
    const rings = parseCircular(tree).map((ring) => ring.join(' → '))
    expect(rings, 'these modules import each other: move what they share to a module both can import').toEqual([])
  }, 120_000)
})
