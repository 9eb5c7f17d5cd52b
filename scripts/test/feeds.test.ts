import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { editRow } from '../src/content/edit.ts'
import { expandEvents, recurrenceHorizonDays } from '../src/events/recurrence.ts'
import { feedLimits } from '../src/feeds/parse.ts'
import { addFeed, listFeeds, removeFeed, syncFeeds } from '../src/feeds/sync.ts'
import type { EmbeddedStore } from '../src/store/embedded.ts'
import { feedFixture, fillDates, icalJsOccurrences, startFeedServer, type FeedServer } from './support/feed-server.ts'
import { freshStore } from './support/fresh-store.ts'

// Calendar feeds (issue 40): feeds in Google's, Outlook's, LibCal's and Apple's shapes, served on
// 127.0.0.1, synced into a real embedded Postgres with the real migrations.

const townZone = 'America/Chicago'
const day = 86_400_000
const producers = ['google', 'outlook', 'libcal', 'apple'] as const
const editor = { email: 'editor@example.com', role: 'editor' as const }

let server: FeedServer
let store: EmbeddedStore

interface EventRow {
  id: string
  slug: string
  title: string
  description: string | null
  location: string
  starts_at: string
  ends_at: string | null
  rrule: string | null
  exdates: string[]
  series_id: string | null
  recurrence_id: string | null
  time_zone: string | null
  all_day: boolean
  is_active: boolean
  updated_at: string
  feed_name: string | null
  feed_uid: string | null
  feed_recurrence_id: string | null
}

/** The feed events of a feed, as the site reads them (ISO instants). */
async function eventsOf(feedName: string): Promise<EventRow[]> {
  const { rows } = await store.db.query<{ row: EventRow }>(
    `select jsonb_build_object('id', e.id, 'slug', e.slug, 'title', e.title, 'description', e.description,
       'location', e.location, 'starts_at', to_char(e.starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       'ends_at', to_char(e.ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       'rrule', e.rrule, 'exdates', (select coalesce(jsonb_agg(to_char(x at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') order by x), '[]')
                                     from unnest(e.exdates) x),
       'series_id', e.series_id, 'recurrence_id', to_char(e.recurrence_id at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       'time_zone', e.time_zone, 'all_day', e.all_day, 'is_active', e.is_active, 'updated_at', e.updated_at,
       'feed_name', e.feed_name, 'feed_uid', e.feed_uid, 'feed_recurrence_id', e.feed_recurrence_id) as row
       from public.community_events e where e.feed_name = $1 order by e.starts_at, e.title`,
    [feedName],
  )
  return rows.map((r) => r.row)
}

/** The occurrences the site lists for a feed's events in [from, to): "title start". */
function listed(events: EventRow[], from: Date, to: Date): string[] {
  return expandEvents(
    events.filter((e) => e.is_active),
    from,
    to,
    townZone,
  )
    .filter((o) => Date.parse(o.starts_at) >= from.getTime() && Date.parse(o.starts_at) < to.getTime())
    .map((o) => `${o.title} ${new Date(o.starts_at).toISOString()}`)
    .sort()
}

const sync = () => syncFeeds({ store, allowPrivateNetwork: true })

beforeAll(async () => {
  server = await startFeedServer()
})

afterAll(async () => {
  await server?.close()
})

beforeEach(async () => {
  await store?.close()
  store = await freshStore()
  for (const producer of producers) server.set(`/${producer}.ics`, feedFixture(producer))
})

afterAll(async () => {
  await store?.close()
})

async function addProducers() {
  for (const producer of producers) await addFeed(store, { name: producer, url: server.url(`/${producer}.ics`) })
}

