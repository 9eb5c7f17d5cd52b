// A site build's process, as runAstroBuild (astro-build.ts) starts and drives it: spawned with its
// settings in a working folder of its own, its lines passed on, the messages it sends heard (what
// they say: build-process.ts), kept alive while someone waits for it and not while it waits.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdir, rm } from 'node:fs/promises'
import type { Socket } from 'node:net'
import path from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import { repoRoot } from '../paths.ts'
import type { Catalog } from '../catalog/types.ts'
import { standbyVariable, type FromBuild } from './build-process.ts'

/** How a build's process is started: its settings, and a key that says whether two are alike. */
export interface BuildLaunch {
  args: string[]
  env: NodeJS.ProcessEnv
  key: string
}

/** A build's process, as its rebuild drives it. */
export interface BuildProcess {
  child: ChildProcess
  key: string
  /** Its working directory. */
  cwd: string
  /** Its exit code (null when killed). */
  exited: Promise<number | null>
  /** The first message of that type it sent; null if it ended without. */
  said(type: FromBuild['type']): Promise<FromBuild | null>
  /** The next message it sends that `matches`; null if it ends without. */
  heard(matches: (message: FromBuild) => boolean): Promise<FromBuild | null>
  /** Keeps this process alive while it runs (a process on standby does not). */
  hold(): void
  /** Keeps this process alive no more (a process kept for reuse, waiting): it ends when this one does. */
  release(): void
  /** Keeps this process alive until `work` settles (a process on standby talked to), then as before. */
  aliveFor<T>(work: Promise<T>): Promise<T>
  /** Passes on its lines from now on, after those it printed so far; null keeps them for the next listener. */
  listen(onLine: ((line: string) => void) | null): void
  /** Ends it, and removes its working directory. */
  end(): Promise<void>
  /** Started (or being started) for a build: a process on standby is handed no more catalogs ahead. */
  taken: boolean
  /** The catalog it was last handed ahead, on standby, and its file. */
  ahead: { catalog: Catalog; file: string } | null
  /** Whether it started on standby: only such a process may be put back on standby once it has built. */
  startedOnStandby: boolean
  /** The working folder of its build, its own (`cwd`) for its first; another for each after (build-server.ts). */
  folder: string
  /**
   * The working folders of its builds so far, one a build: it is never handed one of them again
   * (build-server.ts). A process that builds again runs one build after another.
   */
  folders: Set<string>
  /** Hears its messages afresh (`said`): a process put back on standby says again what it said for its last build. */
  anew(): void
}

export async function startBuildProcess(launch: BuildLaunch, standby: boolean): Promise<BuildProcess> {
  const cwd = await claimBuildFolder(path.join(repoRoot, '.astro', 'builds'))
  const child = spawn(process.execPath, launch.args, {
    cwd,
    env: standby ? { ...launch.env, [standbyVariable]: '1' } : launch.env,
    // The rebuild and its build speak over Node's IPC channel (build-process.ts).
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  let sink: ((line: string) => void) | null = null
  let held: string[] = []
  const onLine = (line: string) => (sink ? sink(line) : held.push(line))
  // One splitter each: a line of stderr must not land inside an unfinished line of stdout.
  const out = lineSplitter(onLine)
  const err = lineSplitter(onLine)
  child.stdout!.on('data', (chunk: Buffer) => out.push(chunk))
  child.stderr!.on('data', (chunk: Buffer) => err.push(chunk))
  const heard = new Map<string, PromiseWithResolvers<FromBuild | null>>()
  let ended = false
  const hear = (type: string) => {
    let message = heard.get(type)
    if (!message) {
      message = Promise.withResolvers()
      if (ended) message.resolve(null)
      heard.set(type, message)
    }
    return message
  }
  const awaited = new Set<{ matches: (message: FromBuild) => boolean; heard: (message: FromBuild | null) => void }>()
  child.on('message', (message: FromBuild) => {
    hear(message.type).resolve(message)
    for (const waiter of awaited)
      if (waiter.matches(message)) {
        awaited.delete(waiter)
        waiter.heard(message)
      }
  })
  const hearNoMore = () => {
    ended = true
    for (const message of heard.values()) message.resolve(null)
    for (const waiter of awaited) waiter.heard(null)
    awaited.clear()
  }
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', (error) => {
      hearNoMore()
      reject(error)
    })
    child.on('close', (code) => {
      hearNoMore()
      out.end()
      err.end()
      resolve(code)
    })
  })
  // Whoever runs the build awaits it; a process on standby may end unawaited.
  exited.catch(() => {})
  const streams = [child.stdout, child.stderr] as Socket[]
  // Whoever waits for it keeps this process alive meanwhile.
  let kept = !standby
  const hold = () => {
    kept = true
    child.ref()
    child.channel?.ref()
    for (const stream of streams) stream.ref()
  }
  const release = () => {
    kept = false
    child.unref()
    child.channel?.unref()
    for (const stream of streams) stream.unref()
  }
  // Waiting, it keeps no one's process alive; it ends when this one does (build-standby.ts).
  if (standby) release()
  return {
    child,
    key: launch.key,
    cwd,
    exited,
    taken: !standby,
    ahead: null,
    startedOnStandby: standby,
    folder: cwd,
    folders: new Set(),
    anew: () => heard.clear(),
    said: (type) => hear(type).promise,
    heard: (matches) =>
      ended
        ? Promise.resolve(null)
        : new Promise((heard) => {
            awaited.add({ matches, heard })
          }),
    hold,
    release,
    async aliveFor(work) {
      child.channel?.ref()
      try {
        return await work
      } finally {
        if (!kept) child.channel?.unref()
      }
    },
    listen(onLine) {
      sink = onLine
      if (!onLine) return
      for (const line of held) onLine(line)
      held = []
    },
    async end() {
      hold()
      child.kill()
      await exited.catch(() => {})
      await rm(cwd, { recursive: true, force: true })
    },
  }
}

/**
 * A working folder for a build's process (runAstroBuild): the first of build-1, build-2, … under
 * `buildsDir` that no other build holds, made here (its removal frees it).
 *
 * The same few names, rather than a new one each time: Node keeps the compiled code of the modules a
 * build loads (NODE_COMPILE_CACHE) under each module's path, and Astro writes the site's bundle into
 * this folder. Under a new folder each build, its chunks were compiled afresh and added to that cache
 * every time (about 300 entries, 1 MB, a rebuild), without end on the console's machine; under the
 * same name, a chunk named by its content is found there again.
 */
export async function claimBuildFolder(buildsDir: string): Promise<string> {
  await mkdir(buildsDir, { recursive: true })
  for (let slot = 1; ; slot++) {
    const folder = path.join(buildsDir, `build-${slot}`)
    try {
      await mkdir(folder)
      return folder
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
}

/**
 * Splits a stream's chunks into lines for onLine; `end` passes on a last line with no line break. A
 * character cut between two chunks is put back together (StringDecoder). A rebuild at 100,000
 * businesses prints 124,000 lines, one a page: split on a string, not a pattern, they took the
 * console's thread 40 ms instead of 0.2 s, which the build's last line waited for.
 */
export function lineSplitter(onLine: (line: string) => void) {
  const decoder = new StringDecoder('utf8')
  let rest = ''
  const pass = (line: string) => onLine(line.endsWith('\r') ? line.slice(0, -1) : line)
  return {
    push(chunk: Buffer) {
      const lines = (rest + decoder.write(chunk)).split('\n')
      rest = lines.pop() ?? ''
      lines.forEach(pass)
    },
    end() {
      rest += decoder.end()
      if (rest) pass(rest)
      rest = ''
    },
  }
}
