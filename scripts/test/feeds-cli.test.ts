import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { feedFixture, startFeedServer, type FeedServer } from './support/feed-server.ts'
import { freshStoreIn } from './support/fresh-store.ts'

// `roland feeds` as an operator or a cron job uses it (issue 40): a real process over its own
// embedded database, the feeds served on 127.0.0.1.

const execute = promisify(execFile)
const cli = path.join(import.meta.dirname, '..', 'src', 'cli.ts')
let server: FeedServer
let dataDir: string

async function roland(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execute(process.execPath, [cli, ...args], {
      env: { ...process.env, SUPABASE_URL: '', ROLAND_DATA_DIR: dataDir, ROLAND_ALLOW_PRIVATE_NETWORK: '' },
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

beforeAll(async () => {
  server = await startFeedServer()
  server.set('/library.ics', feedFixture('libcal'))
  server.fail('/church.ics', 404)
  dataDir = await mkdtemp(path.join(tmpdir(), 'roland-feeds-cli-'))
  await (await freshStoreIn(dataDir)).close()
})

afterAll(async () => {
  await server?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe('roland feeds', () => {
  test('adds feeds, with clear errors for a name taken and a bad address', async () => {
    expect((await roland('feeds', 'add', '--name', 'Library', '--url', server.url('/library.ics'))).code).toBe(0)
    expect((await roland('feeds', 'add', '--name', 'Church', '--url', server.url('/church.ics'))).code).toBe(0)

    const duplicate = await roland('feeds', 'add', '--name', 'Library', '--url', server.url('/other.ics'))
    expect(duplicate.code).toBe(1)
    expect(duplicate.stderr).toMatch(/A feed named "Library" exists already/)
    const badUrl = await roland('feeds', 'add', '--name', 'Other', '--url', 'calendar.ics')
    expect(badUrl.code).toBe(1)
    expect(badUrl.stderr).toMatch(/url: give the calendar's full http\(s\) iCal address/)
  }, 120_000)

  test('syncs them, printing a line per feed; 127.0.0.1 only when allowed', async () => {
    // 127.0.0.1 is refused unless allowed.
    const refused = await roland('feeds', 'sync', '--json')
    expect(refused.code).toBe(1)
    const refusedLines = (JSON.parse(refused.stdout) as { feeds: Array<{ ok: boolean }> }).feeds
    expect(refusedLines.map((line) => line.ok)).toEqual([false, false])

    const synced = await roland('feeds', 'sync', '--json', '--allow-private-network')
    expect(synced.code).toBe(1)
    expect(JSON.parse(synced.stdout)).toEqual({
      feeds: [
        {
          name: 'Church',
          url: server.url('/church.ics'),
          ok: false,
          events: 0,
          error: expect.stringMatching(/HTTP 404/) as unknown,
        },
        { name: 'Library', url: server.url('/library.ics'), ok: true, events: 3, error: null },
      ],
    })
  }, 120_000)

  test('lists and removes them', async () => {
    const list = await roland('feeds', 'list', '--json')
    const feeds = (
      JSON.parse(list.stdout) as { feeds: Array<{ name: string; events: number; last_error: string | null }> }
    ).feeds
    expect(feeds.map((feed) => [feed.name, feed.events, feed.last_error !== null])).toEqual([
      ['Church', 0, true],
      ['Library', 3, false],
    ])
    expect((await roland('feeds', 'list')).stdout).toMatch(
      /Library {2}http:\/\/127\.0\.0\.1:\d+\/library\.ics\n {2}3 events/,
    )

    const unknown = await roland('feeds', 'remove', 'Nowhere')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/No feed named "Nowhere": roland feeds list shows their names/)
    const removed = await roland('feeds', 'remove', 'Library')
    expect(removed.stdout).toMatch(/Removed the feed Library and its 3 event\(s\)/)
  }, 120_000)
})
