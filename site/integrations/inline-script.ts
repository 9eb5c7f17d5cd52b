import { build } from 'esbuild'
import path from 'node:path'

const suffix = '?inline-script'

/**
 * `import code from './x.ts?inline-script'`: a module bundled into one classic script, as a
 * string, for a page to write with `<script is:inline set:html={code} />`. For the little a page
 * must run while it is parsed, before its first paint: an Astro `<script>` is a module, and runs
 * only once the whole page has been parsed and perhaps painted. Bundled with esbuild, as Astro
 * bundles its client directives.
 */
export function inlineScripts() {
  return {
    name: 'roland:inline-script',
    enforce: 'pre' as const,
    async load(this: { addWatchFile(file: string): void }, id: string) {
      if (!id.endsWith(suffix)) return null
      const entry = id.slice(0, -suffix.length)
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        format: 'iife',
        minify: true,
        target: 'es2022',
        legalComments: 'none',
        // The project's tsconfig is strict, which would start every script with "use strict": bytes
        // in every page's first round trip, for code that is strict-clean anyway.
        tsconfigRaw: { compilerOptions: { alwaysStrict: false } },
        metafile: true,
        write: false,
      })
      for (const input of Object.keys(result.metafile.inputs)) this.addWatchFile(path.resolve(input))
      return `export default ${JSON.stringify(result.outputFiles[0]!.text.trim())}`
    },
  }
}
