import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConsoleServer } from '../src/server/server.ts'
import { call, startBrowserConsole, suggest, type BrowserConsole } from './support/console.ts'

// The Inbox in the console's screens (issue 27): the built app in a real Chromium, the real server
// and embedded Postgres (the sample Roland.txt). Visitors' suggestions arrive through the public
// route as a site form sends them; an editor finds them, sees what each would change, and decides.

let started: BrowserConsole | undefined
let server: ConsoleServer
let page: Page
let business: { id: string; slug: string; name: string; phone: string; address: string | null }

// Chromium and the console share the machine with other suites: generous limits, never asserted.
const slow = { timeout: 240_000 }

const script = '<script>window.injected = true</script><img src=x onerror="window.injected = true">'

beforeAll(async () => {
  started = await startBrowserConsole({
    name: 'inbox',
    operator: { email: 'coordinator@example.org', role: 'editor' },
    open: '/inbox',
  })
  ;({ server, page } = started)
  const { json } = await call(server, '/api/businesses')
  business = json.businesses.find((row: { is_active: boolean; phone: string | null }) => row.is_active && row.phone)
  await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor()
})

afterAll(() => started?.close())

describe('the Inbox, in Chromium', () => {
  test(
    'shows a suggested edit beside the listing, escaped; accepting it changes the listing and the history names the editor and the submission',
    slow,
    async () => {
      await page.getByText('Nothing waits for a decision.').waitFor()
      const changeId = await suggest(server, {
        kind: 'business-update',
        payload: { business: business.slug, phone: '(501) 555-0177', note: `New number. ${script}` },
        contact: { name: 'Ann Resident' },
      })
      const eventId = await suggest(server, {
        kind: 'event',
        payload: {
          title: 'Church bake sale',
          starts_at: '2027-05-01T09:00:00-05:00',
          location: 'Roland Baptist Church',
          event_type: 'Community',
        },
      })

      // The new suggestions arrive live: the count in the navigation, and the list.
      await page.locator('[data-testid="inbox-count"]', { hasText: /^2 pending$/ }).waitFor()
      const change = page.locator(`li[data-submission="${changeId}"]`)
      await change.waitFor()
      const event = page.locator(`li[data-submission="${eventId}"]`)
      // The count and the list are drawn apart: the count may say 2 before the second item shows.
      await event.waitFor()
      expect(
        await page
          .locator('li[data-submission]')
          .evaluateAll((items) => items.map((item) => item.getAttribute('data-submission'))),
      ).toEqual([eventId, changeId])

      // The phone changes; the name stays. The visitor's note is text, never markup.
      const phone = change.locator('tr[data-field="phone"]')
      expect(await phone.getAttribute('data-changes')).toBe('true')
      expect(await phone.textContent()).toContain(business.phone)
      expect(await phone.textContent()).toContain('(501) 555-0177')
      expect(await change.locator('tr[data-field="name"]').getAttribute('data-changes')).toBe('false')
      expect(await change.getByTestId('note').textContent()).toBe(`New number. ${script}`)
      expect(await change.locator('script, img').count()).toBe(0)
      expect(await page.evaluate(() => (window as { injected?: boolean }).injected)).toBeUndefined()

      // The event appears as the draft it would create.
      expect(await event.getByTestId('draft').textContent()).toContain('Roland Baptist Church')

      await change.getByRole('button', { name: 'Accept', exact: true }).click()
      await page.getByText(`Accepted: Suggested edit to ${business.name}`).waitFor()
      await change.waitFor({ state: 'detached' })
      await page.locator('[data-testid="inbox-count"]', { hasText: /^1 pending$/ }).waitFor()
      await page.getByTestId('unpublished-edits').waitFor()
      const { json } = await call(server, `/api/businesses/${business.id}`)
      expect(json.business.phone).toBe('(501) 555-0177')

      // Edit, then accept: the event's place, corrected before it is published.
      await event.getByRole('button', { name: 'Edit, then accept' }).click()
      await event.getByLabel('Location').fill('Roland Baptist Church hall')
      await event.getByRole('button', { name: 'Accept as edited' }).click()
      await event.waitFor({ state: 'detached' })
      await page.getByText('Nothing waits for a decision.').waitFor()
      const { json: events } = await call(server, '/api/events')
      expect(events.events.find((row: { title: string }) => row.title === 'Church bake sale')).toMatchObject({
        location: 'Roland Baptist Church hall',
      })

      // The business's history names the editor and the submission.
      await page.getByRole('link', { name: 'Businesses' }).click()
      await page.getByLabel('Filter businesses').fill(business.name)
      await page.locator(`article[data-business="${business.slug}"]`).getByRole('button', { name: 'Edit' }).click()
      const history = page.getByTestId('business-editor').getByTestId('history')
      const entry = history.locator('li').filter({ hasText: changeId })
      await entry.waitFor()
      expect(await entry.textContent()).toContain('coordinator@example.org')
      expect(await entry.textContent()).toContain('(501) 555-0177')
    },
  )

  test('rejects with a reason and marks spam, each leaving the pending list', slow, async () => {
    const first = await suggest(server, { kind: 'new-business', payload: { name: 'Duplicate Diner' } })
    const second = await suggest(server, { kind: 'new-business', payload: { name: 'Cheap pills' } })
    await page.getByRole('link', { name: /Inbox/ }).click()
    const rejected = page.locator(`li[data-submission="${first}"]`)
    await rejected.getByRole('button', { name: 'Reject' }).click()
    await rejected.getByRole('button', { name: 'Reject with this reason' }).click()
    await rejected.getByText('Give a reason for rejecting it').waitFor()
    await rejected.getByLabel('Why it is rejected').fill('Already listed as Roland Diner')
    await rejected.getByRole('button', { name: 'Reject with this reason' }).click()
    await rejected.waitFor({ state: 'detached' })
    await page.locator(`li[data-submission="${second}"]`).getByRole('button', { name: 'Mark as spam' }).click()
    await page.locator(`li[data-submission="${second}"]`).waitFor({ state: 'detached' })
    await page.getByLabel('Show').selectOption('rejected')
    await page.locator(`li[data-submission="${first}"]`).getByText('Already listed as Roland Diner').waitFor()
  })
})
