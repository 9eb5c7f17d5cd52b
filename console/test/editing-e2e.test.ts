import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConsoleServer } from '../src/server/server.ts'
import { call, clickRebuildSite, rebuildAfter, startBrowserConsole, type BrowserConsole } from './support/console.ts'

// Editing content in the console's screens (issue 18): the built app in a real Chromium, the real
// server and embedded Postgres (with the sample Roland.txt), and a real local site build.

let server: ConsoleServer
let page: Page
let outDir: string
let started: BrowserConsole | undefined

beforeAll(async () => {
  // A volunteer with an editor's account: content, jobs and rebuilds are theirs.
  started = await startBrowserConsole({
    name: 'editing',
    operator: { email: 'volunteer@example.org', role: 'editor' },
    open: '/businesses',
  })
  ;({ server, page, outDir } = started)
  await page.getByRole('heading', { name: 'Businesses', level: 1 }).waitFor()
})

afterAll(() => started?.close())

// Chromium, the console and a local site build share the machine with other suites: generous limits, never asserted.
const slow = { timeout: 240_000 }

/** The business the tests edit: the last one by name, so featuring it must move it to the front. */
async function target(): Promise<{ id: string; name: string; slug: string }> {
  const { json } = await call(server, '/api/businesses')
  return json.businesses.filter((b: { is_active: boolean }) => b.is_active).at(-1)
}

/** The mistake a screen reader reads with a field: the message its aria-describedby names, or null when it is valid. */
async function mistakeOf(scope: Locator, label: string): Promise<string | null> {
  const field = scope.getByLabel(label, { exact: true })
  const describedBy = await field.getAttribute('aria-describedby')
  if ((await field.getAttribute('aria-invalid')) !== 'true' || !describedBy) return null
  return scope.locator(`#${describedBy}`).textContent()
}

/** An event as the API lists it, or undefined once it is deleted. */
async function storedEvent(id: string): Promise<{ title: string; location: string } | undefined> {
  const { json } = await call(server, '/api/events')
  return json.events.find((e: { id: string }) => e.id === id)
}

