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

  test(
    'a category description is checked with the shared schema first, shows that it is saving, and reports a failed save keeping the text',
    { timeout: 240_000 },
    async () => {
      const [category] = (await call(server, '/api/categories')).json.categories as Array<{ id: string; name: string }>
      const item = page.locator('li[data-category]').first()
      const text = item.getByRole('textbox', { name: category!.name })
      const save = item.getByRole('button', { name: `Save description of ${category!.name}` })
      const patches: string[] = []
      page.on('request', (request) => {
        if (request.method() === 'PATCH' && request.url().includes('/api/categories/')) patches.push(request.url())
      })

      // Too long for the shared schema: named beside the field, and nothing is sent.
      await text.fill('A lake town. '.repeat(80))
      await save.click()
      await item.getByRole('alert').getByText('Description is too long: at most 1000 characters').waitFor()
      expect(patches).toEqual([])

      // A good one: the button says it is saving while the request runs (a watcher set before the click sees it).
      await item.evaluate((li) => {
        const watched = window as unknown as { savingSeen: boolean }
        watched.savingSeen = false
        new MutationObserver(() => {
          const button = li.querySelector<HTMLButtonElement>('button[type="submit"]')
          if (button?.disabled && button.textContent?.startsWith('Saving...')) watched.savingSeen = true
        }).observe(li, { subtree: true, childList: true, characterData: true, attributes: true })
      })
      await text.fill('Where the lake meets the ridge.')
      await save.click()
      await page.getByText(`Saved the description of ${category!.name}`).waitFor()
      expect(await page.evaluate(() => (window as unknown as { savingSeen: boolean }).savingSeen)).toBe(true)
      expect(patches).toHaveLength(1)
      const saved = (await call(server, '/api/categories')).json.categories.find(
        (row: { id: string }) => row.id === category!.id,
      )
      expect(saved.description).toBe('Where the lake meets the ridge.')

      // Someone else saves it meanwhile: this save is refused, said so, and the typed text stays.
      const elsewhere = await call(server, `/api/categories/${category!.id}`, {
        method: 'PATCH',
        body: { description: 'Changed by another operator.' },
      })
      expect(elsewhere.status).toBe(200)
      await text.fill('My own words.')
      await save.click()
      await item
        .getByRole('alert')
        .getByText(/Someone else changed this description/)
        .waitFor()
      expect(await text.inputValue()).toBe('My own words.')
      expect(await save.isEnabled()).toBe(true)
      const kept = (await call(server, '/api/categories')).json.categories.find(
        (row: { id: string }) => row.id === category!.id,
      )
      expect(kept.description).toBe('Changed by another operator.')
    },
  )

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
