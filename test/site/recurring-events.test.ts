import ICAL from 'ical.js'
import { describe, expect, test } from 'vitest'
import { fixtureSeries } from '../support/fixture-catalog.ts'
import { useSite } from '../support/site-session.ts'

// Recurring events on the built fixture site (issue 40): the fixture's Wednesday Supper repeats
// every week with no end; its second coming date is cancelled and its third moved to Thursday.

const site = useSite()
const day = 86_400_000

async function text(pathname: string) {
  const response = await fetch(site.url(pathname))
  expect(response.status, pathname).toBe(200)
  return response.text()
}

/** The Events of a page's JSON-LD, in the page's order. */
async function jsonLdEvents(pathname: string): Promise<Array<{ name: string; startDate: string; url: string }>> {
  const html = await text(pathname)
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)]
    .flatMap(([, json]) => [JSON.parse(json!)].flat())
    .filter((item) => item['@type'] === 'Event')
}

/** Every occurrence a calendar file gives in [from, to), as ical.js expands it: "UID start". */
function expandCalendar(ics: string, from: Date, to: Date): string[] {
  const calendar = new ICAL.Component(ICAL.parse(ics) as unknown[])
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone)
  const vevents = calendar.getAllSubcomponents('vevent')
  const found: string[] = []
  try {
    for (const master of vevents.filter((v) => !v.hasProperty('recurrence-id'))) {
      const event = new ICAL.Event(master)
      for (const exception of vevents) {
        if (exception.hasProperty('recurrence-id') && exception.getFirstPropertyValue('uid') === event.uid) {
          event.relateException(new ICAL.Event(exception))
        }
      }
      const starts: number[] = []
      if (!event.isRecurring()) starts.push(event.startDate.toJSDate().getTime())
      else {
        const iterator = event.iterator()
        for (let next = iterator.next(); next; next = iterator.next()) {
          const start = event.getOccurrenceDetails(next).startDate.toJSDate().getTime()
          if (next.toJSDate().getTime() > to.getTime() + 7 * day) break
          starts.push(start)
        }
      }
      for (const start of starts) {
        if (start >= from.getTime() && start < to.getTime()) found.push(`${event.uid} ${new Date(start).toISOString()}`)
      }
    }
  } finally {
    ICAL.TimezoneService.reset()
  }
  return found.sort()
}

// A window inside the 90 days the build listed, a day clear of its edges: the build ran minutes ago.
const from = new Date(Date.now() + day)
const to = new Date(Date.now() + 89 * day)
const inWindow = (start: string) => Date.parse(start) >= from.getTime() && Date.parse(start) < to.getTime()

describe('/events', () => {
  test('lists each coming date of the supper in order, at 6:00 PM Roland time, as an Event each', async () => {
    const events = await jsonLdEvents('/events')
    const suppers = events.filter((e) => e.name.startsWith(fixtureSeries.title))
    // Thirteen weeks ahead, less the cancelled date.
    expect(suppers.length).toBeGreaterThanOrEqual(11)
    const starts = events.map((e) => Date.parse(e.startDate))
    expect(starts).toEqual([...starts].sort((a, b) => a - b))
    const local = (iso: string) =>
      new Intl.DateTimeFormat('en-US', {
        timeZone: 'America/Chicago',
        weekday: 'long',
        hour: 'numeric',
        minute: '2-digit',
      })
        .format(new Date(iso))
        .replace(/\u202f/g, ' ')
    const times = suppers.map((e) => local(e.startDate))
    expect(times.filter((t) => t === 'Wednesday 6:00 PM').length).toBe(suppers.length - 1)
    expect(times.filter((t) => t === 'Thursday 5:30 PM')).toHaveLength(1)
    // Each date has its own entry on the page, with its date and local time.
    const { page } = await site.open('/events', { javaScriptEnabled: false })
    for (const supper of suppers) {
      const anchor = new URL(supper.url).hash.slice(1)
      const entry = await page.locator(`li[id="${anchor}"]`).innerText()
      expect(entry).toMatch(/(Wednesday|Thursday), \w+ \d+, \d{4} · (6:00 PM – 7:30 PM|5:30 PM – 7:00 PM)/)
    }
  })

  test('leaves out the cancelled date, and lists the moved one on its new day', async () => {
    const ics = await text(`/events/${fixtureSeries.slug}.ics`)
    const exdate = /^EXDATE;TZID=America\/Chicago:(\d{8})T180000\r$/m.exec(ics)
    expect(exdate, ics).not.toBeNull()
    const html = await text('/events')
    expect(html).not.toContain(`id="${fixtureSeries.slug}-${exdate![1]}"`)
    const moved = /^RECURRENCE-ID;TZID=America\/Chicago:(\d{8})T180000\r$/m.exec(ics)
    expect(moved, ics).not.toBeNull()
    expect(html).toContain(`id="${fixtureSeries.slug}-${moved![1]}"`)
    expect(html).toContain('Wednesday Supper (on Thursday)')
  })
})

describe('/events.ics', () => {
  test('carries the supper as one series: RRULE, EXDATE, the moved date by RECURRENCE-ID, and the zone', async () => {
    const ics = (await text('/events.ics')).replace(/\r\n /g, '')
    const uid = `UID:${fixtureSeries.slug}@${new URL(site.base).hostname}`
    expect(ics.split('\r\n').filter((line) => line === uid)).toHaveLength(2)
    expect(ics).toContain(`RRULE:${fixtureSeries.rrule}\r\n`)
    expect(ics).toContain('DTSTART;TZID=America/Chicago:20260107T180000\r\n')
    expect(ics).toContain('BEGIN:VTIMEZONE\r\nTZID:America/Chicago\r\n')
  })

  test('read back by ical.js, gives the same occurrences as /events', async () => {
    const host = new URL(site.base).hostname
    const listed = (await jsonLdEvents('/events'))
      .filter((e) => inWindow(e.startDate))
      .map((e) => {
        // The page names a date by its series' slug and day; the calendar by the series' UID.
        const slug = new URL(e.url).hash.slice(1).replace(/-\d{8}$/, '')
        return `${slug}@${host} ${new Date(e.startDate).toISOString()}`
      })
      .sort()
    const expanded = expandCalendar(await text('/events.ics'), from, to)
    expect(listed.length).toBeGreaterThan(10)
    expect(listed).toEqual(expanded)
  })
})
