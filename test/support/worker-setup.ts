import { appendFileSync } from 'node:fs'
import { keepWasmInBaselineOnly } from '@roland/scripts/store/baseline-wasm'
import { afterAll, expect } from 'vitest'
import { cpuLogVariable } from './cpu-reporter.ts'
import { treeCpuSeconds } from './file-cpu.ts'

// Each test worker opens hundreds of embedded databases, each a fresh instance of PGlite's
// WebAssembly. V8 compiled the busiest functions of each one again, optimized, on its own threads:
// a quarter of the CPU time of the database-heavy test files, and most of their page faults. The
// CLI, the console and a site build keep PGlite in baseline code the same way, so the tests run it
// as those processes do, with the same V8 flags: the modules a worker loads natively (the packages)
// then find the compiled code those processes left, and leave them theirs (baseline-wasm.ts). Seven
// database-heavy files took 87-96 CPU-s at the budget for many statements, 90-91 in baseline code. A
// worker runs this before each of its files; the flags are the process's, set again to the same values.
keepWasmInBaselineOnly()

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
