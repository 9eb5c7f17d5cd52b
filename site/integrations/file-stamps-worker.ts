// Stamps the last site's files in the staging folder on a thread of its own, as a build starts
// (file-stamps.ts, stampAhead).
// Each file's modification time and size come back in two arrays, in the order of the list; a file
// that is not there (or is not a file) has NaN for its time.
import { readlinkSync, statSync } from 'node:fs'
import { constants, setPriority } from 'node:os'
import path from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'

/** What the thread is given. */
export interface FileStampsData {
  dir: string
  files: readonly string[]
}

/** What it sends back. */
export interface FileStampsMessage {
  mtimes: Float64Array
  sizes: Float64Array
}

const { dir, files } = workerData as FileStampsData
// At the lowest priority: the build's threads come first (the catalog reader making the search
// index, the main thread working out the paths), and this one takes what they leave idle.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), constants.priority.PRIORITY_LOW)
} catch {
  // Not Linux, or not allowed: at the build's priority.
}
const mtimes = new Float64Array(files.length)
const sizes = new Float64Array(files.length)
for (const [n, file] of files.entries()) {
  const stats = statSync(path.join(dir, file), { throwIfNoEntry: false })
  mtimes[n] = stats?.isFile() ? stats.mtimeMs : NaN
  sizes[n] = stats?.isFile() ? stats.size : 0
}
parentPort!.postMessage({ mtimes, sizes } satisfies FileStampsMessage, [mtimes.buffer, sizes.buffer])
