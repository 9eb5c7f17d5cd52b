import { newFeedSchema } from '../content/schema.ts'
import { readTown } from '../content/town.ts'
import { CrawlError } from '../crawl/crawl-error.ts'
import { decodeText, safeFetch } from '../crawl/safe-fetch.ts'
import { z } from 'zod'
import type { ColumnsOf } from '../store/database.ts'
import { callParsed } from '../store/parsed-call.ts'
import type { Store } from '../store/types.ts'
import { StoreError } from '../store/types.ts'
import { feedLimits, FeedError, parseFeed } from './parse.ts'

// Calendar feeds (issue 40): adding, listing and removing the feeds, and the sync that copies
// their events into community_events. A sync fetches each feed through the crawler's safe fetch
// (no private addresses unless allowed, a timeout, at most 5 MB), sends back the ETag and
// Last-Modified it was given (304: nothing to do), reads it with ical.js (parse.ts) and writes all
// of the feed's events in one call of public.sync_calendar_feed, one transaction per feed. A feed
// that fails records why (Needs attention lists it) and keeps its events as they were.

const stamp = z.string().nullable()

/** A feed as the feed functions answer it: a calendar_feeds row, with its event counts. */
const calendarFeedSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  etag: stamp,
  last_modified: stamp,
  last_synced_at: stamp,
  last_attempt_at: stamp,
  last_error: stamp,
  created_by: stamp,
  created_at: z.string(),
  /** Its events on the site: series and single events (remove_calendar_feed's feed has no counts). */
  events: z.number().int().default(0),
  /** How many of them an operator hid. */
  hidden: z.number().int().default(0),
})

/** A feed as `roland feeds list` and the console show it: its fields are calendar_feeds' columns (ColumnsOf). */
export type CalendarFeed = ColumnsOf<z.output<typeof calendarFeedSchema>, 'calendar_feeds', 'events' | 'hidden'>

/** What add_calendar_feed and remove_calendar_feed answer. */
const feedOutcomeSchema = z.object({
  status: z.string(),
  feed: calendarFeedSchema.optional(),
  events: z.number().int().optional(),
  message: z.string().optional(),
})

/** One feed's line of a sync, as `roland feeds sync --json` prints it. */
export interface FeedSyncLine {
  name: string
  url: string
  ok: boolean
  events: number
  error: string | null
}

/** What a sync did: a line per feed, and whether any event changed (the site needs a rebuild). */
export interface FeedSyncResult {
  feeds: FeedSyncLine[]
  changed: boolean
}

/** Every feed, by name, with its event counts. */
export function listFeeds(store: Store): Promise<CalendarFeed[]> {
  return callParsed(store, 'calendar_feed_rows', {}, z.array(calendarFeedSchema))
}

/** Adds a feed; throws StoreError (its name taken, a bad address) with what to do. */
export async function addFeed(store: Store, input: unknown, actor?: object): Promise<CalendarFeed> {
  const parsed = newFeedSchema.safeParse(input)
  if (!parsed.success) throw new StoreError(parsed.error.issues.map((issue) => issue.message).join('; '))
  const outcome = await callParsed(
    store,
    'add_calendar_feed',
    { feed_name: parsed.data.name, feed_url: parsed.data.url, actor: actor ?? null },
    feedOutcomeSchema,
  )
  if (outcome.status !== 'ok' || !outcome.feed) throw new StoreError(outcome.message ?? 'The feed was not added')
  return outcome.feed
}

/** Removes a feed (by id or name) and its events; null when there is no such feed. */
export async function removeFeed(
  store: Store,
  which: { id: string } | { name: string },
  actor?: object,
): Promise<{ feed: CalendarFeed; events: number } | null> {
  const outcome = await callParsed(
    store,
    'remove_calendar_feed',
    { feed: 'id' in which ? which.id : null, feed_name: 'name' in which ? which.name : null, actor: actor ?? null },
    feedOutcomeSchema,
  )
  return outcome.status === 'ok' && outcome.feed ? { feed: outcome.feed, events: outcome.events ?? 0 } : null
}

