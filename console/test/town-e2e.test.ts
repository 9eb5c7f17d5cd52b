import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { axeViolations, preloadAxe } from '../../test/support/axe.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { call, startBrowserConsole, type BrowserConsole } from './support/console.ts'

// The Town screen (issue 39) in a real Chromium, with the real server and embedded Postgres: it
// passes axe, an admin saves a setting, and the console names the town once signed in (the sign-in
// screen, which anyone may open, names none and passes axe too).

let server: ConsoleServer
let page: Page
let started: BrowserConsole | undefined

beforeAll(async () => {
  started = await startBrowserConsole({
    name: 'town',
    operator: { email: 'webmaster@example.org', role: 'admin' },
    open: '/town',
    axe: true,
  })
  ;({ server, page } = started)
  await page.getByRole('heading', { name: 'Town', level: 1 }).waitFor()
})

afterAll(() => started?.close())

describe('the Town screen, in Chromium', () => {
  test('passes axe, and the page is titled with the town', { timeout: 240_000 }, async () => {
    expect(await axeViolations(page)).toEqual([])
    await page.waitForFunction(() => document.title === 'Roland Console')
  })

  test('an admin saves a setting, and the server keeps it', { timeout: 240_000 }, async () => {
    await page.getByLabel('Tagline').fill('Where the trails begin')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Saved the settings of Roland').waitFor()
    expect((await call(server, '/api/town')).json.town.tagline).toBe('Where the trails begin')
  })

  test('the sign-in screen names no town and passes axe', { timeout: 240_000 }, async () => {
    const signIn = await page.context().browser()!.newPage()
    try {
      await preloadAxe(signIn)
      await signIn.goto(`${server.url}/town`)
      await signIn.getByRole('heading', { name: 'Console', level: 1 }).waitFor()
      expect(await signIn.title()).toBe('Console')
      expect(await axeViolations(signIn)).toEqual([])
    } finally {
      await signIn.close()
    }
  })
})
