import { mkdirSync, writeFileSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { ensureChromium, ensureHeadlessShell, findChromium, noChromiumHelp, type ChromiumLookup } from './browser.ts'

// Fake browsers: small executable files in a temporary folder laid out like a home directory,
// Playwright's cache, a folder on PATH and a system location. Nothing is launched or installed.

let root: string

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-browser-lookup-'))
})

afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

/** Writes a file at `relative` under the temporary root, executable unless told otherwise; returns its path. */
async function fake(relative: string, { executable = true } = {}): Promise<string> {
  const file = path.join(root, relative)
  await mkdir(path.dirname(file), { recursive: true })
  await writeFile(file, '#!/bin/sh\nexit 0\n')
  await chmod(file, executable ? 0o755 : 0o644)
  return file
}

/** A lookup that sees only the temporary root: its home, an empty PATH, no system places. */
function lookup(overrides: Partial<ChromiumLookup> & { env?: NodeJS.ProcessEnv } = {}): ChromiumLookup {
  return {
    home: path.join(root, 'home'),
    env: { PATH: '' },
    playwrightChromium: undefined,
    systemPaths: [],
    headlessShellPaths: [],
    ...overrides,
  }
}

describe('findChromium', () => {
  test('takes CHROMIUM_PATH before Playwright and the system', async () => {
    const configured = await fake('custom/chrome')
    await fake('home/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome')
    const system = await fake('usr/bin/chromium')
    expect(findChromium(lookup({ env: { CHROMIUM_PATH: configured, PATH: '' }, systemPaths: [system] }))).toEqual({
      source: 'CHROMIUM_PATH',
      path: configured,
    })
  })

  test('refuses a CHROMIUM_PATH that is not an executable, naming it', async () => {
    const missing = path.join(root, 'nowhere/chrome')
    expect(() => findChromium(lookup({ env: { CHROMIUM_PATH: missing } }))).toThrow(
      `CHROMIUM_PATH is set to ${missing}, which is not an executable file: fix it or unset it.`,
    )
  })

  test("takes the Chromium of this playwright-core's release before any other in Playwright's cache", async () => {
    await fake('home/.cache/ms-playwright/chromium-1300/chrome-linux64/chrome')
    const expected = await fake('home/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome')
    expect(findChromium(lookup({ playwrightChromium: expected }))).toEqual({ source: 'playwright', path: expected })
  })

  test("takes the newest Chromium in Playwright's cache when the expected one is missing, before the system's", async () => {
    await fake('home/.cache/ms-playwright/chromium-999/chrome-linux/chrome')
    const newest = await fake('home/.cache/ms-playwright/chromium-1200/chrome-linux64/chrome')
    const system = await fake('usr/bin/chromium')
    const expected = path.join(root, 'home/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome')
    expect(findChromium(lookup({ playwrightChromium: expected, systemPaths: [system] }))).toEqual({
      source: 'playwright',
      path: newest,
    })
  })

  test("finds Playwright's headless shell when it is the only browser in the cache", async () => {
    const shell = await fake(
      'home/.cache/ms-playwright/chromium_headless_shell-1255/chrome-headless-shell-linux64/chrome-headless-shell',
    )
    expect(findChromium(lookup())).toEqual({ source: 'playwright', path: shell })
  })

  test('looks in PLAYWRIGHT_BROWSERS_PATH instead of the home cache when it is set', async () => {
    await fake('home/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome')
    const elsewhere = await fake('browsers/chromium-1255/chrome-linux64/chrome')
    expect(findChromium(lookup({ env: { PLAYWRIGHT_BROWSERS_PATH: path.join(root, 'browsers'), PATH: '' } }))).toEqual({
      source: 'playwright',
      path: elsewhere,
    })
  })

  test('takes a Chrome or Chromium on PATH before the usual places', async () => {
    const onPath = await fake('bin/google-chrome')
    const usual = await fake('usr/bin/chromium')
    expect(findChromium(lookup({ env: { PATH: path.join(root, 'bin') }, systemPaths: [usual] }))).toEqual({
      source: 'system',
      path: onPath,
    })
  })

  test('takes a browser in the usual places when nothing else has one', async () => {
    const usual = await fake('usr/bin/chromium')
    expect(findChromium(lookup({ systemPaths: [path.join(root, 'opt/chrome'), usual] }))).toEqual({
      source: 'system',
      path: usual,
    })
  })

  test('passes over files that cannot be executed, and finds nothing when nothing else is there', async () => {
    await fake('home/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome', { executable: false })
    await fake('bin/chromium', { executable: false })
    expect(findChromium(lookup({ env: { PATH: path.join(root, 'bin') } }))).toBeUndefined()
  })
})

