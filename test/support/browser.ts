import { spawnSync } from 'node:child_process'
import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir, tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext } from 'playwright-core'

/** Where a browser for the tests was found: which step of the lookup found it, and its executable. */
export interface FoundChromium {
  source: 'CHROMIUM_PATH' | 'playwright' | 'system'
  path: string
}

/** What the lookup reads; tests pass their own, everyone else gets the machine's. */
export interface ChromiumLookup {
  env?: NodeJS.ProcessEnv
  home?: string
  /** The Chromium this playwright-core was released with, in Playwright's cache (it may not be installed). */
  playwrightChromium?: string | undefined
  /** The usual places of a system Chrome or Chromium, tried after the ones on PATH. */
  systemPaths?: readonly string[]
  /** The usual places of Chromium's headless shell, tried after the ones on PATH. */
  headlessShellPaths?: readonly string[]
  /**
   * Whether Chromium's headless shell comes first, wherever it is (Playwright's cache, PATH, the
   * usual places), before a full Chrome or Chromium: what the browser tests run in (launchBrowser).
   */
  headlessShell?: boolean
}

/** Names a system Chrome or Chromium goes by on PATH. */
const systemNames = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome']

/** Names Chromium's headless shell goes by on PATH (Debian's chromium-headless-shell, Google's download). */
const headlessShellNames = ['chromium-headless-shell', 'chrome-headless-shell']

/** The usual places of a system Chrome or Chromium (Debian, Ubuntu's snap, Google's packages, macOS). */
export const usualSystemPaths = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
]

/** The usual places of Chromium's headless shell (Debian's chromium-headless-shell). */
export const usualHeadlessShellPaths = ['/usr/bin/chromium-headless-shell']

/** What to run when no browser is found and none could be installed; the one message a run stops with. */
export const noChromiumHelp =
  'Install one with `npx -y pnpm@10.34.9 exec playwright-core install --with-deps chromium` ' +
  '(or, on Debian as root, `apt-get install -y chromium`), or set CHROMIUM_PATH to a Chrome or Chromium executable.'

/** True when a path is a file this process may execute. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return statSync(file).isFile()
  } catch {
    return false
  }
}

/** The revision folders of one browser in Playwright's cache, newest first (`chromium-1255` before `chromium-1200`). */
function cachedRevisions(cache: string, prefix: string): string[] {
  let names: string[]
  try {
    names = readdirSync(cache)
  } catch {
    return []
  }
  const revision = (name: string) => Number(name.slice(prefix.length))
  return names
    .filter((name) => name.startsWith(prefix) && Number.isInteger(revision(name)))
    .sort((a, b) => revision(b) - revision(a))
    .map((name) => path.join(cache, name))
}

/** Chrome executables in Playwright's cache, each kind newest first: the full Chromium, or the headless shell. */
function playwrightCacheCandidates(cache: string, kind: 'full' | 'headless-shell'): string[] {
  const inRevision = (dir: string, executable: string) => {
    let platforms: string[]
    try {
      platforms = readdirSync(dir).filter(
        (name) => name.startsWith('chrome-linux') || name.startsWith('chrome-headless-shell-linux'),
      )
    } catch {
      return []
    }
    return platforms.map((platform) => path.join(dir, platform, executable))
  }
  if (kind === 'full') return cachedRevisions(cache, 'chromium-').flatMap((dir) => inRevision(dir, 'chrome'))
  return [
    ...cachedRevisions(cache, 'chromium_headless_shell-').flatMap((dir) => inRevision(dir, 'chrome-headless-shell')),
    ...cachedRevisions(cache, 'chromium_headless_shell-').flatMap((dir) => inRevision(dir, 'headless_shell')),
  ]
}

/** The Chromium playwright-core would download, or undefined when it cannot say for this platform. */
function playwrightChromiumPath(): string | undefined {
  try {
    return chromium.executablePath()
  } catch {
    return undefined
  }
}

