import { Option, type Command } from 'commander'
import path from 'node:path'
import { CrawlError } from '../crawl/crawl-error.ts'
import type { CrawlEngine } from '../crawl/crawl.ts'
import {
  engineFromEnv,
  runCrawl,
  runCrawlMissing,
  type CrawlMissingResult,
  type CrawlRunResult,
  type CrawlTarget,
} from '../crawl/job.ts'
import type { StoredImage } from '../crawl/store-images.ts'
import { loadSampleData } from '../migrate/sample.ts'
import { dataDir } from '../paths.ts'
import { openStore } from '../store/index.ts'
import type { Store } from '../store/types.ts'
import { terminalProgress } from './progress.ts'

interface CrawlFlags {
  url?: string
  name?: string
  business?: string
  missing?: boolean
  dryRun?: boolean
  json?: boolean
  allowPrivateNetwork?: boolean
  engine?: CrawlEngine
}

/** Adds `roland crawl --url URL | --business SLUG | --missing` (the CLI contract other tools rely on). */
export function register(program: Command): void {
  program
    .command('crawl')
    .description(
      "find a business's hero, thumbnail and logo on its website and copy them into our storage " +
        '(through Firecrawl when FIRECRAWL_API_KEY is set, else the built-in crawler)',
    )
    .option('--url <url>', 'crawl this address and print what it finds; stores no image')
    .option('--name <name>', 'the business name for --url (default: the host name)')
    .option('--business <slug>', "crawl this business's website and store its images")
    .option('--missing', 'crawl every active business with a website and no images, going on past failures')
    .option('--dry-run', 'crawl and show what was found; store nothing and record no job')
    .option('--json', 'print the result as one JSON object')
    .option(
      '--allow-private-network',
      'let the crawl reach 127.0.0.1 and private addresses (a local test site); never on unless given',
    )
    .addOption(
      new Option(
        '--engine <engine>',
        'which crawler to use (default: firecrawl when FIRECRAWL_API_KEY is set)',
      ).choices(['builtin', 'firecrawl']),
    )
    .action(async (flags: CrawlFlags) => {
      const targets = [flags.url !== undefined, flags.business !== undefined, flags.missing === true].filter(Boolean)
      if (targets.length !== 1) {
        throw new CrawlError(
          'invalid-input',
          'Say what to crawl: --url <address> to look at a website, --business <slug> to store a business’s images, ' +
            'or --missing for every active business with a website and no images.',
        )
      }
      if (flags.name !== undefined && flags.url === undefined) {
        throw new CrawlError('invalid-input', '--name names the business of --url: use it with --url, or drop it.')
      }
      // Settle the engine before opening the store, so a missing key fails at once.
      const engine = engineFromEnv(process.env, flags.engine)
      const common = {
        engine,
        dryRun: flags.dryRun ?? false,
        allowPrivateNetwork: flags.allowPrivateNetwork ?? false,
      }
      const progress = terminalProgress()
      const onEvent = flags.json ? undefined : progress
      // An address crawled dry touches nothing, so it needs no database (and takes no lock on it).
      const needsStore = flags.url === undefined || !flags.dryRun
      const store = needsStore ? await openStore({ onCreate: loadSampleData }) : undefined
      try {
        if (flags.missing) {
          const result = await runCrawlMissing({ ...common, store: store!, onEvent })
          progress.done()
          process.stdout.write(flags.json ? toJson(result) : describeMissing(result, store!))
          if (result.failed.length > 0) {
            // The run went on past them; the exit code still tells a script that some need a look.
            const total = result.crawled.length + result.failed.length
            process.stderr.write(
              `roland: Failed to crawl business images for ${result.failed.length} of ${total} businesses ` +
                `(${listed(result.failed.map((failure) => failure.slug))}): see the summary above.\n`,
            )
            process.exitCode = 1
          }
          return
        }
        const target: CrawlTarget =
          flags.url !== undefined ? { url: flags.url, name: flags.name } : { slug: flags.business! }
        const result = await runCrawl({ ...common, store, target, onEvent })
        progress.done()
        process.stdout.write(flags.json ? toJson(result) : describe(result, store))
      } finally {
        progress.done()
        await store?.close()
      }
    })
}

// The embedded store keeps the files bucket as a folder: <ROLAND_DATA_DIR>/storage/files/<path>.
function filesNote(store: Store | undefined, images: StoredImage[]): string[] {
  if (store?.kind !== 'embedded' || images.length === 0) return []
  return [`Files are in ${path.join(dataDir(), 'storage', 'files')}; the site copies them into its /files.`]
}

