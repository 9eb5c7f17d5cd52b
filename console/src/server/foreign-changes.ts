import { watch, type FSWatcher } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'

// Opening the embedded database costs a fraction of a second of CPU, so re-reading the job
// history every few seconds "just in case" would keep it busy (and the CLI waiting) for nothing.
// Another process can only change it while holding its lock file (db.lock, holding its pid):
// the console re-reads the history only after another process has held the lock and let go.
// A holder that comes and goes between the watcher's event and its look at the file leaves no pid
// to see (a quick CLI job on a busy machine), so the history is also re-read every so many looks
// (about every ten seconds: server.ts).
// Supabase has no such lock: there, the history is simply re-read every time.

/** Says when the job history may have been changed by another process. */
export interface ChangeSignal {
  /** True when the history should be re-read now. */
  due(): Promise<boolean>
  close(): void
}

/** Re-read every time (Supabase: many writers, no lock file). */
export function alwaysDue(): ChangeSignal {
  return { due: async () => true, close: () => {} }
}

/**
 * Re-read after another process has held the embedded database's lock and released it, and at
 * least every `sweepEvery` looks.
 */
export function lockFileSignal(dataDir: string, ownPid = process.pid, sweepEvery = 10): ChangeSignal {
  const lockFile = path.join(dataDir, 'db.lock')
  let touched = false
  let looks = 0
  const foreignHolder = async (): Promise<boolean> => {
    const pid = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim())
    return Boolean(pid) && pid !== ownPid
  }
  const look = async () => {
    if (await foreignHolder()) touched = true
  }
  let watcher: FSWatcher | null = null
  try {
    watcher = watch(dataDir, (_event, name) => {
      if (name === 'db.lock') void look()
    })
    watcher.on('error', () => {
      watcher?.close()
      watcher = null
      touched = true
    })
  } catch {
    // No watching here (an unusual filesystem): the periodic look below still sees long holds.
    watcher = null
  }
  return {
    async due() {
      if (await foreignHolder()) {
        // Someone is working: read once they are done, not while they hold it.
        touched = true
        return false
      }
      if (!touched && watcher !== null && ++looks < sweepEvery) return false
      touched = false
      looks = 0
      return true
    },
    close() {
      watcher?.close()
    },
  }
}
