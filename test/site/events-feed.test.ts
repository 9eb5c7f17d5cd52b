import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, inject, test } from 'vitest'
import { readIcs } from '../support/read-ics.ts'
import { useSite } from '../support/site-session.ts'

// The events feed (/events.ics) and each event's "Add to calendar" file (/events/{slug}.ics).
// The fixture has the three seeded events (moved to 2099) and one past event.

const site = useSite()
const siteDir = inject('siteDir')
const host = new URL(site.base).hostname
const allEvents = [
  'community-garden-planning-meeting',
  'new-year-neighbors-potluck',
  'roland-small-business-meetup',
  'fall-cleanup-2020',
  // The weekly series (recurring-events.test.ts), with a moved date under its UID.
  'wednesday-supper',
]
const upcoming = allEvents.slice(0, 3)

const octets = (line: string) => Buffer.byteLength(line, 'utf8')

async function fetchIcs(pathname: string) {
  const response = await fetch(site.url(pathname))
  expect(response.status, pathname).toBe(200)
  return response.text()
}

/** The properties of each VEVENT of a calendar text, by name. */
const eventsOf = (text: string) => readIcs(text).events

describe('/events.ics', () => {
  test('is a calendar with CRLF line endings and no line over 75 octets', async () => {
    const text = await fetchIcs('/events.ics')
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true)
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    for (const line of text.split('\r\n')) expect(octets(line), line).toBeLessThanOrEqual(75)
    // The garden meeting's description is long enough to be folded.
    expect(text).toMatch(/\r\n [^\r\n]/)
  })

  test('holds every community event, past and upcoming, each with a stable UID and what a calendar needs', async () => {
    const events = eventsOf(await fetchIcs('/events.ics'))
    expect([...new Set(events.map((e) => e.UID))].sort()).toEqual(allEvents.map((slug) => `${slug}@${host}`).sort())
    for (const event of events) {
      for (const name of ['DTSTAMP', 'DTSTART', 'SUMMARY', 'LOCATION', 'URL'])
        expect(event, `${event.UID} ${name}`).toHaveProperty(name)
      // A single event in UTC; the series on Roland's clock (recurring-events.test.ts).
      if (event.UID!.startsWith('wednesday-supper@')) continue
      expect(event.DTSTART).toMatch(/^\d{8}T\d{6}Z$/)
      expect(event.DTSTAMP).toMatch(/^\d{8}T\d{6}Z$/)
    }
  })

  test("gives the garden meeting Roland's 7:00 to 8:30 PM in UTC, its description and place unescaped, and its page", async () => {
    const garden = eventsOf(await fetchIcs('/events.ics')).find(
      (e) => e.UID === `community-garden-planning-meeting@${host}`,
    )!
    expect(garden).toMatchObject({
      DTSTART: '20991229T010000Z',
      DTEND: '20991229T023000Z',
      SUMMARY: 'Community Garden Planning Meeting',
      LOCATION: 'Roland Community Center, Roland, AR 72135',
      URL: site.url('/events#community-garden-planning-meeting'),
    })
    expect(garden.DESCRIPTION).toContain('plot layout, the water line and who grows what')
  })
})

describe('the "Add to calendar" files', () => {
  test('exist for every event, each holding that one event with the UID the feed gives it', async () => {
    const files = (await readdir(path.join(siteDir, 'events'))).filter((f) => f.endsWith('.ics')).sort()
    expect(files).toEqual(allEvents.map((slug) => `${slug}.ics`).sort())
    for (const slug of allEvents) {
      const events = eventsOf(await fetchIcs(`/events/${slug}.ics`))
      // The series' file holds its moved date too, under the same UID.
      expect(events, slug).toHaveLength(slug === 'wednesday-supper' ? 2 : 1)
      expect(events[0]!.UID).toBe(`${slug}@${host}`)
    }
  })

  test('are linked from every upcoming event on /events, and the feed from the top of the page', async () => {
    const { page } = await site.open('/events')
    for (const slug of upcoming) {
      const link = page.locator(`li#${slug}`).getByRole('link', { name: /^Add to calendar: / })
      await expect(link.getAttribute('href'), slug).resolves.toBe(`/events/${slug}.ics`)
    }
    await expect(
      page.getByRole('link', { name: 'Add to calendar: Community Garden Planning Meeting' }).count(),
    ).resolves.toBe(1)
    await expect(page.getByRole('link', { name: /Subscribe to all events/ }).getAttribute('href')).resolves.toBe(
      '/events.ics',
    )
  })

  test('are linked from the events listed on the home page and the community pages', async () => {
    for (const pathname of ['/', '/community', '/community/centers']) {
      const { page } = await site.open(pathname, { javaScriptEnabled: false })
      const hrefs = await page
        .getByRole('link', { name: /^Add to calendar: / })
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')))
      expect(hrefs.length, pathname).toBeGreaterThan(0)
      for (const href of hrefs) expect(href, pathname).toMatch(/^\/events\/[a-z0-9-]+\.ics$/)
    }
    const { page } = await site.open('/')
    await expect(
      page.getByRole('link', { name: 'Add to calendar: New Year Neighbors Potluck' }).getAttribute('href'),
    ).resolves.toBe('/events/new-year-neighbors-potluck.ics')
  })
})
