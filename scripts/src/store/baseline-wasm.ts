import { setFlagsFromString } from 'node:v8'

/**
 * Keeps the embedded Postgres (PGlite, WebAssembly) in V8's baseline code unless a function runs
 * about 77 times longer than V8's default tier-up budget. By default V8 also compiled PGlite's
 * busiest functions again, optimized, on other threads: seconds of CPU time that a CLI command did
 * not live long enough to use and waited for as it exited (an `alerts list` took 5.3 s of CPU time
 * instead of 2), and that a long import of a thousand businesses did not win back either. Call it
 * at a process's start, before the first store opens (PGlite compiles its WebAssembly then). V8's
 * own budget is 13,000,000; `budget` sets another.
 */
export function keepWasmInBaseline(budget = 1_000_000_000): void {
  setFlagsFromString(`--wasm-tiering-budget=${budget}`)
}