/**
 * Finds a browser for the tests, in this order: CHROMIUM_PATH; a full Chrome or Chromium in
 * Playwright's cache (the revision this playwright-core expects, then any other), on PATH or in the
 * usual places; then a headless shell, looked for in the same places. With `headlessShell`, the
 * headless shells come before the full browsers.
 * Returns undefined when there is none; throws when CHROMIUM_PATH names something that cannot run,
 * since a setting that is wrong should be fixed rather than quietly passed over.
 */
export function findChromium(lookup: ChromiumLookup = {}): FoundChromium | undefined {
  const env = lookup.env ?? process.env
  const home = lookup.home ?? homedir()
  const configured = env.CHROMIUM_PATH
  if (configured) {
    if (!isExecutable(configured)) {
      throw new Error(`CHROMIUM_PATH is set to ${configured}, which is not an executable file: fix it or unset it.`)
    }
    return { source: 'CHROMIUM_PATH', path: configured }
  }
  const cache = env.PLAYWRIGHT_BROWSERS_PATH || path.join(home, '.cache', 'ms-playwright')
  const expected = 'playwrightChromium' in lookup ? lookup.playwrightChromium : playwrightChromiumPath()
  const onPath = (names: readonly string[]) =>
    (env.PATH ?? '')
      .split(path.delimiter)
      .filter(Boolean)
      .flatMap((dir) => names.map((name) => path.join(dir, name)))
  const candidates = {
    full: [
      ...[...(expected ? [expected] : []), ...playwrightCacheCandidates(cache, 'full')].map(playwright),
      ...[...onPath(systemNames), ...(lookup.systemPaths ?? usualSystemPaths)].map(system),
    ],
    shell: [
      ...playwrightCacheCandidates(cache, 'headless-shell').map(playwright),
      ...[...onPath(headlessShellNames), ...(lookup.headlessShellPaths ?? usualHeadlessShellPaths)].map(system),
    ],
  }
  const order = lookup.headlessShell
    ? [...candidates.shell, ...candidates.full]
    : [...candidates.full, ...candidates.shell]
  return order.find((candidate) => isExecutable(candidate.path))
}

const playwright = (file: string): FoundChromium => ({ source: 'playwright', path: file })
const system = (file: string): FoundChromium => ({ source: 'system', path: file })

/** True on Debian itself (not a derivative such as Ubuntu, whose `chromium` package is a snap shim). */
function isDebian(): boolean {
  try {
    return /^ID=debian$/m.test(readFileSync('/etc/os-release', 'utf8'))
  } catch {
    return false
  }
}

/** Runs one install command, its output going to the terminal; returns why it failed, or undefined. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env })
  if (result.error) return `${command} could not start: ${result.error.message}`
  if (result.status !== 0) return `${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`
  return undefined
}

/** True where Debian's packages can be installed here: as root on Debian, with apt-get. */
export function canInstallDebianPackages(): boolean {
  return process.platform === 'linux' && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get') && isDebian()
}

/**
 * Installs one of Debian's packages (apt-get update, then install); returns why it failed, or
 * undefined. Two test files may install at once (Poppler for one, xmllint for another) and apt
 * lets one at a time hold its locks: the other failed at once, with 100. So each install waits
 * for the one before (flock, util-linux's, on a file of ours), and apt waits for dpkg's lock too.
 */
export function installDebianPackage(name: string): string | undefined {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const oneAtATime = existsSync('/usr/bin/flock') ? ['/usr/bin/flock', path.join(tmpdir(), 'roland-apt-get.lock')] : []
  const aptGet = (...args: string[]) => {
    const command = [...oneAtATime, 'apt-get', '-o', 'DPkg::Lock::Timeout=600', ...args]
    return run(command[0]!, command.slice(1), env)
  }
  return aptGet('update', '-qq') ?? aptGet('install', '-y', '-qq', name)
}

