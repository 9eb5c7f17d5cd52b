import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Page } from 'playwright-core'
import type { EmbeddedStore } from '@roland/scripts/store/embedded'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startFixtureSite, type FixtureSite } from '../../scripts/test/crawl-fixture-server.ts'
import { closedPort } from '../../scripts/test/support/free-port.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { call, startBrowserConsole, waitFor, type BrowserConsole } from './support/console.ts'

// The freshness watch in the console (issue 28): an editor lands on Today, runs "Check listings"
// on "Needs attention", marks one listing verified and deactivates one whose website is dead; after
// the rebuild, the first page says "Listing checked …" and the second is gone from the site. The
// built app in a real Chromium, the real server and embedded Postgres, fixture websites on
// 127.0.0.1, and a real local site build.

let started: BrowserConsole | undefined
let outDir: string
let server: ConsoleServer
let page: Page
let healthySite: FixtureSite
let verified: { id: string; name: string; slug: string }
let dead: { id: string; name: string; slug: string }

beforeAll(async () => {
  healthySite = await startFixtureSite(undefined, {
    '/': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Open</h1>'),
  })
  started = await startBrowserConsole({
    name: 'attention',
    operator: { email: 'volunteer@example.org', role: 'editor' },
    open: '/',
    env: { ROLAND_ALLOW_PRIVATE_NETWORK: '1' },
    // Two listings with websites on 127.0.0.1: one healthy, one dead; the others have none, so the check is quick.
    prepare: async (server) => {
      const { json } = await call(server, '/api/businesses')
      const [first, second] = (json.businesses as Array<{ id: string; name: string; slug: string; is_active: boolean }>)
        .filter((b) => b.is_active)
        .slice(0, 2)
      verified = first!
      dead = second!
      const deadUrl = `http://127.0.0.1:${await closedPort()}/`
      await server.services.store.use(async (store) => {
        const db = (store as EmbeddedStore).db
        await db.query('update businesses set website = null')
        await db.query('update businesses set website = $2 where id = $1', [verified.id, healthySite.url('/')])
        await db.query('update businesses set website = $2 where id = $1', [dead.id, deadUrl])
      })
    },
  })
  ;({ server, page, outDir } = started)
})

afterAll(async () => {
  await started?.close()
  await healthySite?.close()
})

const slow = { timeout: 240_000 }

/** The section of Needs attention listing one kind of finding. */
const section = (kind: string) => page.locator(`section[data-kind="${kind}"]`)
/** One business's finding in a section. */
const finding = (kind: string, slug: string) => section(kind).locator(`li[data-business="${slug}"]`)