describe('a sync', () => {
  test("gives the coming 90 days of each producer's feed as ical.js itself expands it", async () => {
    await addProducers()
    const result = await sync()
    expect(result.feeds.map((f) => [f.name, f.ok, f.error])).toEqual([...producers].sort().map((p) => [p, true, null]))
    expect(result.changed).toBe(true)
    const from = new Date()
    const to = new Date(Date.now() + recurrenceHorizonDays * day)
    for (const producer of producers) {
      const expected = icalJsOccurrences(feedFixture(producer), from, to, townZone)
      expect(expected.length, producer).toBeGreaterThan(0)
      expect(listed(await eventsOf(producer), from, to), producer).toEqual(expected)
    }
  })

  test("keeps each producer's shape: zones, overrides, cancellations, whole days", async () => {
    await addProducers()
    await sync()
    const google = await eventsOf('google')
    const pto = google.find((e) => e.title === 'PTO Meeting')!
    expect(pto.rrule).toMatch(/^FREQ=WEEKLY;BYDAY=[A-Z]{2}$/)
    expect(pto.time_zone).toBe('America/Chicago')
    // The EXDATE, and the cancelled override, are skipped dates of the series.
    expect(pto.exdates).toHaveLength(2)
    const moved = google.find((e) => e.title === 'PTO Meeting (moved)')!
    expect(moved.series_id).toBe(pto.id)
    expect(moved.feed_recurrence_id).not.toBeNull()
    expect(new Date(moved.starts_at).getTime() - new Date(moved.recurrence_id!).getTime()).toBe(day - 3_600_000)
    const fair = google.find((e) => e.title === 'Winter Book Fair')!
    expect(fair.all_day).toBe(true)
    expect((Date.parse(fair.ends_at!) - Date.parse(fair.starts_at)) / day).toBe(3)

    const supper = (await eventsOf('outlook')).find((e) => e.title === 'Wednesday Night Supper')!
    expect(supper.time_zone).toBe('America/Chicago')
    const denver = (await eventsOf('outlook')).find((e) => e.title === 'Missions Call with Denver')!
    // 3 pm in Denver is 4 pm in Roland.
    expect(
      new Intl.DateTimeFormat('en-US', { timeZone: townZone, hour: 'numeric' }).format(new Date(denver.starts_at)),
    ).toBe('4 PM')

    const gaming = (await eventsOf('libcal')).find((e) => e.title === 'Teen Gaming Night')!
    expect(gaming.time_zone).toBe('UTC')
    expect(gaming.starts_at).toMatch(/T23:00:00\.000Z$/)

    const apple = await eventsOf('apple')
    const swap = apple.find((e) => e.title === 'Seed Swap')!
    // A floating 10 am is 10 am in the town.
    expect(
      new Intl.DateTimeFormat('en-US', { timeZone: townZone, hour: 'numeric' }).format(new Date(swap.starts_at)),
    ).toBe('10 AM')
    expect(apple.map((e) => e.title)).not.toContain('Pruning Demonstration')
    expect(apple.every((e) => e.feed_name === 'apple')).toBe(true)
  })

  test('a second sync follows a dropped and a moved event, and keeps a hidden one hidden', async () => {
    await addProducers()
    await sync()
    const before = await eventsOf('libcal')
    const genealogy = before.find((e) => e.title === 'Genealogy Help Desk')!
    const storytime = before.find((e) => e.title === 'Storytime for Toddlers')!
    const hidden = await editRow(store, 'community_events', storytime.id, { is_active: false }, null, editor)
    expect(hidden.status).toBe('ok')

    // The library drops the help desk and moves storytime an hour later.
    const next = fillDates(
      feedFixture('libcal')
        .replace(/BEGIN:VEVENT\r\nDTSTAMP:20261125T080000Z\r\nUID:LibCal-1234-9876545[\s\S]*?END:VEVENT\r\n/, '')
        .replace(/T153000Z/, 'T163000Z')
        .replace(/T163000Z\r\nSUMMARY:Storytime/, 'T173000Z\r\nSUMMARY:Storytime'),
    )
    expect(next).not.toContain('Genealogy')
    server.set('/libcal.ics', next)
    const result = await sync()
    expect(result.feeds.find((f) => f.name === 'libcal')).toEqual({
      name: 'libcal',
      url: server.url('/libcal.ics'),
      ok: true,
      events: 2,
      error: null,
    })
    const after = await eventsOf('libcal')
    expect(after.map((e) => e.title)).not.toContain(genealogy.title)
    const movedStorytime = after.find((e) => e.title === 'Storytime for Toddlers')!
    expect(movedStorytime.id).toBe(storytime.id)
    expect(Date.parse(movedStorytime.starts_at) - Date.parse(storytime.starts_at)).toBe(3_600_000)
    expect(movedStorytime.is_active).toBe(false)
  })

  test('sends back the ETag: an unchanged feed answers 304 and nothing changes', async () => {
    await addProducers()
    await sync()
    const before = await eventsOf('google')
    const result = await sync()
    expect(server.notModified('/google.ics')).toBeGreaterThanOrEqual(1)
    expect(result.changed).toBe(false)
    expect(result.feeds.find((f) => f.name === 'google')).toMatchObject({ ok: true, events: 3 })
    expect(await eventsOf('google')).toEqual(before)
  })

  test('a broken feed (404, a web page, too big, too many events) changes none of its events and says why', async () => {
    await addProducers()
    await sync()
    const before = await Promise.all(producers.map((p) => eventsOf(p)))
    server.fail('/google.ics', 404)
    server.set('/outlook.ics', '<!DOCTYPE html><html><body>Sign in to Outlook</body></html>', 'text/html')
    server.set('/libcal.ics', Buffer.alloc(feedLimits.maxBytes + 1024, 'A'))
    const many = Array.from(
      { length: feedLimits.maxEvents + 1 },
      (_, n) => `BEGIN:VEVENT\r\nUID:bulk-${n}\r\nDTSTART:20270101T100000\r\nSUMMARY:Bulk ${n}\r\nEND:VEVENT\r\n`,
    ).join('')
    server.set('/apple.ics', `BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${many}END:VCALENDAR\r\n`)
    const result = await sync()
    expect(result.changed).toBe(false)
    const byName = Object.fromEntries(result.feeds.map((f) => [f.name, f]))
    expect(byName.google).toMatchObject({ ok: false, events: 3 })
    expect(byName.google!.error).toMatch(/HTTP 404/)
    expect(byName.outlook!.error).toMatch(/not an iCalendar file.*<!DOCTYPE html>/)
    expect(byName.libcal!.error).toMatch(/larger than 5 MB/)
    expect(byName.apple!.error).toMatch(/5001 events, more than 5000/)
    expect(await Promise.all(producers.map((p) => eventsOf(p)))).toEqual(before)
    const feeds = await listFeeds(store)
    expect(feeds.every((feed) => feed.last_error !== null)).toBe(true)

    // Back up: the error clears.
    for (const producer of producers) server.set(`/${producer}.ics`, feedFixture(producer))
    await sync()
    expect((await listFeeds(store)).map((feed) => feed.last_error)).toEqual([null, null, null, null])
  })
})

