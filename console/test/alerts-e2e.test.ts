import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { axeViolations } from '../../test/support/axe.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { call, startBrowserConsole, type BrowserConsole } from './support/console.ts'

// The Alerts screen (issue 48) in a real Chromium at a phone's width (390 px), with the real server
// and embedded Postgres: an editor publishes a boil-water notice, updates it and gives the all
// clear. The rebuilds go to a deploy-hook stand-in on 127.0.0.1 (no site build here: the built
// site's banner is test/site/alerts.test.ts's).

let server: ConsoleServer
let page: Page
let started: BrowserConsole | undefined
let hook: Server
let hookCalls = 0

beforeAll(async () => {
  hook = createServer((req, res) => {
    hookCalls++
    req.resume()
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  })
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve))
  started = await startBrowserConsole({
    name: 'alerts',
    operator: { email: 'clerk@example.org', role: 'editor' },
    open: '/alerts',
    axe: true,
    context: { viewport: { width: 390, height: 844 } },
    env: { REBUILD_HOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/build` },
  })
  ;({ server, page } = started)
  await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor()
})

afterAll(async () => {
  await started?.close()
  await new Promise((resolve) => hook?.close(resolve))
})

/** Whether the page is wider than the window (a phone would scroll sideways). */
const scrollsSideways = () => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)

describe('the Alerts screen on a phone, in Chromium', () => {
  test('has one h1, fits 390 px and passes axe with the form filled in', { timeout: 240_000 }, async () => {
    await expect(page.locator('h1').count()).resolves.toBe(1)
    // The subscribers card reads the screen's copy of GET /api/notify: nobody has subscribed yet.
    await expect(page.getByTestId('subscribers-alerts').textContent()).resolves.toBe('0')
    await page.getByLabel('Title').first().fill('Boil water before drinking')
    await page
      .getByLabel('Text (Markdown)')
      .first()
      .fill('Boil tap water for **one minute**. <script>alert(1)</script>')
    // The preview is the pages' renderer: bold is bold, a script stays text.
    const preview = page.getByTestId('alert-preview')
    expect(await preview.innerHTML()).toContain('<strong>one minute</strong>')
    expect(await preview.innerHTML()).toContain('&lt;script&gt;')
    expect(await scrollsSideways()).toBe(false)
    expect(await axeViolations(page)).toEqual([])
  })

  test('Publish now puts it on top with Update and All clear, and rebuilds at once', { timeout: 240_000 }, async () => {
    const before = hookCalls
    await page.getByLabel('Level').first().selectOption('emergency')
    await page.getByLabel('Kind').first().selectOption('water')
    await page.getByRole('button', { name: 'Publish now' }).click()
    const card = page.locator('section', { hasText: 'On the site now' }).locator('article[data-alert]')
    await card.getByRole('heading', { name: 'Boil water before drinking' }).waitFor()
    await expect(card.getByText('Emergency', { exact: true }).count()).resolves.toBe(1)
    while (hookCalls <= before) await new Promise((resolve) => setTimeout(resolve, 50))
    const { json } = await call(server, '/api/alerts')
    expect(json.alerts[0]).toMatchObject({ title: 'Boil water before drinking', status: 'published', kind: 'water' })
    expect(await scrollsSideways()).toBe(false)
    expect(await axeViolations(page)).toEqual([])
  })

  test(
    'Update changes it; All clear ends it, and its history has the changes with Undo',
    { timeout: 240_000 },
    async () => {
      const card = page.locator('article[data-alert]').first()
      await card.getByRole('button', { name: 'Update' }).click()
      await card.getByLabel('Title').fill('Boil water before drinking or cooking')
      await card.getByRole('button', { name: 'Save update' }).click()
      await page.getByRole('heading', { name: 'Boil water before drinking or cooking' }).waitFor()

      const updated = page.locator('article[data-alert]').first()
      const id = await updated.getAttribute('data-alert')
      await updated.getByRole('button', { name: 'All clear' }).click()
      await updated.getByLabel('All clear message (optional)').fill('The water is safe to drink again.')
      await updated.getByRole('button', { name: 'Give the all clear' }).click()
      // Now under History, marked all clear.
      const ended = page.locator(`article[data-alert="${id}"]`)
      await ended.getByText('all clear', { exact: true }).waitFor()
      const { json } = await call(server, '/api/alerts')
      expect(json.alerts[0]).toMatchObject({ status: 'ended', all_clear: 'The water is safe to drink again.' })
      expect(json.alerts[0].messages.map((m: { msg_type: string }) => m.msg_type)).toEqual([
        'Alert',
        'Update',
        'Update',
      ])

      await ended.getByRole('button', { name: 'History' }).click()
      // The history loads once opened: the all clear on top, each change with its Undo.
      await ended.getByRole('button', { name: /Undo/ }).first().waitFor()
      expect(await scrollsSideways()).toBe(false)
      expect(await axeViolations(page)).toEqual([])
    },
  )
})
