import { processIds, readProcStat } from './processes.ts'

// `ROLAND_TEST_CPU=1 pnpm test`: the machine's time each test file took, its own and its processes'
// (CLI commands, site builds, consoles, Chromium), printed at the end of the run (cpu-reporter.ts).
// The suite is bound by its CPU time on a 2-core machine, not by waiting: a file's wall time says
// more about what ran beside it than about what it costs.
//
// Linux counts a process's CPU time in /proc/<pid>/stat: its own (utime, stime) and that of the
// children it has waited for (cutime, cstime). A test worker's time over one file is then the change
// in its own and its children's counts, plus the change in those of the processes still running
// under it (a CLI job, Chromium, which the worker's files share and which waits for its pages'
// processes itself): a process that ends moves its time from the second part to its parent's
// children's count, and nothing is counted twice. A process left to run on its own (reparented to
// init) is lost to the count from then on.

/** Clock ticks per second of /proc's times (USER_HZ): 100 on Linux's usual builds. */
const ticksPerSecond = 100

export interface ProcessTimes {
  pid: number
  ppid: number
  /** Its own CPU time, in seconds. */
  own: number
  /** The CPU time of the children it has waited for, in seconds. */
  children: number
}

/**
 * A process's times from the fields of its /proc/<pid>/stat line after its name (processes.ts, where
 * field 3 of proc(5), the state, is the first): ppid is field 4, utime, stime, cutime and cstime 14
 * to 17. Null when they are not numbers.
 */
export function processTimes(pid: number, fields: readonly string[]): ProcessTimes | null {
  const field = (n: number) => Number(fields[n - 3])
  const [utime, stime, cutime, cstime] = [field(14), field(15), field(16), field(17)]
  if (![utime, stime, cutime, cstime].every(Number.isFinite)) return null
  return { pid, ppid: field(4), own: (utime + stime) / ticksPerSecond, children: (cutime + cstime) / ticksPerSecond }
}

/** Reads a process's times from /proc; null once the process is gone (or off Linux). */
export function readProcessTimes(pid: number): ProcessTimes | null {
  const stat = readProcStat(pid)
  return stat && processTimes(pid, stat.fields)
}

/**
 * The CPU time, in seconds, of a process and everything under it: its own, its waited-for
 * children's, and that of every process still running under it with theirs. Null off Linux.
 */
export function treeCpuSeconds(root: number = process.pid): number | null {
  const self = readProcessTimes(root)
  if (!self) return null
  const byParent = new Map<number, ProcessTimes[]>()
  for (const times of processIds().flatMap((pid) => readProcessTimes(Number(pid)) ?? [])) {
    const siblings = byParent.get(times.ppid)
    if (siblings) siblings.push(times)
    else byParent.set(times.ppid, [times])
  }
  let total = 0
  const visit = (times: ProcessTimes) => {
    total += times.own + times.children
    for (const child of byParent.get(times.pid) ?? []) visit(child)
  }
  visit(self)
  return total
}
