import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from 'vitest'
import { cpuReport, readCpuLog } from './cpu-reporter.ts'
import { processTimes, readProcessTimes, treeCpuSeconds } from './file-cpu.ts'
import { parseProcStat } from './processes.ts'

/** A child that works until it has used `ms` of CPU time, then waits to be told to end (stdin closed). */
function busyChild(ms: number) {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `while (process.cpuUsage().user < ${ms * 1000}); process.stdout.write('done\\n'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0))`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  )
  const busyDone = once(child.stdout, 'data')
  return { child, busyDone }
}

test('reads a process line of /proc, a command name with spaces and parentheses included', () => {
  // pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
  const line = '4242 (node (worker) 1) S 17 4242 4242 0 -1 4194560 900 0 0 0 250 50 1200 300 20 0 11 0 123 0 0'
  const stat = parseProcStat(line)
  expect(stat.name).toBe('node (worker) 1')
  expect(processTimes(4242, stat.fields)).toEqual({ pid: 4242, ppid: 17, own: 3, children: 15 })
  expect(processTimes(1, parseProcStat('garbage').fields)).toBeNull()
  expect(readProcessTimes(2 ** 30)).toBeNull()
})

test("counts a child's CPU time while it runs, and its parent's count of it once it has ended", async () => {
  const before = treeCpuSeconds()!
  expect(before).toBeGreaterThan(0)
  const { child, busyDone } = busyChild(600)
  await busyDone
  // Running: counted as a process under this one.
  const whileRunning = treeCpuSeconds()!
  expect(whileRunning - before).toBeGreaterThanOrEqual(0.4)
  expect(readProcessTimes(child.pid!)!.ppid).toBe(process.pid)
  child.stdin.end()
  await once(child, 'exit')
  // Ended and waited for: in this process's count of its children, not lost, not counted twice.
  const after = treeCpuSeconds()!
  expect(after - before).toBeGreaterThanOrEqual(0.4)
  expect(after - whileRunning).toBeLessThan(0.4)
})

test('reports the costliest files first, leaving out a line a killed worker cut short', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'roland-cpu-log-'))
  try {
    const log = path.join(dir, 'cpu.jsonl')
    await writeFile(
      log,
      [
        JSON.stringify({ file: '/repo/a.test.ts', cpuSeconds: 2, wallSeconds: 3 }),
        JSON.stringify({ file: '/repo/b.test.ts', cpuSeconds: 12.5, wallSeconds: 9 }),
        '{"file": "/repo/c.te',
      ].join('\n'),
    )
    const files = readCpuLog(log)
    expect(files.map((file) => file.file)).toEqual(['/repo/a.test.ts', '/repo/b.test.ts'])
    const report = cpuReport(files, 20, '/repo')
    expect(report.indexOf('b.test.ts')).toBeLessThan(report.indexOf('a.test.ts'))
    expect(report).toContain('    14.5           all 2 files')
    expect(report).toContain('    20.0           the whole run')
    expect(readCpuLog(path.join(dir, 'none.jsonl'))).toEqual([])
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
