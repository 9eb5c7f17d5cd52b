import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { axeViolations } from '../../test/support/axe.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { call, startBrowserConsole, suggest, type BrowserConsole } from './support/console.ts'
import { sideways } from './support/fits.ts'

// The Inbox's "Already listed?" (issue 49) on a phone (390 px), in a real Chromium with the real
// server and embedded Postgres (the sample Roland.txt). A visitor suggests as new a business the
// site lists already; the editor finds the listing with the site's search (a word for what it is,
// a misspelt word), chooses it, sees the suggestion beside it field by field and accepts it as an
// edit of it, audited. A suggested edit whose listing was deleted and listed again is pointed at
// the new listing the same way.

const editor = 'coordinator@example.org'
const phoneWidth = 390

let started: BrowserConsole | undefined
let server: ConsoleServer
let page: Page

// Chromium and the console share the machine with other suites: generous limits, never asserted.
const slow = { timeout: 240_000 }

interface Listing {
  id: string
  slug: string
  name: string
  phone: string | null
  updated_at: string
}

async function listings(): Promise<Listing[]> {
  return (await call(server, '/api/businesses')).json.businesses as Listing[]
}

/** The listing whose name begins with these words. */
async function listing(name: string): Promise<Listing> {
  const found = (await listings()).find((row) => row.name.startsWith(name))
  if (!found) throw new Error(`The sample catalog has no business named ${name}…`)
  return found
}

/**
 * Types a search into a picker, waits until it shows the business sought (among its best five), and
 * answers the businesses it shows, best first.
 */
async function search(picker: Locator, query: string, slug: string): Promise<string[]> {
  await picker.getByLabel('Search the businesses').fill(query)
  const list = picker.locator(`ol[data-query="${query}"]`)
  await list.locator(`li[data-business="${slug}"]`).waitFor()
  return list
    .locator('li[data-business]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-business')!))
}

/** Everything on the page that sticks out of the phone or that axe (with its best practices) finds. */
async function problems(): Promise<string[]> {
  return [...(await sideways(page, phoneWidth)), ...(await axeViolations(page, { bestPractice: true }))]
}

/** The audit entries of a business made by accepting a submission. */
async function auditOf(businessId: string, submission: string): Promise<Array<{ actor: string; after: unknown }>> {
  const { json } = await call(server, `/api/audit?table=businesses&row=${businessId}`)
  return json.entries.filter((entry: { submission_id: string | null }) => entry.submission_id === submission)
}

