import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { axeViolations } from '../../test/support/axe.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { call, clickRebuildSite, rebuildAfter, startBrowserConsole, type BrowserConsole } from './support/console.ts'

// The Pages screen (issue 39) in a real Chromium, with the real server, embedded Postgres and a
// real local site build: an editor changes the emergency numbers, the rebuilt page shows them, and
// an undo puts them back.

let server: ConsoleServer
let page: Page
let outDir: string
let started: BrowserConsole | undefined

beforeAll(async () => {
  started = await startBrowserConsole({
    name: 'pages',
    operator: { email: 'volunteer@example.org', role: 'editor' },
    open: '/pages',
    axe: true,
  })
  ;({ server, page, outDir } = started)
  await page.getByRole('heading', { name: 'Pages', level: 1 }).waitFor()
})

afterAll(() => started?.close())

/** Clicks Rebuild site and waits for the rebuild job that click made to end; fails with its log if it failed. */
async function rebuild(): Promise<void> {
  const job = await rebuildAfter(server, async () => expect(await clickRebuildSite(page)).toBe(202))
  expect({ status: job?.status, error: job?.error, log: job?.log.slice(-8) }).toMatchObject({ status: 'succeeded' })
}

const emergencyPage = () => readFile(path.join(outDir, 'community', 'emergency', 'index.html'), 'utf8')

describe('the Pages screen, in Chromium', () => {
  test('passes axe with a page open in its editor', { timeout: 240_000 }, async () => {
    await page.locator('article[data-page="/community/emergency"]').getByRole('button', { name: 'Edit' }).click()
    await page.getByTestId('page-editor').waitFor()
    expect(await axeViolations(page)).toEqual([])
  })

  test(
    'an editor changes the emergency numbers; after a rebuild the page shows them, and an undo puts them back',
    { timeout: 600_000 },
    async () => {
      const editor = page.getByTestId('page-editor')
      // The second entry, the sheriff's non-emergency line, gets a new number and moves to the end.
      await editor.getByLabel('Phone (entry 2)').fill('(501) 555-0177')
      await editor.getByLabel('Name (entry 2)').fill('Sheriff (non-emergency, new line)')
      await editor.getByRole('button', { name: 'Move down: Sheriff (non-emergency, new line)' }).focus()
      await page.keyboard.press('Enter')
      // The keyboard stays on the button, which moved with its entry.
      await page.waitForFunction(
        () => document.activeElement?.closest('[data-entry-index]')?.getAttribute('data-entry-index') === '2',
      )
      await page.keyboard.press('Enter')
      await page.waitForFunction(
        () => document.activeElement?.closest('[data-entry-index]')?.getAttribute('data-entry-index') === '3',
      )
      expect(await editor.getByLabel('Name (entry 4)').inputValue()).toBe('Sheriff (non-emergency, new line)')
      // A script typed in the Markdown stays text in the preview.
      await editor.getByLabel('Text (Markdown)').fill('## Be ready\n\n- Keep a torch <script>alert(1)</script>')
      expect(await editor.getByTestId('page-preview').innerHTML()).toContain('&lt;script&gt;')
      await editor.getByRole('button', { name: 'Save changes' }).click()
      await page.getByText('Saved Emergency Services').waitFor()
      const { json } = await call(server, '/api/pages')
      const saved = json.pages.find((p: { path: string }) => p.path === '/community/emergency')
      expect(saved.items.map((item: { name: string }) => item.name).at(-1)).toBe('Sheriff (non-emergency, new line)')

      await rebuild()
      const changed = await emergencyPage()
      expect(changed).toContain('Sheriff (non-emergency, new line)')
      expect(changed).toContain('href="tel:+15015550177"')
      expect(changed).not.toContain('(501) 340-6600')
      expect(changed).not.toContain('<script>alert(1)')

      // Undo, from the page's history in the editor.
      const history = page.getByTestId('page-editor').getByTestId('history')
      await history.getByRole('button', { name: /Undo/ }).first().click()
      await page.getByText('Change undone').waitFor()
      await rebuild()
      const restored = await emergencyPage()
      expect(restored).toContain('(501) 340-6600')
      expect(restored).not.toContain('(501) 555-0177')
    },
  )
})
