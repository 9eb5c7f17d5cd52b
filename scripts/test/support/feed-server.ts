import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import ICAL from 'ical.js'
import { TZDate } from '@date-fns/tz'

// Calendar feeds as their producers serve them (issue 40), for tests and the benchmark: the files
// of scripts/test/fixtures/feeds, in Google's, Outlook's, LibCal's and Apple's shapes, with their
// dates written relative to today ({{D+14}} is the date 14 days from now, {{W-21}} the weekday of
// 21 days ago), served on 127.0.0.1 with an ETag (304 when it matches). A stand-in for the
// calendar servers we cannot reach; none of our code is replaced.

const weekdays = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA']

/** A fixture feed's text with its relative dates filled in, from `now`. */
export function feedFixture(name: string, now = new Date()): string {
  const text = readFileSync(new URL(`../fixtures/feeds/${name}.ics`, import.meta.url), 'utf8')
  return fillDates(text, now)
}

/** Fills {{D±N}} (YYYYMMDD) and {{W±N}} (its weekday code), counted in UTC days from `now`. */
export function fillDates(text: string, now = new Date()): string {
  const day = (offset: string) => {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + Number(offset)))
    return date
  }
  return text
    .replace(/\{\{D([+-]\d+)\}\}/g, (_, offset: string) => day(offset).toISOString().slice(0, 10).replace(/-/g, ''))
    .replace(/\{\{W([+-]\d+)\}\}/g, (_, offset: string) => weekdays[day(offset).getUTCDay()]!)
}

/** A local feed server: set a path's body (or status), and count what it answered. */
export interface FeedServer {
  url(path: string): string
  /** Serves `body` at `path` as text/calendar (or as `type`), with an ETag. */
  set(path: string, body: string | Buffer, type?: string): void
  /** Answers `status` at `path`. */
  fail(path: string, status: number): void
  /** How many 304s were answered at `path`. */
  notModified(path: string): number
  close(): Promise<void>
}

/** Starts a feed server on 127.0.0.1. */
export async function startFeedServer(): Promise<FeedServer> {
  const bodies = new Map<string, { body: Buffer; type: string; etag: string } | { status: number }>()
  const answered304 = new Map<string, number>()
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    const entry = bodies.get(path)
    if (!entry) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>')
      return
    }
    if ('status' in entry) {
      response.writeHead(entry.status, { 'content-type': 'text/plain' }).end('Service unavailable')
      return
    }
    if (request.headers['if-none-match'] === entry.etag) {
      answered304.set(path, (answered304.get(path) ?? 0) + 1)
      response.writeHead(304, { etag: entry.etag }).end()
      return
    }
    response.writeHead(200, { 'content-type': entry.type, etag: entry.etag, 'content-length': entry.body.length })
    response.end(entry.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    set(path, body, type = 'text/calendar; charset=utf-8') {
      const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body)
      const etag = `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`
      bodies.set(path, { body: bytes, type, etag })
    },
    fail(path, status) {
      bodies.set(path, { status })
    },
    notModified: (path) => answered304.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * What ical.js itself makes of a feed: every occurrence starting in [from, to), as "SUMMARY
 * start-ISO", its RECURRENCE-ID overrides applied, EXDATEs and cancelled ones left out. Floating
 * times and dates are the town's (`townZone`); the rest ical.js converts with the feed's VTIMEZONEs.
 */
export function icalJsOccurrences(ics: string, from: Date, to: Date, townZone: string): string[] {
  const calendar = new ICAL.Component(ICAL.parse(ics) as unknown[])
  const vevents = calendar.getAllSubcomponents('vevent')
  const instant = (time: ICAL.Time) =>
    time.isDate || time.zone === ICAL.Timezone.localTimezone
      ? new TZDate(time.year, time.month - 1, time.day, time.hour, time.minute, time.second, townZone).getTime()
      : time.toUnixTime() * 1000
  const found: string[] = []
  const masters = vevents.filter((v) => !v.hasProperty('recurrence-id'))
  for (const master of masters) {
    const event = new ICAL.Event(master)
    if (event.component.getFirstPropertyValue('status') === 'CANCELLED') continue
    for (const exception of vevents) {
      if (exception.hasProperty('recurrence-id') && exception.getFirstPropertyValue('uid') === event.uid) {
        event.relateException(new ICAL.Event(exception))
      }
    }
    const add = (summary: string, status: unknown, start: number) => {
      if (status !== 'CANCELLED' && start >= from.getTime() && start < to.getTime()) {
        found.push(`${summary} ${new Date(start).toISOString()}`)
      }
    }
    if (!event.isRecurring()) {
      add(event.summary, master.getFirstPropertyValue('status'), instant(event.startDate))
      continue
    }
    const iterator = event.iterator()
    for (let next = iterator.next(); next; next = iterator.next()) {
      if (instant(next) > to.getTime() + 30 * 86_400_000) break
      const details = event.getOccurrenceDetails(next)
      add(details.item.summary, details.item.component.getFirstPropertyValue('status'), instant(details.startDate))
    }
  }
  return found.sort()
}