describe('feed events', () => {
  test('an editor may hide one but not edit its text or times; only the hiding is audited', async () => {
    const audited = async () =>
      (
        await store.db.query<{ action: string }>(
          `select a.action from public.audit_log a
            where a.table_name = 'community_events'
              and a.row_id in (select e.id::text from public.community_events e where e.feed_id is not null)
            order by a.id`,
        )
      ).rows.map((row) => row.action)
    await addProducers()
    await sync()
    // The sync's writes are the feed's, not an operator's: none of them is in the audit trail.
    expect(await audited()).toEqual([])
    const [event] = await eventsOf('apple')
    const edit = await editRow(store, 'community_events', event!.id, { title: 'Seed Swap!' }, null, editor)
    expect(edit.status).toBe('invalid')
    expect((edit as { message?: string }).message).toMatch(/comes from the calendar feed "apple"/)
    const hide = await editRow(store, 'community_events', event!.id, { is_active: false }, null, editor)
    expect(hide.status).toBe('ok')
    expect(await audited()).toEqual(['update'])
  })
})

describe('feeds', () => {
  test('a name is taken once, an address must be http(s), and removing a feed removes its events', async () => {
    await addFeed(store, { name: 'Library', url: server.url('/libcal.ics') })
    await expect(addFeed(store, { name: 'Library', url: server.url('/apple.ics') })).rejects.toThrow(
      /A feed named "Library" exists already/,
    )
    await expect(addFeed(store, { name: 'Bad', url: 'webcal:/nowhere' })).rejects.toThrow(/full http\(s\) iCal address/)
    await expect(addFeed(store, { name: ' ', url: server.url('/x.ics') })).rejects.toThrow(/give the feed a name/)
    await sync()
    expect(await eventsOf('Library')).toHaveLength(3)
    expect(await removeFeed(store, { name: 'Nowhere' })).toBeNull()
    expect((await removeFeed(store, { name: 'Library' }))?.events).toBe(3)
    expect(await eventsOf('Library')).toEqual([])
  })
})
