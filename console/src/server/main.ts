import { enableCompileCache } from 'node:module'
import { keepWasmInBaselineOnly } from '@roland/scripts/store/baseline-wasm'

// `pnpm console` (start.ts serves it). Node keeps the compiled code of the modules the console
// loads (in os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE), as the CLI does
// (scripts/src/cli.ts), and the next start reuses it: they are loaded below, once it is on. A start
// took 2.8-3.2 CPU-s without it (0.3 s of it stripping the types from every TypeScript module),
// 2.4-2.7 with it. Never an error: without a writable folder, the console compiles as before.
enableCompileCache()

// The console opens the embedded database for each request (a leased store) and runs short queries:
// PGlite stays in V8's baseline code (baseline-wasm.ts). With the default budget V8 optimized its
// SQL parser after five calls of /api/businesses on the sample store: 1.7 s of CPU time and a 600 MB
// spike of the compiler's memory (a console started, five calls, 3 s idle: 3.6-4.1 CPU-s and 750 MB
// at most; now 2.1-2.4 CPU-s and 220-240 MB). Its reads cost no more in baseline code: the catalog
// of 10,000 businesses in 1.9-2.0 s and 255 MB against 2.0-2.2 s and 400-420 MB; of 100,000 in
// 13.8-16.4 s and 770 MB against 12.4-15.0 s and 1,300 MB. Set before the console's modules load,
// as every process of the project sets it (baseline-wasm.ts): V8 keeps each module's compiled code
// under a hash of its flags, and rejects it in a process whose flags were not the same.
keepWasmInBaselineOnly()

await import('./start.ts')
