// What a build writes for the next build only, left until it is served in a process that builds
// again (build-server.ts): Astro's manifest of the pages it wrote is one (Astro's patched
// incremental.js), the record of the site it published another (publish-site.ts). At 100,000
// businesses the record, every file's name and stamp, took 0.1-0.2 s of each rebuild to write. The
// process writes them once the build is served, before it waits for the next one, and on SIGTERM;
// a process that ends without writing them leaves the next build without them, never with a record
// older than the site (publish-site.ts removes the last one as it starts).
import { processSlot } from '@roland/scripts/process-slot'

const pending = processSlot<Array<() => void>>('roland.site.after-served')

/** Makes this process's builds leave what onceServed is given until writeServed (build-server.ts). */
export function deferUntilServed(): void {
  pending.set(pending.get() ?? [])
}

/** Runs `write` once the build is served, in a process that defers (deferUntilServed); else now. */
export function onceServed(write: () => void): void {
  const writes = pending.get()
  if (writes) writes.push(write)
  else write()
}

/** Runs what waited for the build to be served, in order; a write that fails is said on stderr. */
export function writeServed(): void {
  for (const write of pending.get()?.splice(0) ?? []) {
    try {
      write()
    } catch (error) {
      process.stderr.write(`[roland:build-server] ${(error as Error).message}\n`)
    }
  }
}
