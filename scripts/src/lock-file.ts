import { randomBytes } from 'node:crypto'
import { link, readFile, stat, unlink, writeFile } from 'node:fs/promises'

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
 *
 * The lock never exists without its holder's id in it: the id is written to a file of this
 * process's own, which is then hard-linked to the lock's name, an atomic step that fails when
 * another process got there first. (Creating the lock and then writing the id left a moment in
 * which a waiter read an empty lock, took it for stale, and deleted it: two holders.) Only one
 * waiter at a time may delete a stale lock, and only after reading it again (see removeStale).
 */
export async function acquireLockFile(file: string, options: LockFileOptions = {}): Promise<() => Promise<void>> {
  const deadline = Date.now() + (options.timeoutMs ?? Number.POSITIVE_INFINITY)
  const pause = () => new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100))
  const claim = `${file}.${process.pid}-${randomBytes(6).toString('hex')}`
  await writeFile(claim, String(process.pid))
  try {
    for (;;) {
      try {
        await link(claim, file)
        return async () => {
          await unlink(file).catch(() => {})
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      const held = await readFile(file, 'utf8').catch(() => undefined)
      // Released between the two looks: try again at once.
      if (held === undefined) continue
      const pid = Number(held.trim())
      if (pid === process.pid && options.sameProcessError) throw options.sameProcessError()
      if (pid && pid !== process.pid && isProcessAlive(pid)) {
        if (Date.now() >= deadline) {
          throw options.busyError?.(pid) ?? new Error(`${file} is held by process ${pid}`)
        }
        await pause()
        continue
      }
      // The process that held it is gone: the lock is stale.
      if (!(await removeStale(file, held))) await pause()
    }
  } finally {
    await unlink(claim).catch(() => {})
  }
}

/** A takeover older than this was left by a process that stopped in the middle of one. */
const takeoverLimitMs = 10_000

/**
 * Deletes a stale lock, if it still holds what was read from it. Waiters that found the same
 * stale lock take turns through a second lock file: without it, one could delete the lock another
 * had just taken in the stale one's place. Returns false when another waiter is at it.
 */
async function removeStale(file: string, staleContent: string): Promise<boolean> {
  const takeover = `${file}.takeover`
  try {
    await writeFile(takeover, String(process.pid), { flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const since = await stat(takeover).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    )
    if (since > takeoverLimitMs) await unlink(takeover).catch(() => {})
    return false
  }
  try {
    if ((await readFile(file, 'utf8').catch(() => undefined)) === staleContent) await unlink(file).catch(() => {})
    return true
  } finally {
    await unlink(takeover).catch(() => {})
  }
}
