import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { lockFileSignal, type ChangeSignal } from './foreign-changes.ts'

// When the console re-reads the job history of the embedded database: after another process held
// its lock file (db.lock, holding that process's id), and every so many looks besides.

const own = 1_000_001
/** A process that is running: the test runner's parent. */
const other = process.ppid

let dir: string
let signal: ChangeSignal

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'roland-changes-'))
  signal = lockFileSignal(dir, own, 5)
})

afterEach(async () => {
  signal.close()
  await rm(dir, { recursive: true, force: true })
})

const lockFile = () => path.join(dir, 'db.lock')

/** The answers of so many looks in a row. */
async function looks(count: number): Promise<boolean[]> {
  const answers: boolean[] = []
  for (let i = 0; i < count; i++) answers.push(await signal.due())
  return answers
}

describe('the lock-file signal', () => {
  test('waits while another process holds the lock, and says to re-read once it let go', async () => {
    await writeFile(lockFile(), String(other))
    expect(await looks(7)).toEqual([false, false, false, false, false, false, false])
    await unlink(lockFile())
    expect(await signal.due()).toBe(true)
  })

  test('does not re-read for its own holds', async () => {
    await writeFile(lockFile(), String(own))
    expect(await looks(4)).toEqual([false, false, false, false])
  })

  test('re-reads every so many looks, so a holder that came and went unseen is caught up with', async () => {
    // Held and let go before the signal looked: no id was left to see.
    await writeFile(lockFile(), String(other))
    await unlink(lockFile())
    const answers = await looks(10)
    expect(answers.filter(Boolean).length).toBeGreaterThanOrEqual(2)
    expect(answers.slice(0, 5)).toContain(true)
  })
})
