import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { repoRoot } from '@roland/scripts/paths'
import { sampleStoreIn } from '../../scripts/test/support/fresh-store.ts'

// `pnpm console` as an operator starts it: its own process, on the sample data folder.

let root: string

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-console-main-'))
  expect(await sampleStoreIn(path.join(root, 'data'))).toBe(true)
})

afterAll(() => rm(root, { recursive: true, force: true }))

/** Every file under a folder, recursively (none when it is missing). */
const filesUnder = async (dir: string) =>
  (await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])).filter((entry) => entry.isFile())

const token = 'console-main-test-token-0123456789'

test('starts, keeps the compiled code of what it loaded for the next start, and stops on SIGTERM', async () => {
  // Node's compile cache goes to the system's temporary folder unless NODE_COMPILE_CACHE says where
  // (which alone turns it on): here, a temporary folder of the test's own.
  const temporary = path.join(root, 'tmp')
  await mkdir(temporary)
  const child = spawn(process.execPath, [path.join(repoRoot, 'console', 'src', 'server', 'main.ts')], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ROLAND_DATA_DIR: path.join(root, 'data'),
      PORT: '0',
      CONSOLE_TOKEN: token,
      ROLAND_REBUILD_STANDBY: 'off',
      TMPDIR: temporary,
    },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const found = /Roland console: (http:\/\/\S+)/.exec(output)?.[1]
      if (found) resolve(found)
    })
    void exited.then((code) => reject(new Error(`The console ended (exit ${code}) before it served: ${output}`)))
  })
  try {
    const jobs = await fetch(`${url}/api/jobs`, { headers: { authorization: `Bearer ${token}` } })
    expect(jobs.status).toBe(200)
  } finally {
    child.kill('SIGTERM')
  }
  expect(await exited, output).toBe(0)
  expect(output).toContain('Stopping the console…')
  // Node writes the cache as the process exits: the modules the console loaded, its own among them.
  expect((await filesUnder(path.join(temporary, 'node-compile-cache'))).length).toBeGreaterThan(100)
})
