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

  test('is held by one process at a time when several want it at once', async () => {
    const file = path.join(dir, 'e.lock')
    // Each process takes the lock 100 times, and while holding it creates and deletes a file
    // that must not exist: another holder's. It prints how often it found that file there.
    const contender = `
      import { acquireLockFile } from ${JSON.stringify(new URL('./lock-file.ts', import.meta.url).href)}
      import { unlink, writeFile } from 'node:fs/promises'
      let clashes = 0
      for (let i = 0; i < 100; i++) {
        const release = await acquireLockFile(${JSON.stringify(file)}, { pollMs: 1 })
        try {
          await writeFile(${JSON.stringify(`${file}.held`)}, '', { flag: 'wx' })
          await new Promise((resolve) => setImmediate(resolve))
          await unlink(${JSON.stringify(`${file}.held`)})
        } catch {
          clashes++
        }
        await release()
      }
      process.stdout.write(String(clashes))`
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', contender], {
          stdio: ['ignore', 'pipe', 'inherit'],
        })
        let out = ''
        child.stdout.on('data', (chunk) => (out += chunk))
        child.on('error', reject)
        child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`a contender exited with ${code}`))))
      })
    expect(await Promise.all([run(), run(), run(), run()])).toEqual(['0', '0', '0', '0'])
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/)
  })

  test('fails at once when the lock cannot be written at all', async () => {
    await expect(acquireLockFile(path.join(dir, 'no-such-folder', 'f.lock'), { timeoutMs: 0 })).rejects.toThrow(
      /ENOENT/,
    )
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
