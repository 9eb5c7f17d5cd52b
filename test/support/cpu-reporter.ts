import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { Reporter, Vitest } from 'vitest/node'
import { treeCpuSeconds } from './file-cpu.ts'

// `ROLAND_TEST_CPU=1 pnpm test` (vitest.config.ts): after the run, the test files that took the most
// CPU time, their processes' included (file-cpu.ts; the workers write a line per file), and the run's
// whole CPU time: what to make cheaper first, on a machine where the suite waits on its cores.

/** Where the workers append each file's CPU time (a JSON line each), set by vitest.config.ts. */
export const cpuLogVariable = 'ROLAND_TEST_CPU_LOG'

/** How many files the report lists. */
const listed = 30

interface FileCpu {
  file: string
  cpuSeconds: number
  wallSeconds: number
}

/** Reads the workers' lines; a line cut short by a worker that was killed is left out. */
export function readCpuLog(file: string): FileCpu[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return []
  }
  return text.split('\n').flatMap((line) => {
    try {
      return line ? [JSON.parse(line) as FileCpu] : []
    } catch {
      return []
    }
  })
}

/** The report: the costliest files first, then what the files and the whole run took. */
export function cpuReport(files: readonly FileCpu[], runCpuSeconds: number | null, root: string): string {
  const sorted = [...files].sort((a, b) => b.cpuSeconds - a.cpuSeconds)
  const sum = files.reduce((total, file) => total + file.cpuSeconds, 0)
  const lines = [
    '',
    `CPU time of the test files, their processes' included (ROLAND_TEST_CPU=1), the ${Math.min(listed, sorted.length)} costliest of ${files.length}:`,
    '   CPU s   wall s  file',
    ...sorted
      .slice(0, listed)
      .map(
        (file) =>
          `${file.cpuSeconds.toFixed(1).padStart(8)} ${file.wallSeconds.toFixed(1).padStart(8)}  ${path.relative(root, file.file)}`,
      ),
    `${sum.toFixed(1).padStart(8)}           all ${files.length} files`,
  ]
  if (runCpuSeconds !== null) {
    lines.push(
      `${runCpuSeconds.toFixed(1).padStart(8)}           the whole run as Vitest's process counts it (set-up included; a Chromium that outlives its worker leaves the count)`,
    )
  }
  return `${lines.join('\n')}\n`
}

export default class CpuReporter implements Reporter {
  #start: number | null = null
  #root = process.cwd()

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root
    this.#start = treeCpuSeconds()
  }

  onTestRunEnd(): void {
    const log = process.env[cpuLogVariable]
    if (!log) return
    const end = treeCpuSeconds()
    const run = end !== null && this.#start !== null ? end - this.#start : null
    process.stdout.write(cpuReport(readCpuLog(log), run, this.#root))
    rmSync(log, { force: true })
  }
}
