import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import type { FromBuild } from '@roland/scripts/rebuild/build-process'

// A process on standby, as runAstroBuild starts one (scripts/src/rebuild/rebuild.ts): build-standby.ts
// preloaded first, then a module of the build's (here one that waits, as astro.config.mjs does).

let root = ''
let folder = ''
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-standby-'))
  folder = path.join(root, '.astro', 'builds', 'build-test')
  await mkdir(folder, { recursive: true })
  await writeFile(path.join(root, 'code.mjs'), 'export const loaded = true\n')
  await writeFile(
    path.join(root, 'build.mjs'),
    [
      `import './code.mjs'`,
      `const { buildStarted } = await import(${JSON.stringify(new URL('./build-standby.ts', import.meta.url).href)})`,
      `await buildStarted()`,
      `console.log('building')`,
      '',
    ].join('\n'),
  )
  // Written well before the process starts, as the site's code is.
  const earlier = new Date(Date.now() - 60_000)
  for (const file of ['code.mjs', 'build.mjs']) await utimes(path.join(root, file), earlier, earlier)
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

function onStandby(): { child: ChildProcess; said: FromBuild[]; output: () => string } {
  const child = spawn(
    process.execPath,
    ['--import', new URL('./build-standby.ts', import.meta.url).href, path.join(root, 'build.mjs')],
    { cwd: folder, env: { ...process.env, ROLAND_BUILD_STANDBY: '1' }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  )
  const said: FromBuild[] = []
  child.on('message', (message: FromBuild) => said.push(message))
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return { child, said, output: () => output }
}

const standingBy = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.on('message', (message: FromBuild) => message.type === 'standing-by' && resolve()),
  )

test('waits until started, then says so and goes on', async () => {
  const { child, said, output } = onStandby()
  await standingBy(child)
  expect(output()).not.toContain('building')
  child.send({ type: 'start' })
  const [code] = await once(child, 'exit')
  expect(code).toBe(0)
  expect(said.map((message) => message.type)).toEqual(['standing-by', 'started'])
  expect(output()).toMatch(/\[roland:standby\] started, with Astro loaded: this build's process waited [\d.]+ s/)
  expect(output()).toContain('building')
})

test('does not go on when a module it loaded has changed since it started: it says which, and ends', async () => {
  const { child, said, output } = onStandby()
  await standingBy(child)
  const later = new Date(Date.now() + 5_000)
  await utimes(path.join(root, 'code.mjs'), later, later)
  child.send({ type: 'start' })
  const [code] = await once(child, 'exit')
  expect(code).toBe(0)
  expect(said.at(-1)).toEqual({ type: 'stale', file: path.join(root, 'code.mjs') })
  expect(output()).not.toContain('building')
})

test('ends when the rebuild that started it is gone, and removes its working folder', async () => {
  const { child, output } = onStandby()
  await standingBy(child)
  child.disconnect()
  const [code] = await once(child, 'exit')
  expect(code).toBe(0)
  expect(output()).not.toContain('building')
  expect(existsSync(folder)).toBe(false)
})