describe('editing in the console, in Chromium', () => {
  test(
    'searches, edits a business, shows its history, and refuses a stale save with a clear message',
    slow,
    async () => {
      const business = await target()
      await page.getByLabel('Filter businesses').fill(business.name)
      const item = page.locator(`article[data-business="${business.slug}"]`)
      await item.getByRole('button', { name: 'Edit' }).click()
      const editor = page.getByTestId('business-editor')
      await editor.getByLabel('Phone').fill('(501) 555-0142')
      await editor.getByLabel('Website').fill('javascript:alert(1)')
      await editor.getByRole('button', { name: 'Save changes' }).click()
      await editor.getByText('Website must be an http:// or https:// address').waitFor()

      await editor.getByLabel('Website').fill('https://vet.example')
      await editor.getByLabel('Featured (first on the home page)').check()
      await editor.getByRole('button', { name: 'Save changes' }).click()
      await page.getByText(`Saved ${business.name}`).waitFor()
      await editor.getByTestId('history').getByText('phone: ').first().waitFor()
      expect(await editor.getByTestId('history').textContent()).toContain('volunteer@example.org')
      await page.getByTestId('unpublished-edits').waitFor()

      // Someone else saves the business meanwhile; this copy is now stale.
      const other = await call(server, `/api/businesses/${business.id}`, {
        method: 'PATCH',
        body: { address: '1 Other St' },
      })
      expect(other.status).toBe(200)
      await editor.getByLabel('Phone').fill('(501) 555-0143')
      await editor.getByRole('button', { name: 'Save changes' }).click()
      await editor.getByTestId('stale-alert').getByText('someone else changed this business').waitFor()
      const { json } = await call(server, `/api/businesses/${business.id}`)
      expect(json.business).toMatchObject({ phone: '(501) 555-0142', address: '1 Other St', is_featured: true })
      await editor.getByRole('button', { name: 'Reload' }).click()
      await editor.getByTestId('stale-alert').waitFor({ state: 'detached' })
      expect(await editor.getByLabel('Address').inputValue()).toBe('1 Other St')
    },
  )

  test('labels every field of the business editor, with its hints and its mistakes tied to it', slow, async () => {
    const { json } = await call(server, '/api/businesses')
    const business = json.businesses[0] as { name: string; slug: string }
    await page.getByLabel('Filter businesses').fill(business.name)
    await page.locator(`article[data-business="${business.slug}"]`).getByRole('button', { name: 'Edit' }).click()
    const editor = page.getByTestId('business-editor')
    const fields = {
      Name: 'business-name',
      Category: 'business-category',
      Phone: 'business-phone',
      Email: 'business-email',
      Website: 'business-website',
      Address: 'business-address',
      Hours: 'business-hours',
      'Featured (first on the home page)': 'business-featured',
      'Active (listed on the site)': 'business-active',
      'Short description': 'business-short',
      Description: 'business-full',
      Services: 'business-services',
    }
    for (const [label, id] of Object.entries(fields)) {
      expect(await editor.getByLabel(label, { exact: true }).getAttribute('id'), label).toBe(id)
    }
    await editor.getByText('As visitors read it, e.g. Mon-Fri 8am-5pm, Sat 9am-1pm').waitFor()
    await editor.getByText('One per line; add a description after a colon: Boarding: overnight stays').waitFor()
    await editor.getByLabel('Email').fill('not an address')
    await editor.getByLabel('Name').fill('')
    await editor.getByRole('button', { name: 'Save changes' }).click()
    await editor.getByText('Email must be an address such as owner@example.com').waitFor()
    expect(await mistakeOf(editor, 'Email')).toBe('Email must be an address such as owner@example.com')
    expect(await mistakeOf(editor, 'Name')).toBe('Name is required')
    expect(await mistakeOf(editor, 'Phone')).toBeNull()
    await editor.getByRole('button', { name: 'Close' }).click()
    await editor.waitFor({ state: 'detached' })
  })

  test(
    'finds a business as the site does: by what it is, and by the search words an operator gives it',
    slow,
    async () => {
      const { json } = await call(server, '/api/businesses')
      const studio = (json.businesses as Array<{ name: string; slug: string }>).find(
        (b) => b.name === 'Hwy 300 Hair Studio',
      )!
      const first = page.locator('article[data-business]').first()
      // No listing says 'stylist': its OpenStreetMap preset (a hair salon) does.
      await page.getByLabel('Filter businesses').fill('stylist')
      await page.locator(`article[data-business="${studio.slug}"]`).waitFor()
      expect(await first.getAttribute('data-business')).toBe(studio.slug)
      await page.locator(`article[data-business="${studio.slug}"]`).getByRole('button', { name: 'Edit' }).click()
      const editor = page.getByTestId('business-editor')
      await editor.getByLabel('Search words', { exact: true }).fill('updo, balayage')
      await editor.getByRole('button', { name: 'Save changes' }).click()
      await page.getByText(`Saved ${studio.name}`).waitFor()
      await editor.getByRole('button', { name: 'Close' }).click()
      await page.getByLabel('Filter businesses').fill('balayge')
      await page.locator(`article[data-business="${studio.slug}"]`).waitFor()
      expect(await first.getAttribute('data-business')).toBe(studio.slug)
      const stored = (await call(server, '/api/businesses')).json.businesses.find(
        (b: { slug: string }) => b.slug === studio.slug,
      )
      expect(stored.search_words).toEqual(['updo', 'balayage'])
      await page.getByLabel('Filter businesses').fill('')
    },
  )

  test('adds an event in Roland time, stored in UTC', slow, async () => {
    await page.getByRole('link', { name: 'Events' }).click()
    await page.getByRole('button', { name: 'New event' }).click()
    const editor = page.getByTestId('event-editor')
    await editor.getByLabel('Title').fill('Fourth of July Fireworks')
    await editor.getByLabel('Location').fill('Lake Maumelle, Vista Point')
    await editor.getByLabel('Starts (Roland time)').fill('2027-07-04T21:00')
    await editor.getByLabel('Ends (Roland time)').fill('2027-07-04T22:00')
    await editor.getByRole('button', { name: 'Add event' }).click()
    await page
      .locator('article[data-event="fourth-of-july-fireworks-2027-07-04"]')
      .getByText('Sun, Jul 4, 2027, 9:00')
      .waitFor()
    const { json } = await call(server, '/api/events')
    const event = json.events.find((e: { title: string }) => e.title === 'Fourth of July Fireworks')
    expect(new Date(event.starts_at).toISOString()).toBe('2027-07-05T02:00:00.000Z')
  })

  test('cancels and reinstates an event, refuses a stale save, and deletes it after a reload', slow, async () => {
    const created = await call(server, '/api/events', {
      method: 'POST',
      body: {
        title: 'Harvest Supper',
        location: 'Fire Station',
        starts_at: '2027-10-02T18:00:00-05:00',
        event_type: 'Social',
      },
    })
    expect(created.status).toBe(201)
    const { id, slug } = created.json.event as { id: string; slug: string }
    // The event was added behind the console's back, with the Events screen open. Opening another
    // screen and coming straight back before that one's code has come (held back here until then)
    // reads the list again, without a reload.
    const attractionsCode = /\/assets\/Attractions-[^/]*\.js$/
    let eventsOpened!: () => void
    const heldUntil = new Promise<void>((resolve) => (eventsOpened = resolve))
    await page.route(attractionsCode, async (route) => {
      await heldUntil
      await route.continue()
    })
    await page.getByRole('link', { name: 'Attractions' }).click()
    await page.getByRole('link', { name: 'Events' }).click()
    eventsOpened()
    // Once the held code has gone on (the handler finished), the route goes.
    await page.unrouteAll({ behavior: 'wait' })
    const item = page.locator(`article[data-event="${slug}"]`)
    await item.getByRole('button', { name: 'Edit' }).click()
    const editor = page.getByRole('region', { name: 'Edit Harvest Supper' })
    await editor.getByRole('button', { name: 'Cancel event' }).click()
    await page.getByText('Cancelled Harvest Supper').waitFor()
    await item.getByText('cancelled', { exact: true }).waitFor()
    await editor.getByTestId('history').getByText('is_cancelled: ').waitFor()
    await editor.getByRole('button', { name: 'Reinstate event' }).click()
    await page.getByText('Reinstated Harvest Supper').waitFor()
    await item.getByText('cancelled', { exact: true }).waitFor({ state: 'detached' })

    // A blank title is refused beside its field before any request.
    await editor.getByLabel('Title').fill(' ')
    await editor.getByRole('button', { name: 'Save changes' }).click()
    await editor.getByText('Title is required').waitFor()
    expect(await mistakeOf(editor, 'Title')).toBe('Title is required')

    // Someone else saves the event meanwhile; this copy is now stale.
    expect((await call(server, `/api/events/${id}`, { method: 'PATCH', body: { location: 'Town Hall' } })).status).toBe(
      200,
    )
    await editor.getByLabel('Title').fill('Harvest Supper and Dance')
    await editor.getByRole('button', { name: 'Save changes' }).click()
    await editor.getByTestId('stale-alert').getByText('someone else changed this event').waitFor()
    expect(await storedEvent(id)).toMatchObject({ title: 'Harvest Supper', location: 'Town Hall' })

    await page.reload()
    await item.getByRole('button', { name: 'Edit' }).click()
    await editor.getByRole('button', { name: 'Delete event' }).click()
    await editor.getByRole('group', { name: 'Confirm deletion' }).getByRole('button', { name: 'Yes, delete' }).click()
    await page.getByText('Deleted Harvest Supper').waitFor()
    await item.waitFor({ state: 'detached' })
    expect(await storedEvent(id)).toBeUndefined()
  })

  test('adds, edits, undoes and deletes an attraction, showing a mistake beside its field', slow, async () => {
    await page.getByRole('link', { name: 'Attractions' }).click()
    await page.getByRole('button', { name: 'New attraction' }).click()
    const added = page.getByRole('region', { name: 'New attraction' })
    await added.getByLabel('Name').fill('Pinnacle Mountain')
    await added.getByLabel('Category').selectOption('Premium Destinations')
    await added.getByLabel('Description').fill('A cone-shaped summit with trails to the top.')
    await added.getByLabel('Rating (0 to 5)').fill('lots')
    await added.getByRole('button', { name: 'Add attraction' }).click()
    await added.getByText('Rating must be a number from 0 to 5').waitFor()
    expect(await mistakeOf(added, 'Rating (0 to 5)')).toBe('Rating must be a number from 0 to 5')
    await added.getByLabel('Rating (0 to 5)').fill('4.5')
    await added.getByLabel('Website').fill('https://pinnacle.example')
    await added.getByLabel('Featured (leads the home page)').check()
    await added.getByRole('button', { name: 'Add attraction' }).click()
    await page.getByText('Saved Pinnacle Mountain').waitFor()
    const { json } = await call(server, '/api/attractions')
    const attraction = json.attractions.find((a: { name: string }) => a.name === 'Pinnacle Mountain')
    expect(attraction).toMatchObject({
      category: 'Premium Destinations',
      rating: 4.5,
      website: 'https://pinnacle.example',
      is_featured: true,
      is_active: true,
      sort_order: 100,
    })

    // The new attraction's editor stays open, with its history.
    const item = page.locator(`article[data-attraction="${attraction.id}"]`)
    await item.getByText('featured', { exact: true }).waitFor()
    const editor = page.getByRole('region', { name: 'Edit Pinnacle Mountain' })
    await editor.getByTestId('history').getByText('created').waitFor()
    await editor.getByLabel('Badge').fill('Hiking')
    await editor.getByLabel('Shown on the site').uncheck()
    await editor.getByRole('button', { name: 'Save changes' }).click()
    await item.getByText('hidden', { exact: true }).waitFor()
    await editor.getByTestId('history').getByText('badge: ').waitFor()
    await editor.getByTestId('history').getByRole('button', { name: 'Undo' }).first().click()
    await page.getByText('Change undone').waitFor()
    await item.getByText('hidden', { exact: true }).waitFor({ state: 'detached' })
    expect(await editor.getByLabel('Badge').inputValue()).toBe('')

    await editor.getByRole('button', { name: 'Delete attraction' }).click()
    await editor.getByRole('group', { name: 'Confirm deletion' }).getByRole('button', { name: 'Yes, delete' }).click()
    await page.getByText('Deleted Pinnacle Mountain').waitFor()
    await item.waitFor({ state: 'detached' })
  })

  test(
    'after a rebuild, the featured business leads the home page and the event is on /events',
    { timeout: 500_000 },
    async () => {
      const business = await target()
      const rebuild = await rebuildAfter(server, async () => expect(await clickRebuildSite(page)).toBe(202))
      // Its error and the end of its log, when it failed, are what to look at.
      expect({ status: rebuild?.status, error: rebuild?.error, log: rebuild?.log.slice(-8) }).toMatchObject({
        status: 'succeeded',
      })
      const home = await readFile(path.join(outDir, 'index.html'), 'utf8')
      const featured = home.slice(home.indexOf('id="featured-businesses"'))
      const firstCard = featured.match(/href="\/business\/([a-z0-9-]+)"/)
      expect(firstCard?.[1]).toBe(business.slug)
      const events = await readFile(path.join(outDir, 'events', 'index.html'), 'utf8')
      expect(events).toContain('Fourth of July Fireworks')
      const ics = await readFile(path.join(outDir, 'events.ics'), 'utf8')
      expect(ics).toContain('SUMMARY:Fourth of July Fireworks')
      expect(ics).toContain('DTSTART:20270705T020000Z')
    },
  )
})
