import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, unlink } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { readBackup } from '@roland/scripts/backup/restore'
import { markInterruptedJobs } from '@roland/scripts/jobs/interrupted'
import { sampleRolandFile } from '@roland/scripts/migrate/sample'
import type { EmbeddedStore } from '@roland/scripts/store/embedded'
import type { Job } from '@roland/scripts/store/types'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startFirecrawlStandIn, type FirecrawlStandIn } from '../../scripts/test/crawl-firecrawl-stand-in.ts'
import { startFixtureSite, type FixtureSite } from '../../scripts/test/crawl-fixture-server.ts'
import { launchBrowser } from '../../test/support/browser.ts'
import { serveStatic } from '../../test/support/static-server.ts'
import { distDir, ensureAppBuilt } from '../src/server/build-app.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { deadProcessId } from '../../scripts/test/support/dead-process.ts'
import { addTestOperator, rolandText, startTestConsole, tempDataDir, testPassword, waitFor } from './support/console.ts'

// The console end to end: the built app in a real Chromium, the real server and embedded
// Postgres, a fixture business website on 127.0.0.1, and a real local site build.

const newBusiness = 'Main Street Bakery'
const newSlug = 'main-street-bakery'
const firecrawlKey = 'fc-e2e-secret-key-8d41f0'

let data: Awaited<ReturnType<typeof tempDataDir>>
let outDir: string
let site: FixtureSite
let firecrawl: FirecrawlStandIn
let server: ConsoleServer
let browser: Browser
let context: BrowserContext
let page: Page
const bodies: string[] = []

beforeAll(async () => {
  await ensureAppBuilt()
  data = await tempDataDir('roland-console-e2e-')
  outDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'roland-console-site-')), 'dist')
  site = await startFixtureSite('wordpress-bakery')
  firecrawl = await startFirecrawlStandIn({ apiKey: firecrawlKey })
  server = await startTestConsole({
    dataDir: data.dir,
    serveApp: true,
    env: {
      ROLAND_ALLOW_PRIVATE_NETWORK: '1',
      ROLAND_OUT_DIR: outDir,
      FIRECRAWL_API_URL: firecrawl.apiUrl,
      // As the console runs: each rebuild's process started ahead, and waiting.
      ROLAND_REBUILD_STANDBY: 'on',
    },
  })
  await addTestOperator(server, 'coordinator@example.org', 'admin')
  browser = await launchBrowser()
  context = await browser.newContext({ viewport: { width: 1200, height: 900 } })
  page = await context.newPage()
  page.setDefaultTimeout(90_000)
  // Every answer the console gives the browser, to check that none holds the Firecrawl key.
  page.on('response', (response) => {
    if (!response.url().startsWith(server.url) || response.url().endsWith('/api/events')) return
    response.text().then(
      (text) => bodies.push(text),
      () => {},
    )
  })
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await site?.close()
  await firecrawl?.close()
  await data?.remove()
  if (outDir) await rm(path.dirname(outDir), { recursive: true, force: true })
})

/**
 * Waits for the rebuild a job that changed data causes, and returns its row once it has run. Not
 * "until no rebuild is due or running": that already holds between the job's end reaching the page
 * and the scheduler hearing of it. Once the rebuild is recorded it runs; it is awaited without
 * polling the database, which the build's own process must open.
 */
async function rebuildAfter(cause: Job): Promise<Job> {
  const since = Date.parse(cause.finished_at!)
  const { id } = await waitFor(
    async () =>
      (await server.services.jobs.list(50)).find((job) => job.kind === 'rebuild' && Date.parse(job.created_at) > since),
    `the rebuild after the ${cause.kind} job ${cause.id}`,
  )
  await server.services.scheduler.idle()
  return (await server.services.jobs.list(50)).find((job) => job.id === id)!
}

async function lastJob(kind: Job['kind']): Promise<Job | undefined> {
  return (await server.services.jobs.list(50)).find((job) => job.kind === kind)
}

// Local site builds and Chromium share the machine with other suites: generous limits, never asserted.
const slow = { timeout: 240_000 }

