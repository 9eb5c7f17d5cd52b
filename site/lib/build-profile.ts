// Where a build spends its time and memory, phase by phase (issue 50): with ROLAND_BUILD_PROFILE=1
// (`roland rebuild --profile`, the site bench's --profile) the build prints a table of its phases
// once it has published. Off, each call is one comparison.
//
// The phases are recorded in one slot of the build's main thread (Symbol.for), which the
// integrations (loaded by Node) and the pages' code (Astro's prerender bundle, a copy of its own)
// share. Work done on the build thread (site/integrations/build-thread.ts) is counted in
// "page rendering" as a whole, not by phase.

import { profileLinePrefix, profileVariable } from '@roland/scripts/rebuild/build-process'
import { processSlot } from '@roland/scripts/process-slot'

/** One phase: its time in all, how often it ran, and the process's memory as it last ended. */
interface Phase {
  ms: number
  calls: number
  rssMb: number
  heapMb: number
  /** When it last ended, in ms since the build started. */
  endedMs: number
}

const slot = processSlot<Profile>('roland.site.build-profile')

/** Whether this build profiles its phases (ROLAND_BUILD_PROFILE=1). */
export function buildProfileOn(): boolean {
  return process.env[profileVariable] === '1'
}

interface Profile {
  phases: Map<string, Phase>
  /** When the build started (performance.now()): a process on standby waited before it. */
  startedMs: number
}

function profile(): Profile {
  return slot.kept(() => ({ phases: new Map(), startedMs: 0 }))
}

const phases = () => profile().phases

/**
 * Notes that a build starts now, in a process that built before (site/integrations/build-server.ts):
 * its profile starts empty.
 */
export function markBuildStart(): void {
  slot.set({ phases: new Map(), startedMs: performance.now() })
}

/** Adds `ms` to a phase of the profile, with the process's memory now (nothing when not profiling). */
export function recordPhase(name: string, ms: number): void {
  if (!buildProfileOn()) return
  const memory = process.memoryUsage()
  const phase = phases().get(name) ?? { ms: 0, calls: 0, rssMb: 0, heapMb: 0, endedMs: 0 }
  phase.ms += ms
  phase.calls += 1
  phase.rssMb = memory.rss / 2 ** 20
  phase.heapMb = memory.heapUsed / 2 ** 20
  phase.endedMs = performance.now() - profile().startedMs
  phases().set(name, phase)
}

/** Runs work (sync or async) and records its time under a phase of the profile. */
export function profiled<T>(name: string, work: () => T): T {
  if (!buildProfileOn()) return work()
  const started = performance.now()
  const result = work()
  if (result instanceof Promise) {
    return result.finally(() => recordPhase(name, performance.now() - started)) as T
  }
  recordPhase(name, performance.now() - started)
  return result
}

/**
 * The profile as lines of a table (each starting with profileLinePrefix): every phase with its
 * time, calls and the memory as it ended, then the whole build and the process's peak memory.
 */
export function profileLines(): string[] {
  const rows = [...phases()].map(([name, phase]) =>
    [
      name.padEnd(46),
      `${(phase.ms / 1000).toFixed(2).padStart(8)} s`,
      String(phase.calls).padStart(7),
      `${(phase.endedMs / 1000).toFixed(2).padStart(6)} s`,
      `${Math.round(phase.rssMb).toString().padStart(6)} MB`,
      `${Math.round(phase.heapMb).toString().padStart(6)} MB`,
    ].join(' | '),
  )
  const peakMb = process.resourceUsage().maxRSS / 1024
  return [
    [
      'phase'.padEnd(46),
      'time'.padStart(10),
      'calls'.padStart(7),
      'ended at'.padStart(8),
      'RSS after'.padStart(9),
      'heap used'.padStart(9),
    ].join(' | '),
    ...rows,
    `${'whole build'.padEnd(46)} | ${((performance.now() - profile().startedMs) / 1000).toFixed(2).padStart(8)} s | ${''.padStart(7)} | ${''.padStart(8)} | peak ${Math.round(peakMb)} MB`,
  ].map((line) => `${profileLinePrefix} ${line}`)
}
