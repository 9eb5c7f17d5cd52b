import { enableCompileCache } from 'node:module'

// `pnpm console` (start.ts serves it). Node keeps the compiled code of the modules the console
// loads (in os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE), as the CLI does
// (scripts/src/cli.ts), and the next start reuses it: they are loaded below, once it is on. A start
// took 2.8-3.2 CPU-s without it (0.3 s of it stripping the types from every TypeScript module),
// 2.4-2.7 with it. Never an error: without a writable folder, the console compiles as before.
enableCompileCache()

await import('./start.ts')
