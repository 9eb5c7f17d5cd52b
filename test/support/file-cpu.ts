import { readdirSync, readFileSync } from 'node:fs'

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
  /** Its own CPU time and that of the children it has waited for, in seconds. */
  own: number
  children: number
}

/** Reads /proc/<pid>/stat; null once the process is gone (or off Linux). */
export function readProcessTimes(pid: number | 'self'): ProcessTimes | null {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  return parseProcessStat(text)
}

/**
 * Parses a /proc/<pid>/stat line. The command's name, in parentheses, may hold spaces and
 * parentheses itself: the fields are counted from the last ")".
 */
export function parseProcessStat(text: string): ProcessTimes | null {
  const open = text.indexOf('(')
  const close = text.lastIndexOf(')')
  if (open < 0 || close < open) return null
  // After the name: state (field 3), ppid (4), …, utime (14), stime (15), cutime (16), cstime (17).
  const fields = text.slice(close + 2).split(' ')
  const field = (n: number) => Number(fields[n - 3])
  const times = [field(14), field(15), field(16), field(17)]
  if (times.some((t) => !Number.isFinite(t))) return null
  return {
    pid: Number(text.slice(0, open).trim()),
    ppid: field(4),
    own: (times[0]! + times[1]!) / ticksPerSecond,
    children: (times[2]! + times[3]!) / ticksPerSecond,
  }
}

/** Every process on the machine, by pid (those readable while the list is read). */
function allProcesses(): ProcessTimes[] {
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  return names.flatMap((name) => (/^\d+$/.test(name) ? (readProcessTimes(Number(name)) ?? []) : []))
}

/**
 * The CPU time, in seconds, of a process and everything under it: its own, its waited-for
 * children's, and that of every process still running under it with theirs. Null off Linux.
 */
export function treeCpuSeconds(root: number = process.pid): number | null {
  const self = readProcessTimes(root)
  if (!self) return null
  const byParent = new Map<number, ProcessTimes[]>()
  for (const times of allProcesses()) {
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