describe('findChromium for the browser tests (headlessShell)', () => {
  test('takes a headless shell before a full browser, wherever each is', async () => {
    await fake('home/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome')
    await fake('bin/chromium')
    const shell = await fake('usr/bin/chromium-headless-shell')
    const found = findChromium(
      lookup({ env: { PATH: path.join(root, 'bin') }, headlessShellPaths: [shell], headlessShell: true }),
    )
    expect(found).toEqual({ source: 'system', path: shell })
  })

  test("takes Playwright's headless shell first, then one on PATH", async () => {
    const cached = await fake(
      'home/.cache/ms-playwright/chromium_headless_shell-1255/chrome-headless-shell-linux64/chrome-headless-shell',
    )
    await fake('bin/chromium-headless-shell')
    expect(findChromium(lookup({ env: { PATH: path.join(root, 'bin') }, headlessShell: true }))).toEqual({
      source: 'playwright',
      path: cached,
    })
  })

  test('takes the full browser when there is no headless shell, and CHROMIUM_PATH before either', async () => {
    const usual = await fake('usr/bin/chromium')
    const shell = await fake('usr/bin/chromium-headless-shell', { executable: false })
    const options = { systemPaths: [usual], headlessShellPaths: [shell], headlessShell: true }
    expect(findChromium(lookup(options))).toEqual({ source: 'system', path: usual })
    const configured = await fake('custom/chrome')
    expect(findChromium(lookup({ ...options, env: { CHROMIUM_PATH: configured, PATH: '' } }))).toEqual({
      source: 'CHROMIUM_PATH',
      path: configured,
    })
  })

  test('the full browser still comes first for everyone else (Lighthouse)', async () => {
    const usual = await fake('usr/bin/chromium')
    const shell = await fake('usr/bin/chromium-headless-shell')
    expect(findChromium(lookup({ systemPaths: [usual], headlessShellPaths: [shell] }))).toEqual({
      source: 'system',
      path: usual,
    })
  })
})

describe('ensureHeadlessShell', () => {
  test('installs it once when only a full browser is found, and the tests then find it', async () => {
    const usual = await fake('usr/bin/chromium')
    const shell = path.join(root, 'usr/bin/chromium-headless-shell')
    const options = lookup({ systemPaths: [usual], headlessShellPaths: [shell] })
    const install = vi.fn(() => {
      writeFileSync(shell, '#!/bin/sh\nexit 0\n', { mode: 0o755 })
      return undefined
    })
    expect(ensureHeadlessShell(options, install)).toBeUndefined()
    expect(install).toHaveBeenCalledTimes(1)
    expect(findChromium({ ...options, headlessShell: true })).toEqual({ source: 'system', path: shell })
  })

  test('installs nothing when a headless shell is there, or when CHROMIUM_PATH names the browser', async () => {
    const shell = await fake('usr/bin/chromium-headless-shell')
    const install = vi.fn(() => undefined)
    expect(ensureHeadlessShell(lookup({ headlessShellPaths: [shell] }), install)).toBeUndefined()
    const configured = await fake('custom/chrome')
    expect(ensureHeadlessShell(lookup({ env: { CHROMIUM_PATH: configured, PATH: '' } }), install)).toBeUndefined()
    expect(install).not.toHaveBeenCalled()
  })

  test('says why the install failed, and the tests run in the full browser', async () => {
    const usual = await fake('usr/bin/chromium')
    const options = lookup({ systemPaths: [usual] })
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      expect(ensureHeadlessShell(options, () => 'not root on Debian')).toBe('not root on Debian')
      expect(error).toHaveBeenLastCalledWith(
        `No headless shell (not root on Debian): the browser tests run in ${usual}.`,
      )
    } finally {
      error.mockRestore()
    }
    expect(findChromium({ ...options, headlessShell: true })).toEqual({ source: 'system', path: usual })
  })
})

describe('ensureChromium', () => {
  test('installs nothing when a browser is found', async () => {
    const usual = await fake('usr/bin/chromium')
    const install = vi.fn(() => undefined)
    expect(ensureChromium(lookup({ systemPaths: [usual] }), install)).toEqual({ source: 'system', path: usual })
    expect(install).not.toHaveBeenCalled()
  })

  test('installs once when no browser is found, then uses the installed one', () => {
    const usual = path.join(root, 'usr/bin/chromium')
    // The real installers run synchronously; so does this stand-in, which "installs" a fake browser.
    const install = vi.fn(() => {
      mkdirSync(path.dirname(usual), { recursive: true })
      writeFileSync(usual, '#!/bin/sh\nexit 0\n', { mode: 0o755 })
      return undefined
    })
    expect(ensureChromium(lookup({ systemPaths: [usual] }), install)).toEqual({ source: 'system', path: usual })
    expect(install).toHaveBeenCalledTimes(1)
  })

  test('stops with one message saying why the install failed and what to run', () => {
    const install = vi.fn(() => 'apt-get install -y -qq chromium exited with 100')
    expect(() => ensureChromium(lookup(), install)).toThrow(
      "No Chrome or Chromium for the browser tests: none at CHROMIUM_PATH, in Playwright's cache or on the system, " +
        `and installing one failed (apt-get install -y -qq chromium exited with 100). ${noChromiumHelp}`,
    )
    expect(install).toHaveBeenCalledTimes(1)
  })
})
