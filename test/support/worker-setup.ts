import { keepWasmInBaseline } from '@roland/scripts/store/baseline-wasm'

// Each test worker opens hundreds of embedded databases, each a fresh instance of PGlite's
// WebAssembly. V8 compiled the busiest functions of each one again, optimized, on its own threads:
// a quarter of the CPU time of the database-heavy test files, and most of their page faults. The
// CLI, the console and a build's catalog reader keep PGlite in baseline code the same way, so the
// tests run it as those processes do. A worker runs this before each of its files; the flag is the
// process's, set again to the same value.
keepWasmInBaseline()
