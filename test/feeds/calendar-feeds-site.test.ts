import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readTown } from '@roland/scripts/content/town'
import { recurrenceHorizonDays } from '@roland/scripts/events/recurrence'
import { addFeed, syncFeeds, type FeedSyncResult } from '@roland/scripts/feeds/sync'
import {
  feedFixture,
  icalJsOccurrences,
  startFeedServer,
  type FeedServer,
} from '../../scripts/test/support/feed-server.ts'
import { sampleStoreOpenIn } from '../../scripts/test/support/fresh-store.ts'
import { buildSite } from '../support/build-site.ts'

// Calendar feeds on the built site (issue 40, "Done when"): four feeds in Google's, Outlook's,
// LibCal's and Apple's shapes and one that answers 404, served on 127.0.0.1, synced into a store
// that the real build reads. /events lists what ical.js's own expansion of those feeds gives, each
// event says which feed it is from, and the broken feed is reported and adds nothing.

const producers = ['google', 'outlook', 'libcal', 'apple'] as const
const day = 86_400_000
let dir: string
let outDir: string
let server: FeedServer
let sync: FeedSyncResult
let townZone: string
const names = { google: 'Roland Elementary', outlook: 'First Baptist', libcal: 'Branch Library', apple: 'Garden Club' }

beforeAll(async () => {
  server = await startFeedServer()
  for (const producer of producers) server.set(`/${producer}.ics`, feedFixture(producer))
  dir = await mkdtemp(path.join(os.tmpdir(), 'roland-feeds-site-'))
  const dataDir = path.join(dir, 'data')
  outDir = path.join(dir, 'dist')
  // A site builds only with businesses: the sample Roland.txt's.
  const store = await sampleStoreOpenIn(dataDir)
  try {
    townZone = (await readTown(store)).time_zone
    for (const producer of producers) {
      await addFeed(store, { name: names[producer], url: server.url(`/${producer}.ics`) })
    }
    await addFeed(store, { name: 'Gone Church', url: server.url('/gone.ics') })
    sync = await syncFeeds({ store, allowPrivateNetwork: true })
  } finally {
    await store.close()
  }
  const build = await buildSite({ outDir, dataDir })
  if (build.code !== 0) throw new Error(`The site did not build:\n${build.output.slice(-4000)}`)
}, 900_000)

afterAll(async () => {
  await server?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** The Events of the built /events page's JSON-LD. */
async function listedEvents(): Promise<Array<{ name: string; startDate: string }>> {
  const html = await readFile(path.join(outDir, 'events', 'index.html'), 'utf8')
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)]
    .flatMap(([, json]) => [JSON.parse(json!)].flat() as Array<Record<string, string>>)
    .filter((item) => item['@type'] === 'Event')
    .map((item) => ({ name: item.name!, startDate: item.startDate! }))
}

describe('calendar feeds on /events', () => {
  test('list the occurrences of the coming 90 days that ical.js itself expands from the feeds', async () => {
    // A window inside the 90 days the build listed, a day clear of its edges.
    const from = new Date(Date.now() + day)
    const to = new Date(Date.now() + (recurrenceHorizonDays - 1) * day)
    const expected = producers.flatMap((p) => icalJsOccurrences(feedFixture(p), from, to, townZone)).sort()
    const titles = new Set(expected.map((line) => line.replace(/ \S+$/, '')))
    const listed = (await listedEvents())
      .filter((e) => titles.has(e.name))
      .filter((e) => Date.parse(e.startDate) >= from.getTime() && Date.parse(e.startDate) < to.getTime())
      .map((e) => `${e.name} ${new Date(e.startDate).toISOString()}`)
      .sort()
    expect(expected.length).toBeGreaterThan(15)
    expect(listed).toEqual(expected)
  })

  test('are the same occurrences in /events.ics, read back by ical.js', async () => {
    const from = new Date(Date.now() + day)
    const to = new Date(Date.now() + (recurrenceHorizonDays - 1) * day)
    const expected = producers.flatMap((p) => icalJsOccurrences(feedFixture(p), from, to, townZone))
    const titles = new Set(expected.map((line) => line.replace(/ \S+$/, '')))
    const ics = await readFile(path.join(outDir, 'events.ics'), 'utf8')
    const fromIcs = icalJsOccurrences(ics, from, to, townZone).filter((line) => titles.has(line.replace(/ \S+$/, '')))
    expect(fromIcs).toEqual(expected.sort())
  })

  test('say which feed each event is from', async () => {
    const html = await readFile(path.join(outDir, 'events', 'index.html'), 'utf8')
    for (const producer of producers) expect(html).toContain(`From ${names[producer]}`)
  })

  test('a feed that fails is reported and adds nothing', () => {
    expect(sync.feeds.find((line) => line.name === 'Gone Church')).toEqual({
      name: 'Gone Church',
      url: server.url('/gone.ics'),
      ok: false,
      events: 0,
      error: expect.stringMatching(/HTTP 404/) as unknown,
    })
    expect(sync.feeds.filter((line) => line.ok).map((line) => line.name)).toHaveLength(4)
  })
})
