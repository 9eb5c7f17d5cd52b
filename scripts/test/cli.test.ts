import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

// The roland CLI as other tools use it: a real process, its stdout, stderr and exit code.

const run = promisify(execFile)
const cli = path.join(import.meta.dirname, '..', 'src', 'cli.ts')
const fixture = path.join(import.meta.dirname, 'fixtures', 'roland-small.txt')
let dataDir: string

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'roland-cli-'))
})

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

async function roland(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, ROLAND_DATA_DIR: dataDir, SUPABASE_URL: '' }
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { env, timeout: 120_000 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

describe('roland db', () => {
  test('init creates the embedded database with the sample businesses', async () => {
    const { code, stdout } = await roland('db', 'init')
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Created the embedded database in .*: (\d+) active businesses\.$/m)
    expect(Number(stdout.match(/(\d+) active businesses/)![1])).toBeGreaterThanOrEqual(30)
  })

  test('status --json says what the store holds', async () => {
    const { code, stdout } = await roland('db', 'status', '--json')
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ store: 'embedded', categories: 11, attractions: 6, events: 3 })
  })
})

describe('roland migrate', () => {
  test('--dry-run --json prints one JSON object of the contract and changes nothing', async () => {
    const before = JSON.parse((await roland('migrate', 'status', '--json')).stdout)
    const { code, stdout } = await roland('migrate', '--file', fixture, '--dry-run', '--json')
    expect(code).toBe(0)
    const result = JSON.parse(stdout)
    expect(Object.keys(result.businesses[0]).sort()).toEqual(
      expect.arrayContaining([
        'address',
        'category',
        'full_description',
        'hours',
        'name',
        'phone',
        'services',
        'short_description',
        'slug',
        'warnings',
        'website',
      ]),
    )
    expect(result.businesses).toHaveLength(4)
    const { added, updated, unchanged, deactivated } = result.summary
    expect(added + updated + unchanged).toBe(4)
    expect(added).toBeGreaterThan(0)
    // Every sample business the small file does not list would be deactivated.
    expect(deactivated).toBe(before.businessCount - updated - unchanged)
    expect(JSON.parse((await roland('migrate', 'status', '--json')).stdout)).toEqual(before)
  })

  test('imports a file and prints a plain summary when not on a terminal', async () => {
    const { code, stdout } = await roland('migrate', '--file', fixture)
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Migration completed successfully! 4 businesses in the database/)
    expect(JSON.parse((await roland('migrate', 'status', '--json')).stdout)).toEqual({
      isComplete: true,
      businessCount: 4,
    })
  })

  test('--json prints the result object', async () => {
    const { code, stdout } = await roland('migrate', '--file', fixture, '--json')
    expect(code).toBe(0)
    expect(JSON.parse(stdout).summary).toEqual({ added: 0, updated: 0, unchanged: 4, deactivated: 0, conflicts: 0 })
  })

  test('a missing file exits non-zero with one line on stderr and changes nothing', async () => {
    const { code, stdout, stderr } = await roland('migrate', '--file', path.join(dataDir, 'nope.txt'))
    expect(code).not.toBe(0)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^roland: Failed to download Roland\.txt: cannot read .*nope\.txt \(no such file\)\n$/)
    expect(JSON.parse((await roland('migrate', 'status', '--json')).stdout).businessCount).toBe(4)
  })

  test('an unknown option is refused', async () => {
    const { code, stderr } = await roland('migrate', '--frobnicate')
    expect(code).not.toBe(0)
    expect(stderr).toMatch(/unknown option '--frobnicate'/)
  })
})

describe('roland db reset', () => {
  test('brings back the sample data', async () => {
    const { code, stdout } = await roland('db', 'reset')
    expect(code).toBe(0)
    expect(stdout).toMatch(/Recreated .* with \d+ sample businesses/)
    expect(JSON.parse((await roland('migrate', 'status', '--json')).stdout).businessCount).toBeGreaterThanOrEqual(30)
  })
})

describe('roland help', () => {
  test('lists every command, and answers a mistyped one with the nearest', async () => {
    const help = await roland('--help')
    expect(help.code).toBe(0)
    const commands = [...help.stdout.split('Commands:')[1]!.matchAll(/^ {2}([a-z-]+)\b/gm)].map((m) => m[1])
    expect(commands).toEqual([
      'alerts',
      'check',
      'crawl',
      'db',
      'feeds',
      'images',
      'migrate',
      'notify',
      'operators',
      'rebuild',
      'town',
      'help',
    ])
    const typo = await roland('dbs', 'status')
    expect(typo.code).not.toBe(0)
    expect(typo.stderr).toMatch(/unknown command 'dbs'\n\(Did you mean db\?\)/)
  })
})
