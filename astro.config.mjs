// The public site (DESIGN.md, "The site"): every page pre-rendered from the catalog at build time,
// React only for the islands, Tailwind 4 through its Vite plugin.
import react from '@astrojs/react'
import tailwindcss from '@tailwindcss/vite'
import { loadDotEnv } from '@roland/scripts/env'
import { keepWasmInBaselineOnly } from '@roland/scripts/store/baseline-wasm'
import { siteCatalog } from './site/integrations/site-catalog.ts'
import { bundleCache } from './site/integrations/bundle-cache.ts'
import { clientDirectives } from './site/integrations/client-directives.ts'
import { inlineScripts } from './site/integrations/inline-script.ts'
import { publishSite } from './site/integrations/publish-site.ts'
import { submissions } from './site/integrations/submissions.ts'
import { buildStarted } from './site/integrations/build-standby.ts'
import { serviceWorker } from './site/integrations/service-worker.ts'
import { siteCacheDir } from './site/integrations/search-index-kept.ts'
import { markBuildStart } from './site/lib/build-profile.ts'

// PGlite (the catalog's reader) in V8's baseline code, with the flags every process of the project
// has (scripts/src/store/baseline-wasm.ts), before the build loads the rest of its modules. A build
// the console or the CLI starts has them from its command line (scripts/src/rebuild/astro-build.ts).
keepWasmInBaselineOnly()

// A build's process started ahead of time waits here, with Astro and the site's code loaded but
// nothing read yet, until its rebuild starts it (site/integrations/build-standby.ts).
await buildStarted()
markBuildStart()

// The build reads SUPABASE_URL and its keys from .env, like the CLI does.
loadDotEnv()

// A plain object, typed here rather than by astro/config's defineConfig: that module also loads
// the SVG optimizer (svgo, csso, css-tree: about 280 modules) into every build, which never uses it.
/** @type {import('astro').AstroUserConfig} */
export default {
  srcDir: './site',
  publicDir: './site/public',
  output: 'static',
  // Tests build into a temporary folder; everyone else gets dist/.
  outDir: process.env.ROLAND_OUT_DIR || './dist',
  // The content store cache lives beside the output so parallel builds never share one.
  cacheDir: siteCacheDir(),
  site: process.env.SITE_URL || 'http://127.0.0.1:4321',
  trailingSlash: 'ignore',
  // Eight pages at a time: the build's second thread (site/integrations/build-thread.ts) renders
  // up to six of them while this one writes pages and renders the rest.
  build: { concurrency: 8 },
  // submissions(): the visitors' suggestion forms learn their endpoint (PUBLIC_SUBMISSIONS_URL) here.
  // serviceWorker(): /sw.js, written after the pages and before publishSite() publishes them.
  // bundleCache(): a build of the same code reuses the last one's bundle instead of bundling again.
  integrations: [
    bundleCache(),
    siteCatalog(),
    react(),
    clientDirectives(),
    submissions(),
    serviceWorker(),
    publishSite(),
  ],
  vite: {
    plugins: [tailwindcss(), inlineScripts()],
  },
  devToolbar: { enabled: false },
  // Astro's log, with the build's line per page written in batches (site/integrations/site-log.ts).
  logger: { entrypoint: new URL('./site/integrations/site-log.ts', import.meta.url) },
  experimental: {
    // A rebuild renders again only the pages whose data (their getStaticPaths cacheKey, see
    // site/lib/build-cache.ts) or code changed, and copies the others from the last build's cache.
    incrementalBuild: true,
  },
}
