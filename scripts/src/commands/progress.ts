import type { JobListener } from '../jobs/run-job.ts'

/**
 * Makes a job listener that draws a one-line progress bar on stderr when it is a terminal,
 * and nothing otherwise (so piped output stays a plain summary).
 */
export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): JobListener & { done(): void } {
  const enabled = Boolean(stream.isTTY)
  let drawn = false
  const listener = ((event) => {
    if (!enabled || !('progress' in event)) return
    const { phase, done, total } = event.progress
    const ratio = total > 0 ? Math.min(1, done / total) : 0
    const width = 24
    const filled = Math.round(ratio * width)
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`
    stream.write(`\r${bar} ${String(Math.round(ratio * 100)).padStart(3)}% ${phase} (${done}/${total})\x1b[K`)
    drawn = true
  }) as JobListener & { done(): void }
  listener.done = () => {
    if (drawn) stream.write('\r\x1b[K')
    drawn = false
  }
  return listener
}
