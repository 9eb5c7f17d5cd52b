import { readdirSync, readFileSync } from 'node:fs'

// The machine's processes, as Linux's /proc tells them.

/** A process's name and the fields of a /proc/<pid>/stat line after it (0: state, 1: the parent's pid, 11 and 12: CPU ticks). */
export function parseProcStat(stat: string): { name: string; fields: string[] } {
  // The name is in parentheses and may hold spaces and parentheses itself: it ends at the last one.
  const end = stat.lastIndexOf(')')
  return { name: stat.slice(stat.indexOf('(') + 1, end), fields: stat.slice(end + 2).split(' ') }
}

/** A process's name and the fields of /proc/<pid>/stat after it (parseProcStat); null once it ended. */
export function readProcStat(pid: number | string): { name: string; fields: string[] } | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return null
  }
}

/** The pids of the processes running now; none where there is no /proc. */
export function processIds(): string[] {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return []
  }
}

/** The processes whose parent is `pid`. */
export function childProcesses(pid: number): number[] {
  return processIds()
    .filter((child) => readProcStat(child)?.fields[1] === String(pid))
    .map(Number)
}