describe('the console in Chromium', () => {
  test('signs in with an operator’s email and password', slow, async () => {
    await page.goto(`${server.url}/migration`)
    await page.getByLabel('Email').fill('coordinator@example.org')
    await page.getByLabel('Password').fill('not the password at all')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByText('Wrong email or password').waitFor()

    await page.getByLabel('Password').fill(testPassword)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Database Migration' }).waitFor()
    expect(await page.getByTestId('signed-in-as').textContent()).toBe('coordinator@example.org (admin)')
    const cookies = await context.cookies(server.url)
    expect(cookies).toEqual([
      expect.objectContaining({ name: 'roland_console_session', httpOnly: true, sameSite: 'Strict' }),
    ])
    await page.getByText('Complete', { exact: true }).waitFor()
    expect(await page.getByTestId('business-count').textContent()).toMatch(/^\d+ businesses in the database$/)
  })

  test('previews, then runs a migration from an uploaded Roland.txt, and shows the new count', slow, async () => {
    const sample = await readFile(sampleRolandFile, 'utf8')
    const file = `${sample.trimEnd()}\n\n${rolandText([newBusiness])}\n`
    const before = Number((await page.getByTestId('business-count').textContent())!.split(' ')[0])

    await page.getByLabel('Upload a Roland.txt').check()
    await page
      .locator('#roland-file')
      .setInputFiles({ name: 'Roland.txt', mimeType: 'text/plain', buffer: Buffer.from(file) })
    await page.getByRole('button', { name: 'Preview changes' }).click()
    const preview = page.getByTestId('migration-preview')
    await preview.waitFor()
    expect(await preview.textContent()).toContain(`added ${newBusiness}`)
    expect(await preview.locator('dd').first().textContent()).toBe('1')

    // Complete already (the sample data): 'Start Migration' reads 'Migration Complete' and stays off.
    expect(await page.getByRole('button', { name: 'Migration Complete' }).isDisabled()).toBe(true)
    await page.getByRole('button', { name: 'Re-run Migration' }).click()
    const alert = page.getByTestId('migration-result')
    await alert.waitFor({ timeout: 60_000 })
    expect(await alert.getAttribute('role')).toBe('status')
    expect(await alert.textContent()).toContain('Migration completed successfully!')
    expect(await alert.textContent()).toContain(`${before + 1} businesses in the database`)
    await page
      .getByTestId('business-count')
      .filter({ hasText: `${before + 1} businesses in the database` })
      .waitFor()
    expect(await page.getByRole('progressbar', { name: 'Migration progress' }).getAttribute('aria-valuenow')).toBe(
      '100',
    )
    // SPEC §8: a Success toast.
    await page.locator('li[data-variant="default"]').filter({ hasText: 'Migration completed successfully!' }).waitFor()
  })

  test('crawls a fixture website on 127.0.0.1 and shows its images', slow, async () => {
    await page.getByRole('link', { name: 'Crawler' }).click()
    await page.getByRole('heading', { name: 'Business Image Crawler' }).waitFor()
    await page.getByRole('heading', { name: 'Setup Required' }).waitFor()
    await page.getByText('The built-in crawler works without one').waitFor()

    // SPEC §5: both fields are required and the URL must be URL-shaped.
    await page.getByRole('button', { name: 'Crawl Business Images' }).click()
    await page.getByText('Business name is required').first().waitFor()
    await page.getByLabel('Business Name').fill(newBusiness)
    await page.getByLabel('Website URL').fill('not a website')
    await page.getByRole('button', { name: 'Crawl Business Images' }).click()
    await page.getByText('Enter a website address such as https://example.com').first().waitFor()

    await page.getByLabel('Website URL').fill(site.url('/'))
    await page.getByRole('button', { name: 'Crawl Business Images' }).click()
    const results = page.locator('article[data-crawl-job]')
    await results.first().waitFor({ timeout: 60_000 })
    await page.getByRole('heading', { name: 'Crawled Images' }).waitFor()
    const card = results.first()
    await card.getByText('Success', { exact: true }).waitFor()
    const hero = card.getByRole('img', { name: `${newBusiness} hero image` })
    await hero.waitFor()
    expect(await hero.getAttribute('src')).toBe(site.url('/wp-content/uploads/2024/03/bakery-storefront.jpg'))
    await waitFor(
      () => hero.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
      'the hero image to load',
    )
    expect(await card.getByRole('img', { name: `${newBusiness} logo` }).count()).toBe(1)
  })

  test(
    'attaches the crawled images to the business; the rebuild finishes and the built site has the business’s page',
    slow,
    async () => {
      const card = page.locator('article[data-crawl-job]').first()
      const select = card.getByLabel('Attach to business')
      await waitFor(async () => (await select.inputValue()) !== '', 'the business with the same name to be chosen')
      expect(await select.locator('option:checked').textContent()).toBe(newBusiness)
      await card.getByRole('button', { name: 'Attach images' }).click()
      await card.getByText('succeeded').waitFor({ timeout: 60_000 })

      const attach = await lastJob('crawl')
      expect(attach?.params).toMatchObject({ slug: newSlug, businessName: newBusiness })
      const stored = (attach?.result as { stored: Array<{ role: string; created: boolean }> }).stored
      expect(stored.filter((image) => image.created).map((image) => image.role)).toContain('hero')

      const rebuild = await rebuildAfter(attach!)
      expect(rebuild).toMatchObject({ status: 'succeeded', params: { mode: 'local' } })
      expect(Date.parse(rebuild.created_at)).toBeGreaterThan(Date.parse(attach!.finished_at!))
      const panel = page.getByTestId('rebuild-panel')
      await panel.getByText('succeeded').waitFor()
      expect(await panel.textContent()).toMatch(/last rebuild\s*succeeded\s*(\d+ min )?\d+(\.\d)? s/)

      // The new business's page, in the site the console just built.
      const pageFile = path.join(outDir, 'business', newSlug, 'index.html')
      expect(existsSync(pageFile)).toBe(true)
      const html = await readFile(pageFile, 'utf8')
      expect(html).toContain(newBusiness)
      // og:image shares the crawled hero's widest JPEG derivative.
      const heroFile = html.match(/\/files\/variants\/business-images\/([\w-]+-hero-[\w]+)-\d+\.jpg/)
      expect(heroFile, 'the crawled hero on the business page').not.toBeNull()
      const built = await serveStatic(outDir)
      try {
        const sitePage = await context.newPage()
        await sitePage.goto(`${built.url}/business/${newSlug}`)
        await sitePage.getByRole('heading', { name: newBusiness, level: 1 }).waitFor()
        // The featured image is a <picture> of the same derivatives.
        const image = sitePage.locator('img[data-featured-image]').first()
        expect(await image.getAttribute('src')).toContain(`/files/variants/business-images/${heroFile![1]}-`)
        await waitFor(
          () =>
            image.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
          'the stored image on the site',
        )
        await sitePage.close()
      } finally {
        await built.close()
      }
    },
  )

  test(
    'shows every business with its images; crawls photos and generates an image per business, each with its job',
    slow,
    async () => {
      // Roland.txt cannot name a 127.0.0.1 website: point the business at the fixture site in the database itself.
      await server.services.store.use(async (store) => {
        await (store as EmbeddedStore).db.query('update public.businesses set website = $1 where slug = $2', [
          site.url('/'),
          newSlug,
        ])
      })
      await page.getByRole('link', { name: 'Businesses' }).click()
      const row = page.locator(`article[data-business="${newSlug}"]`)
      await row.waitFor()
      await row.getByRole('img', { name: `${newBusiness} hero` }).waitFor()
      const imagesBefore = Number((await row.getByText(/^\d+ image\(s\)$/).textContent())!.split(' ')[0])

      const job = row.getByTestId('business-job')
      // Waits for a job other than the one shown before to succeed.
      const nextJobSucceeds = async (kind: string) => {
        const shown = (await job.count()) ? await job.getAttribute('data-job-id') : null
        return async () => {
          await waitFor(async () => {
            const [id, status, jobKind] = await Promise.all(
              ['data-job-id', 'data-status', 'data-kind'].map((name) => job.getAttribute(name)),
            )
            if (status === 'failed' && id !== shown)
              throw new Error(`The ${kind} job failed: ${await job.textContent()}`)
            return id !== shown && status === 'succeeded' && jobKind === kind
          }, `the ${kind} job to succeed`)
        }
      }
      let succeeded = await nextJobSucceeds('crawl')
      await row.getByRole('button', { name: 'Crawl photos' }).click()
      await succeeded()
      expect(await job.textContent()).toMatch(/^Crawl photos/)
      const crawl = await lastJob('crawl')
      expect(crawl).toMatchObject({ status: 'succeeded', params: { slug: newSlug } })
      // The same pictures as the attach: stored once, recognised by their bytes.
      expect((crawl!.result as { stored: Array<{ created: boolean }> }).stored.every((image) => !image.created)).toBe(
        true,
      )

      succeeded = await nextJobSucceeds('images')
      await row.getByRole('button', { name: 'Generate image' }).click()
      await succeeded()
      expect(await job.textContent()).toMatch(/^Generate image/)
      await row.getByText(`${imagesBefore + 1} image(s)`).waitFor()
      const generated = await lastJob('images')
      expect(generated).toMatchObject({ status: 'succeeded', params: { target: newSlug } })
      const rebuild = await rebuildAfter(generated!)
      // Its error and the end of its log, when it failed, are what to look at.
      expect({ status: rebuild.status, error: rebuild.error, log: rebuild.log.slice(-5) }).toMatchObject({
        status: 'succeeded',
      })
    },
  )

  test('shows a placeholder for a business image that cannot load', slow, async () => {
    // A stored file gone missing (the database still lists it).
    const files = path.join(data.dir, 'storage', 'files', 'business-images')
    const logo = (await readdir(files)).find((name) => name.includes('-logo-'))!
    await unlink(path.join(files, logo))
    await page.reload()
    const row = page.locator(`article[data-business="${newSlug}"]`)
    await row.getByRole('img', { name: `${newBusiness} logo (image unavailable)` }).waitFor()
    await row
      .getByRole('img', { name: `${newBusiness} hero` })
      .first()
      .waitFor()
  })

  test('lists the jobs live, with their status, duration, result and log', slow, async () => {
    await page.getByRole('link', { name: 'Jobs' }).click()
    const migrate = page.locator('article[data-kind="migrate"][data-status="succeeded"]').first()
    await migrate.waitFor()
    expect(await migrate.textContent()).toMatch(/added 1/)
    await migrate.getByText(/^Log \(\d+ lines?\)$/).click()
    expect(await migrate.locator('pre').textContent()).toContain('Parsed')
    const rebuild = page.locator('article[data-kind="rebuild"][data-status="succeeded"]').first()
    expect(await rebuild.textContent()).toMatch(/site built into/)
  })

  test('shows a job whose process died as interrupted, in words', slow, async () => {
    // A crawl of a console that was killed: the next start marks it interrupted.
    const deadPid = await deadProcessId()
    const orphan = await server.services.store.use(async (store) => {
      const job = await store.jobs.create('crawl', { businessName: 'Orphan Diner' }, `console:${deadPid}`)
      await store.jobs.update(job.id, { status: 'running', started_at: new Date().toISOString() })
      await markInterruptedJobs(store)
      return job
    })
    await page.reload()
    const card = page.locator(`article[data-job-id="${orphan.id}"]`)
    await card.waitFor()
    expect(await card.getAttribute('data-status')).toBe('interrupted')
    expect(await card.textContent()).toContain('Interrupted: the process stopped before the job finished.')
  })

  test(
    'saves the Firecrawl key on the server only: no answer, no storage and no built asset holds it',
    slow,
    async () => {
      await page.getByRole('link', { name: 'Crawler' }).click()
      await page.getByRole('button', { name: 'Save API Key' }).click()
      await page
        .locator('li[data-variant="destructive"]')
        .filter({ hasText: 'Please enter your Firecrawl API key' })
        .waitFor()

      await page.getByLabel('Firecrawl API Key').fill(firecrawlKey)
      await page.getByRole('button', { name: 'Save API Key' }).click()
      await page.locator('li[data-variant="default"]').filter({ hasText: 'API key validated and saved' }).waitFor()
      await page.getByText('Crawls use Firecrawl with the key saved on the console server').waitFor()
      expect(await page.getByRole('heading', { name: 'Setup Required' }).count()).toBe(0)

      await page.reload()
      await page.getByText('Crawls use Firecrawl with the key saved on the console server').waitFor()
      const storage = await page.evaluate(
        () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie,
      )
      expect(storage).not.toContain(firecrawlKey)
      expect(bodies.length).toBeGreaterThan(10)
      for (const body of bodies) expect(body).not.toContain(firecrawlKey)
      for (const entry of await readdir(distDir, { recursive: true, withFileTypes: true })) {
        if (entry.isFile())
          expect(await readFile(path.join(entry.parentPath, entry.name), 'utf8')).not.toContain(firecrawlKey)
      }
      await page.getByRole('button', { name: 'Remove key' }).click()
      await page.getByRole('heading', { name: 'Setup Required' }).waitFor()
    },
  )
})

