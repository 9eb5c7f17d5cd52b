import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { freshStoreIn } from './support/fresh-store.ts'

// `roland alerts` (issue 48) as an operator or a script uses it: a real process over its own
// embedded database.

const execute = promisify(execFile)
const cli = path.join(import.meta.dirname, '..', 'src', 'cli.ts')
let dataDir: string

async function roland(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execute(process.execPath, [cli, ...args], {
      env: { ...process.env, SUPABASE_URL: '', ROLAND_DATA_DIR: dataDir },
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'roland-alerts-cli-'))
  await (await freshStoreIn(dataDir)).close()
})

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe('roland alerts', () => {
  test('publishes a new alert, lists it, and ends it with an all clear', async () => {
    const published = await roland(
      'alerts',
      'publish',
      '--title',
      'Boil water',
      '--level',
      'emergency',
      '--kind',
      'water',
      '--json',
    )
    expect(published.code, published.stderr).toBe(0)
    const { alert } = JSON.parse(published.stdout) as { alert: { id: string; status: string; messages: unknown[] } }
    expect(alert).toMatchObject({ status: 'published', messages: [expect.objectContaining({ msg_type: 'Alert' })] })

    const listed = await roland('alerts', 'list')
    expect(listed.stdout).toMatch(new RegExp(`^${alert.id}\\s+published\\s+emergency\\s+Boil water$`, 'm'))

    const ended = await roland('alerts', 'end', alert.id, '--message', 'Safe to drink again.', '--json')
    expect(ended.code, ended.stderr).toBe(0)
    expect(JSON.parse(ended.stdout).alert).toMatchObject({ status: 'ended', all_clear: 'Safe to drink again.' })
    const json = JSON.parse((await roland('alerts', 'list', '--json')).stdout) as {
      alerts: Array<{ id: string; status: string }>
    }
    expect(json.alerts.find((a) => a.id === alert.id)?.status).toBe('ended')
  }, 600_000)

  test('refuses a bad level and an unknown id with a clear one-line error, saving nothing', async () => {
    const count = async () =>
      (JSON.parse((await roland('alerts', 'list', '--json')).stdout) as { alerts: unknown[] }).alerts.length
    const before = await count()
    const bad = await roland('alerts', 'publish', '--title', 'x', '--level', 'panic')
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/^roland: Level must be one of emergency, advisory, notice/)
    const unknown = await roland('alerts', 'end', '00000000-0000-4000-8000-000000000000')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/No alert with id 00000000-0000-4000-8000-000000000000/)
    expect(await count()).toBe(before)
  }, 600_000)
})
