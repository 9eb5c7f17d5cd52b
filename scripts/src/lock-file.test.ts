import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { acquireLockFile, isProcessAlive } from './lock-file.ts'

let dir: string

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'roland-lock-'))
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Starts a process that lives until it is killed, and waits until it has exited afterwards. */
function otherProcess() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  const exited = new Promise((resolve) => child.on('exit', resolve))
  return { pid: child.pid!, stop: async () => (child.kill(), await exited) }
}

describe('acquireLockFile', () => {
  test('writes this process id and removes the file on release', async () => {
    const file = path.join(dir, 'a.lock')
    const release = await acquireLockFile(file)
    expect(await readFile(file, 'utf8')).toBe(String(process.pid))
    await release()
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/)
  })

  test('gives up on a live holder after the timeout with the busy error', async () => {
    const file = path.join(dir, 'b.lock')
    const holder = otherProcess()
    await writeFile(file, String(holder.pid))
    await expect(
      acquireLockFile(file, { timeoutMs: 0, busyError: (pid) => new Error(`busy: ${pid}`) }),
    ).rejects.toThrow(`busy: ${holder.pid}`)
    await holder.stop()
  })

  test('takes over a lock whose holder is gone', async () => {
    const file = path.join(dir, 'c.lock')
    const holder = otherProcess()
    await holder.stop()
    expect(isProcessAlive(holder.pid)).toBe(false)
    await writeFile(file, String(holder.pid))
    const release = await acquireLockFile(file, { timeoutMs: 0 })
    expect(await readFile(file, 'utf8')).toBe(String(process.pid))
    await release()
  })

  test('refuses a second lock in the same process when asked to', async () => {
    const file = path.join(dir, 'd.lock')
    const release = await acquireLockFile(file)
    await expect(acquireLockFile(file, { sameProcessError: () => new Error('already mine') })).rejects.toThrow(
      'already mine',
    )
    await release()
  })
})
