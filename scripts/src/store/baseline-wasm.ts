import { setFlagsFromString } from 'node:v8'

/**
 * The budget for a process that runs many statements (a large import: commands/migrate.ts). It
 * keeps PGlite in baseline code unless a function runs about 77 times longer than V8's default
 * budget (13,000,000). By default V8 also compiled PGlite's busiest functions again,
 * optimized, on other threads: seconds of CPU time that a CLI command did not live long enough to
 * use and waited for as it exited (an `alerts list` took 5.3 s of CPU time instead of 2). An import
 * still gets its busiest functions optimized at this budget, and wins that time back: 1,000
 * businesses by `roland migrate` in 3.0 s, 4.1 s at the largest budget; 3,000 in 5.7 s against 8.7 s.
 */
export const manyStatementsBudget = 1_000_000_000

/**
 * Keeps the embedded Postgres (PGlite, WebAssembly) in V8's baseline code up to `budget`, then lets
 * V8 optimize its busiest functions (undoing keepWasmInBaselineOnly). Call it before the first store
 * opens (PGlite compiles its WebAssembly then): a process's start, or a command's, before it opens
 * the store.
 */
export function keepWasmInBaseline(budget = manyStatementsBudget): void {
  // Each of baselineOnlyFlags turned the other way (--liftoff-only → --no-liftoff-only, …).
  for (const flag of baselineOnlyFlags) setFlagsFromString(flag.replace(/^--(no-)?/, (_, no) => (no ? '--' : '--no-')))
  setFlagsFromString(`--wasm-tiering-budget=${budget}`)
}

/**
 * Keeps the embedded Postgres in V8's baseline code, whatever it runs: for a command that runs for
 * seconds (the CLI's), and the console. No budget does that for PGlite's SQL parser (raw_parser,
 * 105 KB of WebAssembly): parsing the seed, a migration or an import's statements used up even the
 * largest budget within seconds, and V8 compiled it again, optimized, on a thread of its own: 1.7 s
 * of CPU time and 600 MB of the compiler's memory (`--trace-wasm-compilation-times`), which the
 * command waited for as it exited. In baseline code alone, on a 2-core machine: `roland db init`
 * 2.8-3.3 CPU-s and 320 MB instead of 4.6-4.8 CPU-s and 745 MB; `roland migrate` of 40 businesses
 * 1.3-1.8 CPU-s and 210 MB instead of 3.4-3.8 CPU-s and 720 MB, of 1,000 in 2.6 s (3.0 CPU-s,
 * 260 MB) instead of 3.1 s (5.2 CPU-s, 850 MB). Commands that parse little (`roland alerts list`,
 * `db backup`) are unchanged. Call it before the first store opens, as keepWasmInBaseline.
 */
export function keepWasmInBaselineOnly(): void {
  for (const flag of baselineOnlyFlags) setFlagsFromString(flag)
}

/**
 * The flags of keepWasmInBaselineOnly: what --liftoff-only implies on the command line, which
 * setting it later does not (both tiers off). A process that starts another can give them on its
 * command line (a site build's: scripts/src/rebuild/astro-build.ts).
 *
 * Every process of the project sets the same ones, as early as it can: V8 keeps a module's compiled
 * code (Node's compile cache, NODE_COMPILE_CACHE) under a hash of its flags, and rejects it in a
 * process whose flags differ when it loads the module, compiling it again and writing it over. With
 * the CLI, the console, the test workers and a build's catalog reader each setting their own, the
 * modules they share (the store, zod, PGlite, libphonenumber) went back and forth between them; a
 * sample site's build found 225-325 of its 2,089 modules rejected after a build just like it.
 */
export const baselineOnlyFlags = ['--liftoff-only', '--no-wasm-dynamic-tiering', '--no-wasm-tier-up']