beforeAll(async () => {
  started = await startBrowserConsole({
    name: 'inbox-picker',
    operator: { email: editor, role: 'editor' },
    open: '/inbox',
    axe: true,
    context: { viewport: { width: phoneWidth, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  })
  ;({ server, page } = started)
  await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor()
}, 300_000)

afterAll(() => started?.close())

describe('"Already listed?" in the Inbox, on a phone in Chromium', () => {
  test(
    'finds a listed business by what it is and through a typo, and accepts the new business as an edit of it, audited',
    slow,
    async () => {
      const studio = await listing('Hwy 300 Hair Studio')
      const count = (await listings()).length
      const id = await suggest(server, {
        kind: 'new-business',
        payload: { name: studio.name, phone: '(501) 555-0199', hours: 'Tue-Sat 9am-7pm' },
      })
      const card = page.locator(`li[data-submission="${id}"]`)
      await card.waitFor()
      expect(await card.getByRole('heading', { level: 2 }).textContent()).toBe(`New business: ${studio.name}`)

      await card.getByRole('button', { name: 'Already listed?' }).click()
      const picker = card.getByTestId('business-picker')
      // What the business is, in a word its listing never uses (its OpenStreetMap preset's term).
      expect((await search(picker, 'stylist', studio.slug)).slice(0, 3)).toContain(studio.slug)
      // A misspelt word.
      expect((await search(picker, 'hair stuio', studio.slug)).slice(0, 3)).toContain(studio.slug)
      expect(await problems()).toEqual([])

      await picker.getByRole('button', { name: `Choose ${studio.name}` }).click()
      await card.getByTestId('chosen-listing').waitFor()
      expect(await card.getByRole('heading', { level: 2 }).textContent()).toBe(`Suggested edit to ${studio.name}`)
      // The suggestion beside the listing, field by field: the phone and the hours change, the name stays.
      const phone = card.locator('tr[data-field="phone"]')
      expect(await phone.getAttribute('data-changes')).toBe('true')
      expect(await phone.textContent()).toContain(studio.phone)
      expect(await phone.textContent()).toContain('(501) 555-0199')
      expect(await card.locator('tr[data-field="hours"]').getAttribute('data-changes')).toBe('true')
      expect(await card.locator('tr[data-field="name"]').getAttribute('data-changes')).toBe('false')
      expect(await problems()).toEqual([])

      await card.getByRole('button', { name: 'Accept', exact: true }).click()
      await page.getByText(`Accepted: Suggested edit to ${studio.name}`).waitFor()
      await card.waitFor({ state: 'detached' })

      // The listing changed, no business was added, and the change is audited with the submission.
      const { json } = await call(server, `/api/businesses/${studio.id}`)
      expect(json.business).toMatchObject({ name: studio.name, phone: '(501) 555-0199', hours: 'Tue-Sat 9am-7pm' })
      expect(await listings()).toHaveLength(count)
      const audit = await auditOf(studio.id, id)
      expect(audit.length).toBeGreaterThan(0)
      expect(audit[0]).toMatchObject({ actor: editor, after: expect.objectContaining({ phone: '(501) 555-0199' }) })
      const { json: accepted } = await call(server, `/api/submissions?status=accepted`)
      expect(accepted.submissions.find((entry: { id: string }) => entry.id === id)).toMatchObject({
        applied_row_id: studio.id,
        target: expect.objectContaining({ id: studio.id }),
      })
    },
  )

  test(
    'points a suggested edit whose listing is gone at the listing that replaced it, found by a word for what it is',
    slow,
    async () => {
      const plumbing = await listing('Lakeside Plumbing')
      const id = await suggest(server, {
        kind: 'business-update',
        payload: { business: plumbing.slug, phone: '(501) 555-0198', note: 'New number since the move.' },
      })
      await page.locator(`li[data-submission="${id}"]`).waitFor()
      // The listing is deleted and listed again (as a re-import with --reset does): a new row, a new id.
      const { json: full } = await call(server, `/api/businesses/${plumbing.id}`)
      const kept = ['name', 'category', 'short_description', 'full_description', 'address', 'phone', 'hours']
      expect((await call(server, `/api/businesses/${plumbing.id}`, { method: 'DELETE' })).status).toBe(200)
      const relisted = await call(server, '/api/businesses', {
        method: 'POST',
        body: {
          ...Object.fromEntries(kept.map((key) => [key, full.business[key]])),
          services: full.business.services.map((service: { service_name: string }) => ({
            service_name: service.service_name,
          })),
        },
      })
      expect(relisted.status, relisted.text).toBe(201)
      const replacement = relisted.json.business as Listing

      await page.getByRole('button', { name: 'Refresh' }).click()
      const card = page.locator(`li[data-submission="${id}"]`)
      await card.getByTestId('target-gone').waitFor()
      // Nothing to accept into until a listing is chosen; the picker is open already.
      expect(await card.getByRole('button', { name: 'Accept', exact: true }).isDisabled()).toBe(true)
      const picker = card.getByTestId('business-picker')
      expect((await search(picker, 'plumber', replacement.slug)).slice(0, 3)).toContain(replacement.slug)
      expect(await problems()).toEqual([])

      await picker.getByRole('button', { name: `Choose ${replacement.name}` }).click()
      expect(await card.locator('tr[data-field="phone"]').getAttribute('data-changes')).toBe('true')
      await card.getByRole('button', { name: 'Accept', exact: true }).click()
      await card.waitFor({ state: 'detached' })
      const { json } = await call(server, `/api/businesses/${replacement.id}`)
      expect(json.business.phone).toBe('(501) 555-0198')
      expect(await auditOf(replacement.id, id)).toEqual([
        expect.objectContaining({ actor: editor, after: expect.objectContaining({ phone: '(501) 555-0198' }) }),
      ])
    },
  )
})

describe('accepting into a chosen listing, over HTTP', () => {
  test('refuses a listing for an event, a listing that does not exist and an id that is not one', slow, async () => {
    const studio = await listing('Hwy 300 Hair Studio')
    const event = await suggest(server, {
      kind: 'event',
      payload: {
        title: 'Cut-a-thon',
        starts_at: '2027-05-01T09:00:00-05:00',
        location: 'Town hall',
        event_type: 'Community',
      },
    })
    const onEvent = await call(server, `/api/submissions/${event}/accept`, {
      method: 'POST',
      body: {
        business_id: studio.id,
        title: 'Cut-a-thon',
        starts_at: '2027-05-01T14:00:00.000Z',
        location: 'Town hall',
        event_type: 'Community',
      },
    })
    expect(onEvent.status).toBe(400)
    expect(onEvent.json.error).toMatch(/event is about no business/)

    const business = await suggest(server, { kind: 'new-business', payload: { name: 'Roland Barber' } })
    const nowhere = await call(server, `/api/submissions/${business}/accept`, {
      method: 'POST',
      body: { business_id: '00000000-0000-4000-8000-000000000000', phone: '(501) 555-0111' },
    })
    expect(nowhere.status).toBe(404)
    expect(nowhere.json.error).toMatch(/listing you chose no longer exists/)
    const notAnId = await call(server, `/api/submissions/${business}/accept`, {
      method: 'POST',
      body: { business_id: 'hwy-300-hair-studio', phone: '(501) 555-0111' },
    })
    expect(notAnId.status).toBe(400)
    expect(notAnId.json.issues).toEqual([expect.objectContaining({ path: 'business_id' })])
    // Both still wait, and nothing was written.
    const { json } = await call(server, '/api/submissions?status=pending')
    expect(json.submissions.map((entry: { id: string }) => entry.id)).toEqual(expect.arrayContaining([event, business]))
    expect((await call(server, `/api/businesses/${studio.id}`)).json.business.updated_at).toBe(studio.updated_at)
  })
})