/** One line of JSON where every field is present: a value the crawl did not learn (an image without alt) is null. */
function toJson(result: unknown): string {
  return `${JSON.stringify(result, (_key, value: unknown) => (value === undefined ? null : value))}\n`
}

function listed(slugs: string[]): string {
  return slugs.length > 5 ? `${slugs.slice(0, 5).join(', ')} and ${slugs.length - 5} more` : slugs.join(', ')
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`
}

function storedLine(image: StoredImage): string {
  return `  ${image.role.padEnd(9)}  ${image.imageUrl}${image.created ? '' : '  (already stored)'}`
}

function describe(result: CrawlRunResult, store: Store | undefined): string {
  const lines = [
    `Crawled ${result.websiteUrl} for ${result.businessName} with the ${result.engine} engine: ` +
      `${plural(result.pagesVisited.length, 'page')}, ${plural(result.images.length, 'image')} accepted, ` +
      `${result.rejected.length} left out.`,
  ]
  const found = (['hero', 'thumbnail', 'logo'] as const).flatMap((role) => {
    const url = result[`${role}Url`]
    return url ? [`  ${role.padEnd(9)}  ${url}`] : []
  })
  lines.push(...(found.length ? found : ['  No images found for this business.']))
  for (const failure of result.pagesFailed) lines.push(`  could not read ${failure.url}: ${failure.reason}`)

  if (result.dryRun) {
    lines.push('Dry run: nothing was stored and no job was recorded.')
  } else if (!result.business) {
    lines.push(
      `Nothing was stored: --url only looks. Recorded as job ${result.jobId}; use --business <slug> to store images.`,
    )
  } else {
    const added = result.stored.filter((image) => image.created).length
    lines.push(
      `Stored ${plural(result.stored.length, 'image')} for ${result.business.name} ` +
        `(${added} new, ${result.stored.length - added} already stored).`,
    )
    lines.push(...result.stored.map(storedLine))
    if (result.skipped.length) lines.push(`Skipped ${result.skipped.length}:`)
    for (const image of result.skipped) lines.push(`  ${image.role.padEnd(9)}  ${image.url}: ${image.reason}`)
    lines.push(...filesNote(store, result.stored))
  }
  return `${lines.join('\n')}\n`
}

function describeMissing(result: CrawlMissingResult, store: Store): string {
  const { crawled, failed, skipped } = result
  const lines: string[] = []
  if (crawled.length === 0 && failed.length === 0) {
    lines.push('Every active business with a website already has images: nothing to crawl.')
  } else {
    const total = crawled.length + failed.length
    lines.push(
      `${result.dryRun ? 'Dry run: crawled' : 'Crawled'} ${crawled.length} of ${plural(total, 'business website')}` +
        `${failed.length ? ` (${failed.length} failed)` : ''}; ` +
        `${result.dryRun ? 'nothing was stored' : `stored ${plural(result.stored, 'new image')}`}.`,
    )
  }
  for (const business of crawled) {
    const found = [business.heroUrl, business.thumbnailUrl, business.logoUrl].filter(Boolean).length
    if (found === 0) {
      lines.push(`  ${business.name}: No images found for this business.`)
      continue
    }
    const added = business.stored.filter((image) => image.created).length
    lines.push(
      `  ${business.name}: ${result.dryRun ? `found ${found}` : `stored ${added} new`}` +
        `${business.skipped.length ? `, skipped ${business.skipped.length}` : ''}`,
    )
    for (const image of business.stored) lines.push(`  ${storedLine(image)}`)
    for (const image of business.skipped) lines.push(`    skipped ${image.role} ${image.url}: ${image.reason}`)
  }
  for (const failure of failed) lines.push(`  failed: ${failure.name} (${failure.slug}): ${failure.reason}`)
  const left = [
    skipped.withImages ? `${skipped.withImages} already with images` : '',
    skipped.withoutWebsite ? `${skipped.withoutWebsite} without a website` : '',
    skipped.inactive ? `${skipped.inactive} inactive` : '',
  ].filter(Boolean)
  if (left.length) lines.push(`Left alone: ${left.join(', ')}.`)
  lines.push(
    ...filesNote(
      store,
      crawled.flatMap((business) => business.stored),
    ),
  )
  return `${lines.join('\n')}\n`
}