/**
 * Installs a Chromium the lookup will then find: Debian's package when running as root on Debian,
 * else the one this playwright-core was released with, into Playwright's cache. Returns why it
 * failed, or undefined.
 */
export function installChromium(): string | undefined {
  if (canInstallDebianPackages()) {
    console.error("No browser for the tests was found: installing Debian's Chromium (apt-get install -y chromium)…")
    return installDebianPackage('chromium')
  }
  console.error(
    "No browser for the tests was found: installing Playwright's Chromium (playwright-core install chromium)…",
  )
  const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'cli.js')
  return run(process.execPath, [cli, 'install', 'chromium'])
}

/**
 * Installs Chromium's headless shell, the browser the tests run in, where only a full Chromium was
 * found: Debian's package when running as root on Debian (elsewhere Playwright's install of
 * chromium brings its headless shell along). Returns why it did not, or undefined when it did;
 * the tests then run in the full Chromium, slower but the same.
 */
export function ensureHeadlessShell(
  lookup: ChromiumLookup = {},
  install: () => string | undefined = installHeadlessShell,
): string | undefined {
  const found = findChromium({ ...lookup, headlessShell: true })
  if (found === undefined || found.source === 'CHROMIUM_PATH' || isHeadlessShell(found.path)) return undefined
  const failure = install()
  if (failure !== undefined) console.error(`No headless shell (${failure}): the browser tests run in ${found.path}.`)
  return failure
}

/** Installs Debian's chromium-headless-shell when running as root on Debian; returns why it did not. */
function installHeadlessShell(): string | undefined {
  if (!canInstallDebianPackages()) return 'not root on Debian'
  console.error(
    "The browser tests run in Chromium's headless shell, a third of the full browser's CPU time: " +
      'installing it (apt-get install -y chromium-headless-shell)…',
  )
  return installDebianPackage('chromium-headless-shell')
}

/** True when an executable is a headless shell (by its name, as every package names it). */
export function isHeadlessShell(file: string): boolean {
  return /headless[-_]shell$/.test(path.basename(file))
}

/**
 * Finds a browser for the tests, installing one when there is none (once: `install` runs at most one
 * time), and stops with what to run when that fails too.
 */
export function ensureChromium(
  lookup: ChromiumLookup = {},
  install: () => string | undefined = installChromium,
): FoundChromium {
  return findOrInstall(
    () => findChromium(lookup),
    install,
    (outcome) =>
      `No Chrome or Chromium for the browser tests: none at CHROMIUM_PATH, in Playwright's cache or on the system, ` +
      `and installing one ${outcome}. ${noChromiumHelp}`,
  )
}

/**
 * Finds a tool the tests need, else installs it (once) and finds it again; else throws the message
 * `failed` makes of how the install went ("failed (why)" or "did not leave one to find").
 */
export function findOrInstall<T>(
  find: () => T | undefined,
  install: () => string | undefined,
  failed: (outcome: string) => string,
): T {
  const found = find()
  if (found !== undefined) return found
  const failure = install()
  const installed = find()
  if (installed !== undefined) return installed
  throw new Error(failed(failure ? `failed (${failure})` : 'did not leave one to find'))
}

/**
 * How far V8 compiles a page's JavaScript in the browser: 'tests' stops at its baseline compiler
 * (Sparkplug), 'full' goes on to its optimizing ones (Maglev, TurboFan) as a visitor's browser does.
 */
export type BrowserJit = 'tests' | 'full'

/**
 * The Chromium this worker's test files share (a worker runs its files one after another: isolate
 * is off), one for each JIT asked for (a test's, a bench's).
 */
const shared = new Map<BrowserJit, Promise<Browser>>()

/**
 * Starts the browser the lookup finds, headless, its headless shell first: the same Chromium without
 * the full browser's layers, the one Playwright itself runs headless. The browser tests' pages took
 * a third of the CPU time in it (40 pages opened, rendered and shot: 6.6 CPU-s against 19.7 s in
 * Debian's full Chromium 156). Fails with what to install when there is no browser at all.
 */
