import { spawn } from 'node:child_process'

/** The id of a process that has ended: what a process that died leaves behind (a job, a lock, a folder) names. */
export function deadProcessId(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
    child.on('error', reject)
    child.on('close', () => resolve(child.pid!))
  })
}
