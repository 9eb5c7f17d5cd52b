import { newFeedSchema } from '../content/schema.ts'
import { readTown } from '../content/town.ts'
import { CrawlError } from '../crawl/crawl-error.ts'
import { decodeText, safeFetch } from '../crawl/safe-fetch.ts'
import type { Store } from '../store/types.ts'
import { StoreError } from '../store/types.ts'
import { feedLimits, FeedError, parseFeed } from './parse.ts'

// Calendar feeds (issue 40): adding, listing and removing the feeds, and the sync that copies
// their events into community_events. A sync fetches each feed through the crawler's safe fetch
// (no private addresses unless allowed, a timeout, at most 5 MB), sends back the ETag and
// Last-Modified it was given (304: nothing to do), reads it with ical.js (parse.ts) and writes all
// of the feed's events in one call of public.sync_calendar_feed, one transaction per feed. A feed
// that fails records why (Needs attention lists it) and keeps its events as they were.

/** A feed as `roland feeds list` and the console show it. */
export interface CalendarFeed {
  id: string
  name: string
  url: string
  etag: string | null
  last_modified: string | null
  last_synced_at: string | null
  last_attempt_at: string | null
  last_error: string | null
  created_by: string | null
  created_at: string
  /** Its events on the site: series and single events. */
  events: number
  /** How many of them an operator hid. */
  hidden: number
}

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
  return store.call<CalendarFeed[]>('calendar_feed_rows', {})
}

/** Adds a feed; throws StoreError (its name taken, a bad address) with what to do. */
export async function addFeed(store: Store, input: unknown, actor?: object): Promise<CalendarFeed> {
  const parsed = newFeedSchema.safeParse(input)
  if (!parsed.success) throw new StoreError(parsed.error.issues.map((issue) => issue.message).join('; '))
  const outcome = await store.call<{ status: string; feed?: CalendarFeed; message?: string }>('add_calendar_feed', {
    feed_name: parsed.data.name,
    feed_url: parsed.data.url,
    actor: actor ?? null,
  })
  if (outcome.status !== 'ok' || !outcome.feed) throw new StoreError(outcome.message ?? 'The feed was not added')
  return outcome.feed
}

/** Removes a feed (by id or name) and its events; null when there is no such feed. */
export async function removeFeed(
  store: Store,
  which: { id: string } | { name: string },
  actor?: object,
): Promise<{ feed: CalendarFeed; events: number } | null> {
  const outcome = await store.call<{ status: string; feed?: CalendarFeed; events?: number }>('remove_calendar_feed', {
    feed: 'id' in which ? which.id : null,
    feed_name: 'name' in which ? which.name : null,
    actor: actor ?? null,
  })
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

interface SyncAnswer {
  status: 'ok' | 'not_found' | 'invalid'
  inserted?: number
  updated?: number
  removed?: number
  message?: string
}

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
    answer = await store.call<SyncAnswer>('sync_calendar_feed', {
      feed: feed.id,
      events: null,
      actor: options.actor ?? null,
    })
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
    answer = await store.call<SyncAnswer>('sync_calendar_feed', {
      feed: feed.id,
      events,
      etag: header('etag'),
      last_modified: header('last-modified'),
      actor: options.actor ?? null,
    })
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
      await store.call('fail_calendar_feed', { feed: feed.id, error: message, actor: options.actor ?? null })
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
