import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openEmbeddedStore } from '../src/store/embedded.ts'
import { sampleStoreOpenIn } from './support/fresh-store.ts'
import { startFixtureSite, type FixtureSite } from './crawl-fixture-server.ts'
import { closedPort } from './support/free-port.ts'

// `roland crawl` as other tools use it: a real process with its own embedded database in a
// temporary folder, crawling fixture websites on 127.0.0.1; its stdout, stderr and exit code.

const run = promisify(execFile)
const cli = path.join(import.meta.dirname, '..', 'src', 'cli.ts')
const folders: string[] = []
const sites: Record<string, FixtureSite> = {}
let deadSite: string

beforeAll(async () => {
  sites['bakery'] = await startFixtureSite('wordpress-bakery')
  sites['smokehouse'] = await startFixtureSite('onepage-smokehouse')
  deadSite = `http://127.0.0.1:${await closedPort()}/`
})

afterAll(async () => {
  await Promise.all(Object.values(sites).map((site) => site.close()))
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
})

async function tempDir(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'roland-crawl-cli-'))
  folders.push(folder)
  return folder
}

const baseEnv = (dataDir: string) => ({
  ...process.env,
  ROLAND_DATA_DIR: dataDir,
  SUPABASE_URL: '',
  FIRECRAWL_API_KEY: '',
  FIRECRAWL_API_URL: '',
})