describe('operators in Chromium', () => {
  test('an admin adds an editor on the Operators screen; the editor signs in and is not offered it', slow, async () => {
    // A browser of its own: this test signs in and out without disturbing the others.
    const own = await browser.newContext({ viewport: { width: 1200, height: 900 } })
    const tab = await own.newPage()
    tab.setDefaultTimeout(90_000)
    const signInAs = async (email: string) => {
      await tab.getByLabel('Email').fill(email)
      await tab.getByLabel('Password').fill(testPassword)
      await tab.getByRole('button', { name: 'Sign in' }).click()
      await tab.getByTestId('signed-in-as').waitFor()
    }
    try {
      await tab.goto(`${server.url}/operators`)
      await signInAs('coordinator@example.org')
      await tab.getByRole('heading', { name: 'Operators', exact: true }).waitFor()
      await tab.getByLabel('Email').fill('volunteer@example.org')
      await tab.getByLabel('Password').fill('short')
      await tab.getByRole('button', { name: 'Add operator' }).click()
      await tab.getByText('The password must be at least 12 characters').waitFor()
      await tab.getByLabel('Password').fill(testPassword)
      await tab.getByRole('button', { name: 'Add operator' }).click()
      await tab.getByTestId('operator-row').filter({ hasText: 'volunteer@example.org' }).waitFor()

      // The backup downloads as a file the restore accepts, holding the operator just added.
      const downloading = tab.waitForEvent('download')
      await tab.getByRole('link', { name: 'Download a backup' }).click()
      const download = await downloading
      expect(download.suggestedFilename()).toMatch(/^roland-backup-\d{8}T\d{6}Z\.tar\.gz$/)
      const file = path.join(data.dir, 'downloaded-backup.tar.gz')
      await download.saveAs(file)
      const backup = await readBackup(file, path.join(data.dir, 'downloaded-backup-files'))
      expect(backup.tables.get('operators')?.map((row) => row.email)).toContain('volunteer@example.org')

      await tab.getByRole('button', { name: 'Sign out' }).click()
      // The Operators screen has an Email field too: fill in the sign-in form only once it is shown.
      await tab.getByRole('heading', { name: 'Sign in' }).waitFor()
      await signInAs('volunteer@example.org')
      expect(await tab.getByTestId('signed-in-as').textContent()).toBe('volunteer@example.org (editor)')
      await tab.getByRole('heading', { name: 'Today', level: 1 }).waitFor()
      expect(await tab.getByRole('navigation', { name: 'Screens' }).getByText('Operators').count()).toBe(0)
    } finally {
      await own.close()
    }
  })
})
