import type { Command } from 'commander'
import { StoreError } from '../store/types.ts'
import { addFeed, listFeeds, removeFeed, syncFeeds, type CalendarFeed, type FeedSyncResult } from '../feeds/sync.ts'
import { withStore } from './with-store.ts'

// `roland feeds …` (issue 40): the calendar feeds the site follows. `sync` is what the console's
// schedule runs (ROLAND_FEEDS_EVERY); `sync --json` prints {"feeds":[{name, url, ok, events, error}]}.

function when(at: string | null): string {
  return at ? new Date(at).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : 'never'
}

function describeFeeds(feeds: CalendarFeed[]): string {
  if (feeds.length === 0) return 'No calendar feeds: add one with roland feeds add --name NAME --url URL\n'
  return (
    feeds
      .map(
        (feed) =>
          `${feed.name}  ${feed.url}\n  ${feed.events} event${feed.events === 1 ? '' : 's'}` +
          (feed.hidden ? ` (${feed.hidden} hidden)` : '') +
          `, last synced ${when(feed.last_synced_at)}` +
          (feed.last_error ? `\n  last sync failed: ${feed.last_error}` : ''),
      )
      .join('\n') + '\n'
  )
}

function describeSync(result: FeedSyncResult): string {
  if (result.feeds.length === 0)
    return 'No calendar feeds to sync: add one with roland feeds add --name NAME --url URL\n'
  return (
    result.feeds
      .map((line) =>
        line.ok
          ? `${line.name}: ${line.events} event${line.events === 1 ? '' : 's'}`
          : `${line.name}: failed, its events are kept as they were: ${line.error}`,
      )
      .join('\n') + '\n'
  )
}

/** Adds `roland feeds add|list|remove|sync`. */
export function register(program: Command): void {
  const feeds = program.command('feeds').description('follow calendars (iCalendar feeds): add, list, remove, sync')

  feeds
    .command('add')
    .description('follow a calendar: its events appear on the site at the next sync')
    .requiredOption('--name <name>', 'what the site says the events are from ("From {name}")')
    .requiredOption('--url <url>', "the calendar's iCal (.ics) address")
    .action(async (flags: { name: string; url: string }) => {
      const feed = await withStore((store) => addFeed(store, flags))
      process.stdout.write(`Added the feed ${feed.name} (${feed.url}): run roland feeds sync to read its events.\n`)
    })

  feeds
    .command('list')
    .description('list the feeds with their events and last sync')
    .option('--json', 'print the feeds as JSON')
    .action(async (flags: { json?: boolean }) => {
      const list = await withStore((store) => listFeeds(store))
      process.stdout.write(flags.json ? `${JSON.stringify({ feeds: list })}\n` : describeFeeds(list))
    })

  feeds
    .command('remove')
    .description('stop following a feed and remove its events')
    .argument('<name>', 'the name the feed was added with')
    .action(async (name: string) => {
      const removed = await withStore((store) => removeFeed(store, { name }))
      if (!removed) throw new StoreError(`No feed named "${name}": roland feeds list shows their names`)
      process.stdout.write(`Removed the feed ${removed.feed.name} and its ${removed.events} event(s).\n`)
    })

  feeds
    .command('sync')
    .description('read every feed and update its events (a feed that fails keeps its events)')
    .option('--json', 'print {"feeds":[{"name","url","ok","events","error"}]}')
    .option(
      '--allow-private-network',
      'let the sync reach 127.0.0.1 and private addresses (local test servers); also ROLAND_ALLOW_PRIVATE_NETWORK=1',
    )
    .action(async (flags: { json?: boolean; allowPrivateNetwork?: boolean }) => {
      const result = await withStore((store) =>
        syncFeeds({
          store,
          allowPrivateNetwork: flags.allowPrivateNetwork === true || process.env.ROLAND_ALLOW_PRIVATE_NETWORK === '1',
        }),
      )
      process.stdout.write(flags.json ? `${JSON.stringify({ feeds: result.feeds })}\n` : describeSync(result))
      if (result.feeds.some((line) => !line.ok)) process.exitCode = 1
    })
}
