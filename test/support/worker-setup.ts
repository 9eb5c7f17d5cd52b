import { appendFileSync } from 'node:fs'
import { keepWasmInBaseline } from '@roland/scripts/store/baseline-wasm'
import { afterAll, expect } from 'vitest'
import { cpuLogVariable } from './cpu-reporter.ts'
import { treeCpuSeconds } from './file-cpu.ts'

// Each test worker opens hundreds of embedded databases, each a fresh instance of PGlite's
// WebAssembly. V8 compiled the busiest functions of each one again, optimized, on its own threads:
// a quarter of the CPU time of the database-heavy test files, and most of their page faults. The
// CLI, the console and a build's catalog reader keep PGlite in baseline code the same way, so the
// tests run it as those processes do. A worker runs this before each of its files; the flag is the
// process's, set again to the same value.
keepWasmInBaseline()

// ROLAND_TEST_CPU=1: each file's CPU time, its processes' included, for the run's report
// (file-cpu.ts, cpu-reporter.ts), from here, before the file loads its modules, to its end.
const cpuLog = process.env[cpuLogVariable]
if (cpuLog) {
  const start = { cpu: treeCpuSeconds(), at: performance.now() }
  afterAll(() => {
    const cpu = treeCpuSeconds()
    const file = expect.getState().testPath
    if (!file || start.cpu === null || cpu === null) return
    const line = { file, cpuSeconds: cpu - start.cpu, wallSeconds: (performance.now() - start.at) / 1000 }
    appendFileSync(cpuLog, `${JSON.stringify(line)}\n`)
  })
}
