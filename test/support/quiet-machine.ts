import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { processIds, readProcStat } from './processes.ts'

// Lighthouse simulates a phone from what this machine's main thread does: a process still busy
// beside it (a build or a browser a test left running, a disk flush after the suite) adds its
// time to the page's Total Blocking Time. `pnpm lhci` therefore waits for the machine to settle
// first, and names what keeps it busy when it does not.

/** The share of all cores busy over the next interval, from the kernel's per-core counters. */
async function busyShare(intervalMs: number): Promise<number> {
  const total = () =>
    cpus().reduce(
      (sum, { times }) => {
        const all = times.user + times.nice + times.sys + times.idle + times.irq
        return { all: sum.all + all, idle: sum.idle + times.idle }
      },
      { all: 0, idle: 0 },
    )
  const before = total()
  await sleep(intervalMs)
  const after = total()
  const all = after.all - before.all
  return all > 0 ? 1 - (after.idle - before.idle) / all : 0
}

/** CPU ticks each process has used so far (Linux's /proc), by pid, with its command line. */
function processTicks(): Map<number, { ticks: number; command: string }> {
  const ticks = new Map<number, { ticks: number; command: string }>()
  for (const pid of processIds()) {
    const stat = readProcStat(pid)
    if (!stat) continue // The process ended meanwhile.
    let cmdline: string
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
    } catch {
      continue // The process ended meanwhile.
    }
    // A kernel thread has no command line: its name, in parentheses, then.
    ticks.set(Number(pid), {
      ticks: Number(stat.fields[11]) + Number(stat.fields[12]),
      command: cmdline || `(${stat.name})`,
    })
  }
  return ticks
}

/** The processes that used the most CPU over the next interval, busiest first. */
async function busiestProcesses(intervalMs: number): Promise<string[]> {
  const before = processTicks()
  await sleep(intervalMs)
  const after = processTicks()
  return [...after]
    .map(([pid, now]) => ({ pid, used: now.ticks - (before.get(pid)?.ticks ?? now.ticks), command: now.command }))
    .filter((entry) => entry.used > 0 && entry.pid !== process.pid)
    .sort((a, b) => b.used - a.used)
    .slice(0, 5)
    .map(({ pid, used, command }) => `  pid ${pid}, ${used} ticks: ${command.slice(0, 160)}`)
}

/**
 * Waits until the machine has been quiet (under a quarter of its cores busy) for three seconds in
 * a row, at most `maxWaitMs`. Gives whether it became quiet; when it did not, logs what kept it busy.
 */
export async function waitForQuietMachine(log: (line: string) => void, maxWaitMs = 120_000): Promise<boolean> {
  const started = performance.now()
  let quietSeconds = 0
  let share = 0
  while (performance.now() - started < maxWaitMs) {
    share = await busyShare(1000)
    quietSeconds = share < 0.25 ? quietSeconds + 1 : 0
    if (quietSeconds >= 3) {
      log(
        `The machine is quiet (${Math.round(share * 100)}% busy) after ${Math.round((performance.now() - started) / 1000)} s.`,
      )
      return true
    }
  }
  log(`The machine is still ${Math.round(share * 100)}% busy after ${maxWaitMs / 1000} s; Lighthouse measures anyway.`)
  for (const line of await busiestProcesses(2000)) log(line)
  return false
}
