import { readFile, unlink, writeFile } from 'node:fs/promises'

/** Tells whether a process with this id is running on this machine. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, it just is not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** How to wait for a lock file, and what to say when waiting is over. */
export interface LockFileOptions {
  /** How long to wait for a live holder (default: for ever). */
  timeoutMs?: number
  /** How often to look again (default 100 ms). */
  pollMs?: number
  /** The error when a live process still holds the lock after timeoutMs. */
  busyError?: (pid: number) => Error
  /** The error when this very process holds it already; without it, such a lock counts as stale. */
  sameProcessError?: () => Error
}

/**
 * Takes a lock file holding this process's id, waiting while a live process holds it and taking
 * over one whose holder is gone. Resolves to the function that releases it.
 */
export async function acquireLockFile(file: string, options: LockFileOptions = {}): Promise<() => Promise<void>> {
  const deadline = Date.now() + (options.timeoutMs ?? Number.POSITIVE_INFINITY)
  for (;;) {
    try {
      await writeFile(file, String(process.pid), { flag: 'wx' })
      return async () => {
        await unlink(file).catch(() => {})
      }
    } catch {
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim())
      if (pid === process.pid && options.sameProcessError) throw options.sameProcessError()
      if (pid && pid !== process.pid && isProcessAlive(pid)) {
        if (Date.now() >= deadline) {
          throw options.busyError?.(pid) ?? new Error(`${file} is held by process ${pid}`)
        }
        await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100))
        continue
      }
      // The process that held it is gone: the lock is stale.
      await unlink(file).catch(() => {})
    }
  }
}
