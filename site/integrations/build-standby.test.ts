import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { repoRoot } from '@roland/scripts/paths'
import type { FromBuild } from '@roland/scripts/rebuild/build-process'

// A process on standby, as runAstroBuild starts one (scripts/src/rebuild/astro-build.ts): build-standby.ts
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

function onStandby(env: NodeJS.ProcessEnv = process.env): {
  child: ChildProcess
  said: FromBuild[]
  output: () => string
} {
  const child = spawn(
    process.execPath,
    ['--import', new URL('./build-standby.ts', import.meta.url).href, path.join(root, 'build.mjs')],
    { cwd: folder, env: { ...env, ROLAND_BUILD_STANDBY: '1' }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
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

test('loads ahead only modules a build loads: each one there, each package one the site imports', async () => {
  const { loadedAfterBundling, reactModules } = await import('./build-standby.ts')
  const sources: string[] = []
  for (const folder of [path.join(repoRoot, 'site'), path.join(repoRoot, 'scripts', 'src')]) {
    for (const file of await readdir(folder, { recursive: true })) {
      if (/\.(ts|tsx|astro)$/.test(file) && !file.endsWith('.test.ts'))
        sources.push(readFileSync(path.join(folder, file), 'utf8'))
    }
  }
  for (const specifier of [...loadedAfterBundling, ...reactModules]) {
    await expect(import(/* @vite-ignore */ specifier), specifier).resolves.toBeTypeOf('object')
    if (specifier.startsWith('.')) continue
    // A package the site's code imports (react/jsx-runtime: the JSX of its islands and components).
    const name = specifier === 'react/jsx-runtime' ? 'react' : specifier
    expect(
      sources.some((source) => source.includes(`'${name}'`)),
      `${specifier}: no longer imported by the site`,
    ).toBe(true)
  }
})

test('renders with the React build its NODE_ENV asks for, as Astro’s build sets it once started', async () => {
  // The build: NODE_ENV set as Astro's build sets it when unset, then React loaded, as the pages load it.
  await writeFile(
    path.join(root, 'build.mjs'),
    [
      `import { createRequire } from 'node:module'`,
      `const standby = ${JSON.stringify(new URL('./build-standby.ts', import.meta.url).href)}`,
      `const { buildStarted } = await import(standby)`,
      `await buildStarted()`,
      `process.env.NODE_ENV ||= 'production'`,
      `const require = createRequire(standby)`,
      `await import(require.resolve('react-dom/server'))`,
      `const builds = Object.keys(require.cache).filter((file) => /react-dom-server[^/]*\\.(production|development)\\.js$/.test(file))`,
      `console.log('react builds: ' + builds.map((file) => file.replace(/.*\\.(production|development)\\.js$/, '$1')).join(', '))`,
      '',
    ].join('\n'),
  )
  const earlier = new Date(Date.now() - 60_000)
  await utimes(path.join(root, 'build.mjs'), earlier, earlier)
  const unset = { ...process.env }
  delete unset.NODE_ENV
  for (const [env, expected] of [
    [unset, 'production'],
    [{ ...unset, NODE_ENV: 'development' }, 'development'],
  ] as const) {
    const { child, output } = onStandby(env)
    await standingBy(child)
    // Time for what it loads while it waits.
    await sleep(1500)
    child.send({ type: 'start' })
    const [code] = await once(child, 'exit')
    expect(code, output()).toBe(0)
    expect(output()).toMatch(new RegExp(`react builds: (${expected}(, )?)+\\n`))
  }
})