describe('Needs attention, in Chromium', () => {
  test('an operator who signs in lands on Today', slow, async () => {
    await page.getByRole('heading', { name: 'Today', level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/today')
    await page.getByRole('list', { name: 'Findings by kind' }).getByText('Nothing needs attention').waitFor()
  })

  test('"Check listings" runs with live progress and lists the findings by kind', slow, async () => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Needs attention' }).click()
    await page.getByRole('heading', { name: 'Needs attention', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Check listings' }).click()
    await page.locator('article[data-kind="check"][data-status="succeeded"]').waitFor()
    await finding('website-unreachable', dead.slug).getByText('refused the connection').waitFor()
    await finding('unverified', verified.slug).waitFor()
    // The healthy website earns no website finding.
    for (const kind of ['website-error', 'website-moved', 'website-parked', 'website-unreachable']) {
      expect(await finding(kind, verified.slug).count()).toBe(0)
    }
    const counts = await page.getByRole('navigation', { name: 'Findings by kind' }).textContent()
    expect(counts).toMatch(/Website unreachable\s*1/)
  })

  test('"Open editor" opens the business in its editor', slow, async () => {
    await finding('unverified', verified.slug)
      .getByRole('link', { name: `Open editor of ${verified.name}` })
      .click()
    await page.getByTestId('business-editor').waitFor()
    expect(await page.getByTestId('business-editor').getByLabel('Name', { exact: true }).inputValue()).toBe(
      verified.name,
    )
    await page.goBack()
    await page.getByRole('heading', { name: 'Needs attention', level: 1 }).waitFor()
  })

  test('marks one listing verified and deactivates the dead one, with an Undo', slow, async () => {
    await finding('unverified', verified.slug)
      .getByRole('button', { name: `Mark verified ${verified.name}` })
      .click()
    await page.getByText(`${verified.name} marked verified`).waitFor()
    await finding('unverified', verified.slug).waitFor({ state: 'detached' })
    const { json: after } = await call(server, `/api/businesses/${verified.id}`)
    expect(after.business.verified_at).toEqual(expect.any(String))

    const deadFinding = finding('website-unreachable', dead.slug)
    await deadFinding.getByRole('button', { name: `Deactivate ${dead.name}`, exact: true }).click()
    await page.getByText(`${dead.name} deactivated: it leaves the site at the next rebuild`).waitFor()
    await deadFinding.getByRole('button', { name: `Undo deactivate ${dead.name}` }).click()
    await deadFinding.getByRole('button', { name: `Deactivate ${dead.name}`, exact: true }).waitFor()
    expect((await call(server, `/api/businesses/${dead.id}`)).json.business.is_active).toBe(true)
    await deadFinding.getByRole('button', { name: `Deactivate ${dead.name}`, exact: true }).click()
    // The first deactivation's toast may still show (3 s), so wait for what only this click brings: its Undo.
    await deadFinding.getByRole('button', { name: `Undo deactivate ${dead.name}` }).waitFor()
    expect((await call(server, `/api/businesses/${dead.id}`)).json.business.is_active).toBe(false)
  })

  test('Today shows who made the changes, and each line leads to its screen', slow, async () => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Today' }).click()
    const changes = page.getByRole('list', { name: 'Recent changes' })
    await changes.getByText(`volunteer@example.org changed ${dead.name}`).first().waitFor()
    await page
      .getByRole('list', { name: 'The site' })
      .getByText(/edit\(s\) waiting for a rebuild/)
      .waitFor()
    await page
      .getByRole('list', { name: 'Findings by kind' })
      .getByRole('link', { name: /No photo/ })
      .click()
    await page.getByRole('heading', { name: 'Needs attention', level: 1 }).waitFor()
  })

  test(
    'after the rebuild, the verified listing says "Listing checked" and the deactivated one is gone',
    { timeout: 500_000 },
    async () => {
      const before = new Set((await server.services.jobs.list(50)).map((job) => job.id))
      await page.getByTestId('rebuild-panel').getByRole('button', { name: 'Rebuild site' }).click()
      // The history is read only while no rebuild is due or running: reading it opens the database,
      // which the build's own process needs.
      const rebuild = await waitFor(
        async () => {
          const { pending, running } = server.services.scheduler.state
          if (pending || running) return undefined
          return (await server.services.jobs.list(50)).find((job) => job.kind === 'rebuild' && !before.has(job.id))
        },
        'the rebuild',
        400_000,
      )
      expect({ status: rebuild.status, error: rebuild.error, log: rebuild.log.slice(-8) }).toMatchObject({
        status: 'succeeded',
      })
      const month = new Intl.DateTimeFormat('en-US', {
        month: 'long',
        year: 'numeric',
        timeZone: 'America/Chicago',
      }).format(new Date())
      const page1 = await readFile(path.join(outDir, 'business', verified.slug, 'index.html'), 'utf8')
      expect(page1).toContain(`Listing checked ${month}`)
      expect(page1).toMatch(/"dateModified":"\d{4}-\d{2}-\d{2}"/)
      await expect(stat(path.join(outDir, 'business', dead.slug, 'index.html'))).rejects.toThrow(/ENOENT/)
    },
  )
})
