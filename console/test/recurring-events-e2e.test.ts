import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { TZDate } from '@date-fns/tz'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fixtureTown } from '../../scripts/test/fixtures/catalog.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { call, rebuildAfter, startBrowserConsole, waitFor, type BrowserConsole } from './support/console.ts'

// A recurring event made in the console's event editor (issue 40), in a real Chromium, with the
// real server, embedded Postgres and a real local site build.

let server: ConsoleServer
let page: Page
let outDir: string
let started: BrowserConsole | undefined

beforeAll(async () => {
  started = await startBrowserConsole({
    name: 'recurring',
    operator: { email: 'coordinator@example.org', role: 'editor' },
    open: '/events',
  })
  ;({ server, page, outDir } = started)
  await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor()
})

afterAll(() => started?.close())

// The first meeting: two days from now at 7:00 PM, Roland time.
// The seeded town's zone (the fixture town is the seed's).
const townTimeZone = fixtureTown().time_zone
const now = new TZDate(Date.now(), townTimeZone)
const first = new TZDate(now.getFullYear(), now.getMonth(), now.getDate() + 2, 19, 0, townTimeZone)
const pad = (n: number) => String(n).padStart(2, '0')
const dateOf = (d: TZDate) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
const weekday = new Intl.DateTimeFormat('en-US', { timeZone: townTimeZone, weekday: 'long' }).format(first)
const dayBox = weekday.slice(0, 3)

describe('a recurring event in the console', () => {
  test(
    'is made weekly, shows its rule in words and its next five dates, and one date is cancelled: gone from /events after a rebuild, an EXDATE in its .ics',
    { timeout: 500_000 },
    async () => {
      await page.getByRole('button', { name: 'New event' }).click()
      const editor = page.getByTestId('event-editor')
      await editor.getByLabel('Title').fill('Volunteer Fire Department Meeting')
      await editor.getByLabel('Location').fill('Roland Fire Station')
      await editor.getByLabel('Starts (Roland time)').fill(`${dateOf(first)}T19:00`)
      await editor.getByLabel('Ends (Roland time)').fill(`${dateOf(first)}T20:00`)
      await editor.getByLabel('Repeats').selectOption('Weekly')
      await editor.getByLabel(dayBox, { exact: true }).check()
      await expect(editor.getByTestId('repeat-summary').textContent()).resolves.toBe(
        `Every week on ${weekday}, 7:00 PM`,
      )
      const preview = editor.getByRole('list', { name: 'Next dates' }).getByRole('listitem')
      await expect(preview.count()).resolves.toBe(5)
      await editor.getByRole('button', { name: 'Add event' }).click()

      // Saved: the editor stays open on the series, whose dates may now be cancelled one by one.
      const saved = page.getByTestId('event-editor')
      // Each button is named by its date: "Cancel Sun, Nov 29, 2026, 7:00 PM".
      const cancelButtons = saved
        .getByRole('list', { name: 'Next dates' })
        .getByRole('button', { name: /^Cancel \w{3}, / })
      await cancelButtons.first().waitFor()
      await expect(cancelButtons.count()).resolves.toBe(5)
      const { json } = await call(server, '/api/events')
      const series = json.events.find((e: { title: string }) => e.title === 'Volunteer Fire Department Meeting')
      expect(series.rrule).toMatch(/^FREQ=WEEKLY;BYDAY=[A-Z]{2}$/)
      // The second date: a week after the first.
      const second = new TZDate(first.getFullYear(), first.getMonth(), first.getDate() + 7, 19, 0, townTimeZone)
      await cancelButtons.nth(1).click()
      await saved.getByRole('list', { name: 'Cancelled dates' }).getByRole('listitem').first().waitFor()
      const cancelled = await waitFor(async () => {
        const { json: after } = await call(server, '/api/events')
        const row = after.events.find((e: { id: string }) => e.id === series.id)
        return row.exdates.length > 0 ? row : undefined
      }, 'the cancelled date')
      expect(cancelled.exdates.map((d: string) => new Date(d).toISOString())).toEqual([
        new Date(second.getTime()).toISOString(),
      ])

      const rebuild = await rebuildAfter(server, async () => {
        expect((await call(server, '/api/rebuild', { method: 'POST' })).status).toBe(202)
      })
      expect({ status: rebuild?.status, error: rebuild?.error, log: rebuild?.log.slice(-8) }).toMatchObject({
        status: 'succeeded',
      })
      const events = await readFile(path.join(outDir, 'events', 'index.html'), 'utf8')
      const key = (d: TZDate) => dateOf(d).replace(/-/g, '')
      const third = new TZDate(first.getFullYear(), first.getMonth(), first.getDate() + 14, 19, 0, townTimeZone)
      expect(events).toContain(`id="${series.slug}-${key(first)}"`)
      expect(events).not.toContain(`id="${series.slug}-${key(second)}"`)
      expect(events).toContain(`id="${series.slug}-${key(third)}"`)
      const ics = (await readFile(path.join(outDir, 'events', `${series.slug}.ics`), 'utf8')).replace(/\r\n /g, '')
      expect(ics).toContain(`RRULE:${series.rrule}\r\n`)
      expect(ics).toContain(`EXDATE;TZID=${townTimeZone}:${key(second)}T190000\r\n`)
    },
  )
})
