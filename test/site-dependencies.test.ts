import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { repoRoot } from '@roland/scripts/paths'
import { describe, expect, test } from 'vitest'

// Vite leaves a package out of the site's prerender bundle, and imports it when the pages render,
// only when the site's own package.json declares it: one that only @roland/scripts declares cannot
// be found from the bundle's folder, so Vite bundles it into every build. Before zod,
// libphonenumber-js, markdown-it and xmlbuilder2 were declared here, they were 1.4 MB of the
// 2.7 MB of chunks every build bundled, rebuilds after one change included.

// The imports are read by pattern, not with dpdm (test/import-cycles.test.ts): the pages are .astro
// files, whose imports dpdm does not read.
const importPattern =
  /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm

/** The file a relative import or an @roland/scripts import names, or null. */
function resolveImport(specifier: string, importer: string): string | null {
  const base = specifier.startsWith('@roland/scripts/')
    ? path.join(repoRoot, 'scripts', 'src', specifier.slice('@roland/scripts/'.length))
    : path.resolve(path.dirname(importer), specifier)
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]
  return candidates.find((file) => statSync(file, { throwIfNoEntry: false })?.isFile()) ?? null
}

/** The package a bare import names: `zod` for 'zod/v4', `@date-fns/tz` for itself. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/')

/** Every package the site's pages import, directly or through the modules of the site and of @roland/scripts they import. */
function packagesThePagesImport(): Map<string, string> {
  const packages = new Map<string, string>()
  const seen = new Set<string>()
  const pagesDir = path.join(repoRoot, 'site', 'pages')
  const queue = readdirSync(pagesDir, { recursive: true, encoding: 'utf8' })
    .map((file) => path.join(pagesDir, file))
    .filter((file) => /\.(astro|ts|tsx)$/.test(file) && !file.endsWith('.test.ts'))
  while (queue.length > 0) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2]!
      // Bundled by a plugin of the site's own (inline scripts, raw text), or Astro's and Node's.
      if (specifier.includes('?') || /^(node|astro|virtual):/.test(specifier) || specifier === 'astro') continue
      if (specifier.startsWith('.') || specifier.startsWith('@roland/scripts/')) {
        const target = resolveImport(specifier, file)
        if (target && /\.(astro|ts|tsx)$/.test(target)) queue.push(target)
        continue
      }
      if (!packages.has(packageOf(specifier))) packages.set(packageOf(specifier), path.relative(repoRoot, file))
    }
  }
  return packages
}

describe("the site's package.json", () => {
  const site = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
  }
  const scripts = JSON.parse(readFileSync(path.join(repoRoot, 'scripts', 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
  }

  test('declares every package its pages import, through @roland/scripts too, so that the build imports it rather than bundles it', () => {
    const imported = packagesThePagesImport()
    expect(imported.size).toBeGreaterThan(5)
    const undeclared = [...imported]
      .filter(([name]) => !(name in site.dependencies) && !name.startsWith('@astrojs/'))
      .map(([name, file]) => `${name} (imported by ${file})`)
    expect(undeclared).toEqual([])
  })

  test('asks for the same versions as @roland/scripts of the packages both declare, so there is one copy of each', () => {
    const differ = Object.keys(site.dependencies)
      .filter((name) => name in scripts.dependencies && scripts.dependencies[name] !== site.dependencies[name])
      .map((name) => `${name}: ${site.dependencies[name]} here, ${scripts.dependencies[name]} in scripts`)
    expect(differ).toEqual([])
  })
})