/** Options of a sync. */
export interface SyncFeedsOptions {
  store: Store
  /** Sync these feeds (ids) only; default all. */
  only?: readonly string[]
  /** Let feeds be fetched from 127.0.0.1 and private addresses (ROLAND_ALLOW_PRIVATE_NETWORK=1). */
  allowPrivateNetwork?: boolean
  /** Time allowed for each request hop (default 20 s). */
  timeoutMs?: number
  actor?: object
}

/** What sync_calendar_feed answers. */
const syncAnswerSchema = z.object({
  status: z.string(),
  inserted: z.number().int().optional(),
  updated: z.number().int().optional(),
  removed: z.number().int().optional(),
  message: z.string().optional(),
})
type SyncAnswer = z.output<typeof syncAnswerSchema>

/** Why a fetch of a feed failed, in words an operator acts on. */
function reason(error: unknown, url: string): string {
  if (error instanceof FeedError) return `${url}: ${error.message}`
  if (error instanceof CrawlError) {
    if (error.code === 'too-large') {
      return `${url} is larger than ${feedLimits.maxBytes / 1024 / 1024} MB: ask for a calendar of upcoming events only`
    }
    return error.message
  }
  return error instanceof Error ? error.message : String(error)
}

/** Fetches, reads and records one feed; returns whether its events changed. */
async function syncOne(feed: CalendarFeed, townZone: string, options: SyncFeedsOptions): Promise<boolean> {
  const { store } = options
  const conditional: Record<string, string> = {}
  if (feed.etag) conditional['if-none-match'] = feed.etag
  if (feed.last_modified) conditional['if-modified-since'] = feed.last_modified
  const response = await safeFetch(feed.url, {
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    timeoutMs: options.timeoutMs ?? 20_000,
    maxBytes: feedLimits.maxBytes,
    accept: 'text/calendar, text/plain;q=0.5, */*;q=0.1',
    headers: conditional,
  })
  let answer: SyncAnswer
  if (response.status === 304) {
    answer = await callParsed(
      store,
      'sync_calendar_feed',
      { feed: feed.id, events: null, actor: options.actor ?? null },
      syncAnswerSchema,
    )
  } else {
    if (response.status < 200 || response.status > 299) {
      throw new FeedError(
        `the server answered HTTP ${response.status}: check the address in the calendar's sharing settings`,
      )
    }
    const events = parseFeed(decodeText(response), { townZone, feedKey: feed.id })
    const header = (name: string) => {
      const value = response.headers[name]
      return typeof value === 'string' && value.length <= 500 ? value : null
    }
    const args = { feed: feed.id, events, etag: header('etag'), last_modified: header('last-modified') }
    answer = await callParsed(store, 'sync_calendar_feed', { ...args, actor: options.actor ?? null }, syncAnswerSchema)
  }
  if (answer.status === 'not_found') throw new FeedError('it was removed while it was being synced')
  if (answer.status !== 'ok') throw new FeedError(`its events could not be stored: ${answer.message ?? answer.status}`)
  return (answer.inserted ?? 0) + (answer.updated ?? 0) + (answer.removed ?? 0) > 0
}

/** Syncs every feed (or the `only` ones), one after another; a failing feed is reported, not thrown. */
export async function syncFeeds(options: SyncFeedsOptions): Promise<FeedSyncResult> {
  const { store } = options
  const feeds = (await listFeeds(store)).filter((feed) => !options.only || options.only.includes(feed.id))
  if (feeds.length === 0) return { feeds: [], changed: false }
  const townZone = (await readTown(store)).time_zone
  const errors = new Map<string, string>()
  let changed = false
  for (const feed of feeds) {
    try {
      if (await syncOne(feed, townZone, options)) changed = true
    } catch (error) {
      const message = reason(error, feed.url)
      errors.set(feed.id, message)
      const failed = { feed: feed.id, error: message, actor: options.actor ?? null }
      await callParsed(store, 'fail_calendar_feed', failed, z.object({ status: z.string() }))
    }
  }
  const after = new Map((await listFeeds(store)).map((feed) => [feed.id, feed]))
  return {
    feeds: feeds.map((feed) => ({
      name: feed.name,
      url: feed.url,
      ok: !errors.has(feed.id),
      events: after.get(feed.id)?.events ?? 0,
      error: errors.get(feed.id) ?? null,
    })),
    changed,
  }
}
