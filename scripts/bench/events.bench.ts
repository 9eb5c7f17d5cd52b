import { addFeed, syncFeeds } from '../src/feeds/sync.ts'
import { openEmbeddedStore } from '../src/store/embedded.ts'
import { startFeedServer } from '../test/support/feed-server.ts'
import { measure, table } from './measure.ts'

// Calendar feeds (issue 40): syncing 20 feeds of 500 events each from a local server into an
// embedded store. Each feed is in Google's shape (a VTIMEZONE, TZIDs): 400 single events, 90
// weekly series and 10 overrides of a date of a series. Three syncs: the first adds every event,
// the second finds every feed unchanged (304), the third after a tenth of each feed's events
// changed and as many were dropped. Targets (issue 40): under 10 s and 300 MB beyond the store.

const FEEDS = 20
const EVENTS = 500

const vtimezone = [
  'BEGIN:VTIMEZONE',
  'TZID:America/Chicago',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0600',
  'TZOFFSETTO:-0500',
  'TZNAME:CDT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0600',
  'TZNAME:CST',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
]

const stamp = (date: Date) => date.toISOString().slice(0, 19).replace(/[-:]/g, '')

/** A feed of 500 VEVENTs (`edition` changes a tenth of them and drops as many). */
export function feedText(feed: number, edition: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Google Inc//Google Calendar 70.9054//EN', ...vtimezone]
  const day0 = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate())
  let written = 0
  for (let n = 0; written < EVENTS; n++) {
    const changed = edition > 0 && n % 10 === 3
    if (edition > 0 && n % 10 === 7 && n < 500) continue
    const start = new Date(day0 + ((n * 37) % 120) * 86_400_000 + (9 + (n % 10)) * 3_600_000)
    const end = new Date(start.getTime() + 90 * 60_000)
    const series = n % 50 < 9 && n < 500
    lines.push(
      'BEGIN:VEVENT',
      `DTSTART;TZID=America/Chicago:${stamp(start)}`,
      `DTEND;TZID=America/Chicago:${stamp(end)}`,
      ...(series ? ['RRULE:FREQ=WEEKLY;COUNT=20'] : []),
      'DTSTAMP:20261101T120000Z',
      `UID:feed${feed}-event${n}@google.com`,
      `SUMMARY:${changed ? 'Changed: ' : ''}Feed ${feed} event ${n}`,
      `DESCRIPTION:Event ${n} of feed ${feed}\\, with a description of a sentence or two.`,
      `LOCATION:Room ${n % 12}`,
      'STATUS:CONFIRMED',
      'END:VEVENT',
    )
    written++
    if (series && n % 50 === 0 && written < EVENTS) {
      // Its third date moved an hour later.
      const original = new Date(start.getTime() + 14 * 86_400_000)
      const moved = new Date(original.getTime() + 3_600_000)
      lines.push(
        'BEGIN:VEVENT',
        `DTSTART;TZID=America/Chicago:${stamp(moved)}`,
        `DTEND;TZID=America/Chicago:${stamp(new Date(moved.getTime() + 90 * 60_000))}`,
        `RECURRENCE-ID;TZID=America/Chicago:${stamp(original)}`,
        'DTSTAMP:20261101T120000Z',
        `UID:feed${feed}-event${n}@google.com`,
        `SUMMARY:Feed ${feed} event ${n} (moved)`,
        'END:VEVENT',
      )
      written++
    }
  }
  lines.push('END:VCALENDAR')
  return `${lines.join('\r\n')}\r\n`
}

/** Sync 20 feeds of 500 events each, then again unchanged, then again after changes. */
export async function run(): Promise<void> {
  const server = await startFeedServer()
  const store = await openEmbeddedStore()
  try {
    for (let feed = 0; feed < FEEDS; feed++) {
      server.set(`/feed-${feed}.ics`, feedText(feed, 0))
      await addFeed(store, { name: `Feed ${feed}`, url: server.url(`/feed-${feed}.ics`) })
    }
    const rows: Array<Record<string, string | number>> = []
    const sync = async (what: string) => {
      const before = process.memoryUsage.rss() / 2 ** 20
      const synced = await measure(() => syncFeeds({ store, allowPrivateNetwork: true }))
      const failed = synced.result.feeds.filter((line) => !line.ok)
      if (failed.length > 0) throw new Error(`A feed failed: ${failed[0]!.error}`)
      rows.push({
        sync: what,
        feeds: synced.result.feeds.length,
        'events stored': synced.result.feeds.reduce((sum, line) => sum + line.events, 0),
        'wall s': synced.seconds.toFixed(2),
        'RSS before MB': Math.round(before),
        'peak RSS MB': Math.round(synced.peakRssMb),
        'beyond the store MB': Math.round(synced.peakRssMb - before),
      })
    }
    await sync('first (all new)')
    await sync('unchanged (304)')
    for (let feed = 0; feed < FEEDS; feed++) server.set(`/feed-${feed}.ics`, feedText(feed, 1))
    await sync('a tenth changed, a tenth dropped')
    const { rows: count } = await store.db.query<{ n: number }>(
      'select count(*)::int as n from public.community_events where feed_id is not null',
    )
    table(rows)
    process.stdout.write(`feed rows in community_events: ${count[0]!.n}\n`)
  } finally {
    await store.close()
    await server.close()
  }
}