async function roland(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      env: { ...baseEnv(dataDir), ...env },
      timeout: 120_000,
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/** Creates a data folder with the sample businesses, where only the given ones have websites. */
async function dataDirWith(websites: string[]): Promise<{ dir: string; slugs: string[] }> {
  const dir = await tempDir()
  const store = await sampleStoreOpenIn(dir)
  try {
    const slugs = (await store.listBusinesses()).filter((b) => b.is_active).map((b) => b.slug)
    const chosen = slugs.slice(0, websites.length)
    await store.db.query('update businesses set website = null')
    for (const [index, slug] of chosen.entries()) {
      await store.db.query('update businesses set website = $2 where slug = $1', [slug, websites[index]])
    }
    return { dir, slugs: chosen }
  } finally {
    await store.close()
  }
}

async function storedFiles(dataDir: string): Promise<string[]> {
  return (await readdir(path.join(dataDir, 'storage', 'files', 'business-images')).catch(() => [] as string[])).sort()
}

describe('roland crawl --url', () => {
  test('--dry-run --json prints the crawled image result and every accepted image as one JSON object, changing nothing', async () => {
    const dir = await tempDir()
    const bakery = sites['bakery']!
    const { code, stdout, stderr } = await roland(dir, [
      'crawl',
      '--url',
      bakery.url('/'),
      '--name',
      'Main Street Bakery',
      '--dry-run',
      '--json',
      '--allow-private-network',
    ])
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(stdout.trim().split('\n')).toHaveLength(1)
    const result = JSON.parse(stdout)
    expect(result).toMatchObject({
      businessName: 'Main Street Bakery',
      websiteUrl: bakery.url('/'),
      heroUrl: bakery.url('/wp-content/uploads/2024/03/bakery-storefront.jpg'),
      thumbnailUrl: bakery.url('/wp-content/uploads/2024/03/sourdough-counter.jpg'),
      logoUrl: bakery.url('/wp-content/uploads/2024/01/main-street-bakery-logo.png'),
      engine: 'builtin',
      dryRun: true,
      jobId: null,
      stored: [],
    })
    expect(result.images.length).toBeGreaterThan(3)
    expect(Object.keys(result.images[0]).sort()).toEqual(
      expect.arrayContaining(['url', 'alt', 'width', 'height', 'roles', 'sources', 'pageUrl']),
    )
    expect(result.images.filter((image: { roles: string[] }) => image.roles.length > 0)).toHaveLength(3)
    // No database was opened, let alone created: the data folder is as empty as it was.
    expect(await readdir(dir)).toEqual([])
  })

  test('refuses a local address unless --allow-private-network is given', async () => {
    const { code, stdout, stderr } = await roland(await tempDir(), [
      'crawl',
      '--url',
      sites['bakery']!.url('/'),
      '--dry-run',
    ])
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toMatch(
      /^roland: Failed to crawl business images: Refused to fetch .*non-public address \(loopback\).*--allow-private-network[^\n]*\n$/,
    )
  })

  test('exits non-zero with one line on stderr when the website is down', async () => {
    const { code, stdout, stderr } = await roland(await tempDir(), [
      'crawl',
      '--url',
      deadSite,
      '--dry-run',
      '--json',
      '--allow-private-network',
    ])
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toMatch(
      /^roland: Failed to crawl business images: 127\.0\.0\.1:\d+ refused the connection: the website may be down\n$/,
    )
  })

  test('says "Please set your API key first" when Firecrawl is asked for without a key', async () => {
    const { code, stderr } = await roland(await tempDir(), [
      'crawl',
      '--url',
      'https://example.com',
      '--dry-run',
      '--engine',
      'firecrawl',
    ])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^roland: Please set your API key first: set FIRECRAWL_API_KEY in \.env[^\n]*\n$/)
  })

  test('says "API key not found" when a Firecrawl address is set without its key', async () => {
    const { code, stderr } = await roland(await tempDir(), ['crawl', '--url', 'https://example.com', '--dry-run'], {
      FIRECRAWL_API_URL: 'https://firecrawl.internal',
    })
    expect(code).toBe(1)
    expect(stderr).toMatch(
      /^roland: API key not found: FIRECRAWL_API_URL is set but FIRECRAWL_API_KEY is missing[^\n]*\n$/,
    )
  })

  test('says "Failed to connect to Firecrawl API" when Firecrawl cannot be reached', async () => {
    const apiUrl = `http://127.0.0.1:${await closedPort()}`
    const { code, stderr } = await roland(await tempDir(), ['crawl', '--url', 'https://example.com', '--dry-run'], {
      FIRECRAWL_API_KEY: 'fc-test',
      FIRECRAWL_API_URL: apiUrl,
    })
    expect(code).toBe(1)
    expect(stderr).toMatch(
      new RegExp(
        `^roland: Failed to crawl business images: Failed to connect to Firecrawl API at ${apiUrl}[^\\n]*\\n$`,
      ),
    )
  })

  test('asks for a target when given none', async () => {
    const { code, stderr } = await roland(await tempDir(), ['crawl', '--dry-run'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^roland: Say what to crawl: --url <address>.*--business <slug>.*--missing[^\n]*\n$/)
  })
})

describe('roland crawl --business', () => {
  let dir: string
  let slug: string

  beforeAll(async () => {
    const prepared = await dataDirWith([sites['bakery']!.url('/')])
    dir = prepared.dir
    slug = prepared.slugs[0]!
  })

  test('stores the images of a business, and a second crawl adds no file and no row', async () => {
    const first = await roland(dir, ['crawl', '--business', slug, '--allow-private-network'])
    expect(first).toMatchObject({ code: 0, stderr: '' })
    expect(first.stdout).toMatch(/^Stored 3 images for .+ \(3 new, 0 already stored\)\.$/m)
    const files = await storedFiles(dir)
    expect(files).toHaveLength(3)

    const second = await roland(dir, ['crawl', '--business', slug, '--allow-private-network', '--json'])
    expect(second).toMatchObject({ code: 0, stderr: '' })
    const result = JSON.parse(second.stdout)
    expect(result.business.slug).toBe(slug)
    expect(result.stored.map((image: { role: string; created: boolean }) => [image.role, image.created])).toEqual([
      ['hero', false],
      ['thumbnail', false],
      ['logo', false],
    ])
    expect(await storedFiles(dir)).toEqual(files)

    const store = await openEmbeddedStore({ dir })
    try {
      const business = (await store.listBusinesses()).find((candidate) => candidate.slug === slug)!
      expect(business.images.map((image) => image.image_url).sort()).toEqual(
        files.map((file) => `/files/business-images/${file}`),
      )
      expect((await store.jobs.list()).filter((job) => job.kind === 'crawl').map((job) => job.status)).toEqual([
        'succeeded',
        'succeeded',
      ])
    } finally {
      await store.close()
    }
  })

  test('names the slug it cannot find', async () => {
    const { code, stderr } = await roland(dir, ['crawl', '--business', 'no-such-business'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^roland: No business has the slug "no-such-business"\.[^\n]*\n$/)
  })
})

describe('roland crawl --missing', () => {
  test('crawls every business with a website and no images, goes past a dead site, summarises and exits non-zero', async () => {
    const { dir, slugs } = await dataDirWith([sites['bakery']!.url('/'), deadSite, sites['smokehouse']!.url('/')])
    const { code, stdout, stderr } = await roland(dir, ['crawl', '--missing', '--allow-private-network'])
    expect(code).toBe(1)
    expect(stdout).toMatch(/^Crawled 2 of 3 business websites \(1 failed\); stored 5 new images\.$/m)
    expect(stdout).toMatch(
      new RegExp(`^  failed: .+ \\(${slugs[1]}\\): Failed to crawl business images: .*refused the connection`, 'm'),
    )
    expect(stdout).toMatch(/^Left alone: \d+ without a website\.$/m)
    expect(stderr).toBe(
      `roland: Failed to crawl business images for 1 of 3 businesses (${slugs[1]}): see the summary above.\n`,
    )
    expect(await storedFiles(dir)).toHaveLength(5)

    const again = await roland(dir, ['crawl', '--missing', '--allow-private-network', '--json'])
    expect(again.code).toBe(1)
    const result = JSON.parse(again.stdout)
    expect(result).toMatchObject({ crawled: [], stored: 0, skipped: { withImages: 2 } })
    expect(result.failed.map((failure: { slug: string }) => failure.slug)).toEqual([slugs[1]])
  })
})