function startChromium(jit: BrowserJit): Promise<Browser> {
  const found = findChromium({ headlessShell: true })
  if (!found) throw new Error(`No Chrome or Chromium for the browser tests was found. ${noChromiumHelp}`)
  return chromium.launch({
    executablePath: found.path,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      // Its compositor's thread in the browser's process instead of a GPU process of its own (with
      // no GPU, it draws in software either way): the pages cost Chromium a tenth to a fifth less
      // CPU time (30 pages opened in 10 contexts: 11.7-11.9 CPU-s instead of 14.3-14.8).
      '--in-process-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // A test's page lives for seconds: V8's optimizing compilers (Maglev, TurboFan) compiled its
      // scripts (axe's above all, in every new page) on the browser's threads, for code that ran a
      // few times, and gave their memory back (madvise), which on a virtual machine stops every core
      // to flush its TLB. Stopping at the baseline compiler (Sparkplug), three site files
      // (accessibility, pages, businesses) took 63.9-66.3 CPU-s of Chromium against 74.6-85.1 (up to
      // Maglev, 73.6; TurboFan without Maglev, 69.6; the interpreter alone, 86.5), three console
      // files 26.3 against 30.1, the offline and search files the same. A page does the same at any
      // tier; the bench, which times pages, keeps them all (launchBrowser's `jit`).
      ...(jit === 'tests' ? ['--js-flags=--max-opt=1'] : []),
    ],
  })
}

/**
 * Gives a test file the browser, headless, its JavaScript compiled as `jit` says (a test's, unless
 * a bench asks for a visitor's); fails with what to install when there is none. Chromium
 * starts once per worker (about a second of the machine's time each, for each of some twenty files)
 * and the files share it: each gets a handle whose contexts and pages are its own, in contexts of
 * their own (no cookie, cache, storage or service worker is shared), and whose `close()` closes
 * them and leaves the browser to the next file. A browser that crashed or was closed starts again.
 */
export async function launchBrowser({ jit = 'tests' }: { jit?: BrowserJit } = {}): Promise<Browser> {
  let browser = await (shared.get(jit) ?? startShared(jit))
  if (!browser.isConnected()) browser = await startShared(jit)
  return fileHandle(browser)
}

/** Starts the shared browser for `jit`; one that fails to start is not kept, and the next file tries again. */
function startShared(jit: BrowserJit): Promise<Browser> {
  const started: Promise<Browser> = startChromium(jit).catch((error: unknown) => {
    if (shared.get(jit) === started) shared.delete(jit)
    throw error
  })
  shared.set(jit, started)
  return started
}

/**
 * Closes the shared browsers, for a process that ends by itself (a benchmark): a test worker's end
 * with the worker, but a script's Chromium would keep it waiting.
 */
export async function closeSharedBrowser(): Promise<void> {
  const started = [...shared.values()]
  shared.clear()
  await Promise.all(started.map(async (browser) => (await browser.catch(() => undefined))?.close()))
}

/** One test file's view of the shared browser: what it opens, it closes. */
function fileHandle(browser: Browser): Browser {
  const contexts = new Set<BrowserContext>()
  const opened = (context: BrowserContext) => {
    contexts.add(context)
    context.once('close', () => contexts.delete(context))
    return context
  }
  return new Proxy(browser, {
    get(target, property) {
      if (property === 'newContext') {
        return async (...args: Parameters<Browser['newContext']>) => opened(await target.newContext(...args))
      }
      if (property === 'newPage') {
        return async (...args: Parameters<Browser['newPage']>) => {
          const page = await target.newPage(...args)
          opened(page.context())
          return page
        }
      }
      if (property === 'contexts') return () => [...contexts]
      if (property === 'close') {
        return async () => {
          await Promise.all([...contexts].map((context) => context.close()))
        }
      }
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
}
