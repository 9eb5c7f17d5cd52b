// The public site (DESIGN.md, "The site"): every page pre-rendered from the catalog at build time,
// React only for the islands, Tailwind 4 through its Vite plugin.
import react from '@astrojs/react'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'astro/config'
import { loadDotEnv } from '@roland/scripts/env'
import { siteCatalog } from './site/integrations/site-catalog.ts'
import { clientDirectives } from './site/integrations/client-directives.ts'
import { inlineScripts } from './site/integrations/inline-script.ts'
import { publishSite } from './site/integrations/publish-site.ts'
import { submissions } from './site/integrations/submissions.ts'

// The build reads SUPABASE_URL and its keys from .env, like the CLI does.
loadDotEnv()

export default defineConfig({
  srcDir: './site',
  publicDir: './site/public',
  output: 'static',
  // Tests build into a temporary folder; everyone else gets dist/.
  outDir: process.env.ROLAND_OUT_DIR || './dist',
  // The content store cache lives beside the output so parallel builds never share one.
  cacheDir: process.env.ROLAND_OUT_DIR ? `${process.env.ROLAND_OUT_DIR}.cache` : './node_modules/.astro',
  site: process.env.SITE_URL || 'http://127.0.0.1:4321',
  trailingSlash: 'ignore',
  // Pages are rendered four at a time: with thousands of them, most of a build is waiting on the
  // disk (writing pages, copying the unchanged ones from the last build), which this overlaps.
  build: { concurrency: 4 },
  // submissions(): the visitors' suggestion forms learn their endpoint (PUBLIC_SUBMISSIONS_URL) here.
  integrations: [siteCatalog(), react(), clientDirectives(), submissions(), publishSite()],
  vite: {
    plugins: [tailwindcss(), inlineScripts()],
  },
  devToolbar: { enabled: false },
  experimental: {
    // A rebuild renders again only the pages whose data (their getStaticPaths cacheKey, see
    // site/lib/build-cache.ts) or code changed, and copies the others from the last build's cache.
    incrementalBuild: true,
  },
})
