import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, inject, test } from 'vitest'
import type { ConsoleServer } from '../../console/src/server/server.ts'
import { call, startTestConsole } from '../../console/test/support/console.ts'
import { axeViolations } from '../support/axe.ts'
import { launchBrowser } from '../support/browser.ts'
import { buildSite } from '../support/build-site.ts'
import { copyFixtureDataDir } from '../support/fixture-data-dir.ts'
import { gzipped } from '../support/page-weight.ts'
import { desktop } from '../support/site-session.ts'
import { serveStatic, type StaticServer } from '../support/static-server.ts'

// The visitors' suggestion forms (issue 27) on a site built with a submissions endpoint: the real
// console server, on a copy of the fixture catalog's embedded store, receiving what the forms send.
// The fixture site of the other tests has no endpoint: its pages keep the email links.

let root: string
let site: StaticServer
/** The site built with a Turnstile site key too: another origin the console takes suggestions from. */
let turnstileSite: StaticServer
let consoleServer: ConsoleServer
let browser: Browser
const endpointPath = '/api/public/submissions'

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'roland-submissions-'))
  const dataDir = path.join(root, 'data')
  const outDir = path.join(root, 'site')
  copyFixtureDataDir(dataDir)
  // The sites' addresses first: the console takes suggestions from them (CORS), the builds link to the console.
  site = await serveStatic(outDir)
  turnstileSite = await serveStatic(path.join(root, 'site-turnstile'))
  consoleServer = await startTestConsole({
    dataDir,
    env: { SUBMISSIONS_ALLOWED_ORIGINS: `${site.url},${turnstileSite.url}` },
  })
  const build = await buildSite({
    outDir,
    dataDir,
    siteUrl: site.url,
    env: { PUBLIC_SUBMISSIONS_URL: `${consoleServer.url}${endpointPath}` },
  })
  if (build.code !== 0) throw new Error(`The site with a submissions endpoint did not build:\n${build.output}`)
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await consoleServer?.close()
  await turnstileSite?.close()
  await site?.close()
  if (root) await rm(root, { recursive: true, force: true })
})

/** A visitor's page: the errors it reported and the requests it made to the endpoint. */
interface Visit {
  page: Page
  errors: string[]
  posts: string[]
}

const contexts: BrowserContext[] = []
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
})

/**
 * Opens a page of a site in a new browser context whose clock the test moves (the forms refuse to
 * send within seconds of opening), collecting its errors and its posts to the endpoint.
 */
async function visit(url: string, options: { javaScriptEnabled?: boolean } = {}): Promise<Visit> {
  // Without the service worker, so the routes below see every request (offline.test.ts tests it).
  const context = await browser.newContext({ viewport: desktop, serviceWorkers: 'block', ...options })
  contexts.push(context)
  const page = await context.newPage()
  page.setDefaultTimeout(30_000)
  await page.clock.install()
  const errors: string[] = []
  const posts: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  page.on('console', (message) => {
    if (message.type() === 'error' && !/ERR_UNSAFE_PORT|Failed to load resource/.test(message.text())) {
      errors.push(message.text())
    }
  })
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith(endpointPath)) posts.push(request.postData() ?? '')
  })
  await page.goto(url)
  return { page, errors, posts }
}

/** Opens a suggestion form on a page of the site with the endpoint and waits for it to hydrate. */
async function openForm(pathname: string, kind: string, label: string): Promise<Visit & { form: Locator }> {
  const visited = await visit(`${site.url}${pathname}`)
  const box = visited.page.locator(`[data-suggestion="${kind}"]`)
  await box.getByText(label, { exact: true }).click()
  const form = box.locator('form')
  await form.waitFor()
  return { ...visited, form }
}

/** Lets the time a person takes to fill a form pass. */
const takeYourTime = (page: Page) => page.clock.fastForward(5000)

/** The mistake a screen reader reads with a field: the message its aria-describedby names, when it is marked invalid. */
async function mistakeOf(form: Locator, label: string): Promise<string | null> {
  const field = form.getByLabel(label, { exact: true })
  if ((await field.getAttribute('aria-invalid')) !== 'true') return null
  // A field is described by its hint, if it has one, and its mistake.
  const ids = (await field.getAttribute('aria-describedby'))?.split(' ') ?? []
  const mistake = ids.find((id) => id.endsWith('-error'))
  return mistake ? form.page().locator(`#${mistake}`).textContent() : null
}

/** The submissions waiting in the console's Inbox, newest first. */
async function pending(): Promise<Array<{ id: string; kind: string; payload: Record<string, unknown> }>> {
  const answer = await call(consoleServer, '/api/submissions?status=pending')
  expect(answer.status).toBe(200)
  return answer.json.submissions
}

describe('without a submissions endpoint (the fixture site)', () => {
  const base = inject('siteUrl')

  test('every form is the email link it always was, and no page carries a form island', async () => {
    const { page, errors } = await visit(`${base}/business/roland-coffee-house`)
    await expect(page.getByRole('link', { name: 'Suggest an edit' }).getAttribute('href')).resolves.toBe(
      'mailto:events@roland-ar.example?subject=Update%20for%20Roland%20Coffee%20House',
    )
    expect(await page.locator('[data-suggestion]').count()).toBe(0)
    await page.goto(`${base}/businesses`)
    await expect(page.getByRole('link', { name: 'Add a business' }).getAttribute('href')).resolves.toBe(
      'mailto:events@roland-ar.example?subject=New%20business',
    )
    await page.goto(`${base}/events`)
    await expect(page.getByRole('link', { name: 'Submit an event' }).getAttribute('href')).resolves.toBe(
      'mailto:events@roland-ar.example?subject=Event%20submission',
    )
    await page.goto(`${base}/contact`)
    expect(await page.locator('[data-suggestion]').count()).toBe(0)
    expect(errors).toEqual([])
  })
})

describe('with a submissions endpoint, without JavaScript', () => {
  test('"Suggest an edit" opens on the email link to the coordinator', async () => {
    const { page } = await visit(`${site.url}/business/roland-coffee-house`, { javaScriptEnabled: false })
    const box = page.locator('[data-suggestion="business-update"]')
    await box.getByText('Suggest an edit', { exact: true }).click()
    const email = box.getByRole('link', { name: 'events@roland-ar.example' })
    await email.waitFor()
    expect(await email.getAttribute('href')).toBe(
      'mailto:events@roland-ar.example?subject=Update%20for%20Roland%20Coffee%20House',
    )
    expect(await box.locator('form').count()).toBe(0)
  })
})

describe('with a submissions endpoint', () => {
  test('a business page loads no React and keeps its HTML and CSS in the first round trip until the form opens', async () => {
    const { page } = await visit(`${site.url}/business/roland-coffee-house`)
    const scripts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url())
    })
    const html = await (await page.reload())!.text()
    await page.waitForLoadState('networkidle')
    expect(scripts).toEqual([])
    // As weight.test.ts counts it: the HTML without Astro's island loader, and the stylesheet.
    const loader = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)]
      .map(([, body]) => body!)
      .filter((body) => body.includes('astro-island') || /\(self\.Astro\|\|\(self\.Astro=\{\}\)\)/.test(body))
    const css = html.match(/href="(\/_astro\/[^"]+\.css)"/)![1]!
    const cssBytes = gzipped(Buffer.from(await (await fetch(`${site.url}${css}`)).arrayBuffer()))
    const htmlBytes = gzipped(loader.reduce((text, script) => text.replace(script, ''), html))
    expect(htmlBytes + cssBytes).toBeLessThanOrEqual(14_600)

    await page.getByText('Suggest an edit', { exact: true }).click()
    await page.locator('[data-suggestion="business-update"] form').waitFor()
    expect(scripts.length).toBeGreaterThan(0)
  })

  test('"Suggest an edit" shows the listing as published and sends only what changed', async () => {
    const { page, form, errors } = await openForm('/business/roland-coffee-house', 'business-update', 'Suggest an edit')
    const values = Object.fromEntries(
      await Promise.all(
        ['Name', 'Phone', 'Website', 'Address', 'Hours', 'Short description', 'Description', 'Services'].map(
          async (label) => [label, await form.getByLabel(label, { exact: true }).inputValue()] as const,
        ),
      ),
    )
    expect(values).toEqual({
      Name: 'Roland Coffee House',
      Phone: '(501) 555-0101',
      Website: 'https://coffee.example',
      Address: '18000 Highway 300, Roland, AR 72135',
      Hours: 'Mon-Sat 6am-2pm',
      'Short description': 'Fresh coffee, breakfast biscuits and pastries at the foot of Pinnacle Mountain.',
      Description: expect.stringMatching(/^Roland Coffee House roasts its beans/),
      Services: 'Free Wi-Fi\nDrive-thru\nCatering',
    })
    await form.getByLabel('Phone', { exact: true }).fill('(501) 555-0199')
    await form.getByLabel('What changed, and how do you know?').fill('The new number is on their door.')
    await form.getByLabel('Your name (optional)').fill('Pat Neighbour')
    await form.getByLabel('Your email (optional)').fill('pat@example.org')
    await takeYourTime(page)
    await form.getByRole('button', { name: 'Send suggestion' }).click()
    const sent = page.locator('[data-suggestion-sent]')
    await sent.waitFor()
    expect(await sent.textContent()).toContain('Once it is accepted, it appears on the site at its next update.')
    // Nothing the visitor said about themselves is shown back.
    expect(await page.locator('[data-suggestion="business-update"]').textContent()).not.toMatch(/Pat|pat@example/)
    await expect(page.evaluate(() => document.activeElement?.hasAttribute('data-suggestion-sent'))).resolves.toBe(true)

    const [latest] = await pending()
    expect(latest).toMatchObject({
      kind: 'business-update',
      payload: { business: 'roland-coffee-house', phone: '(501) 555-0199', note: 'The new number is on their door.' },
    })
    expect(Object.keys(latest!.payload).sort()).toEqual(['business', 'note', 'phone'])
    expect(errors).toEqual([])
  })

  test('shows each mistake beside its field, moves the focus to the first, and sends nothing', async () => {
    const { page, form, posts, errors } = await openForm('/businesses', 'new-business', 'Add a business')
    await form.getByLabel('Website').fill('javascript:alert(1)')
    await form.getByLabel('Phone').fill('12')
    await form.getByLabel('Your email (optional)').fill('not an address')
    await takeYourTime(page)
    await form.getByRole('button', { name: 'Send suggestion' }).click()
    await form.getByText('Name is required').waitFor()
    expect(await mistakeOf(form, 'Name')).toBe('Name is required')
    expect(await mistakeOf(form, 'Website')).toMatch(/^Website must be an http:\/\/ or https:\/\/ address/)
    expect(await mistakeOf(form, 'Phone')).toMatch(/^Phone must be a US phone number/)
    expect(await mistakeOf(form, 'Your email (optional)')).toMatch(/^Your email must be an address/)
    expect(await mistakeOf(form, 'Address')).toBeNull()
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('new-business-name')
    expect(await axeViolations(page)).toEqual([])
    expect(posts).toEqual([])

    // Corrected, it goes.
    await form.getByLabel('Name', { exact: true }).fill('Maumelle Bait & Tackle')
    await form.getByLabel('Category').selectOption('Shopping & Convenience')
    await form.getByLabel('Website').fill('https://bait.example')
    await form.getByLabel('Phone').fill('(501) 555-0123')
    await form.getByLabel('Your email (optional)').fill('')
    await form.getByLabel('Services').fill('Live bait\nBoat rental: by the hour')
    await form.getByRole('button', { name: 'Send suggestion' }).click()
    await page.locator('[data-suggestion-sent]').waitFor()
    const [latest] = await pending()
    expect(latest).toMatchObject({
      kind: 'new-business',
      payload: {
        name: 'Maumelle Bait & Tackle',
        category: 'Shopping & Convenience',
        website: 'https://bait.example',
        phone: '(501) 555-0123',
        services: [
          { service_name: 'Live bait', description: null },
          { service_name: 'Boat rental', description: 'by the hour' },
        ],
      },
    })
    expect(errors).toEqual([])
  })

  test('an event is submitted with the keyboard alone, its times read in Roland time', async () => {
    const { page, errors } = await visit(`${site.url}/events`)
    const summary = page.locator('[data-suggestion="event"] summary')
    // Tab until the summary has the focus, as a keyboard user does.
    for (let i = 0; i < 60 && !(await summary.evaluate((element) => element === document.activeElement)); i++) {
      await page.keyboard.press('Tab')
    }
    await page.keyboard.press('Enter')
    const form = page.locator('[data-suggestion="event"] form')
    await form.waitFor()
    const type = async (text: string) => page.keyboard.type(text)
    await page.keyboard.press('Tab')
    await type('Church Bake Sale')
    await page.keyboard.press('Tab')
    await page.keyboard.press('ArrowDown')
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('event-event_type')
    await form.getByLabel('Type').selectOption('Community')
    await form.getByLabel('Starts (Roland time)').fill('2027-07-04T09:00')
    await form.getByLabel('Ends (Roland time)').fill('2027-07-04T13:00')
    await form.getByLabel('Location').focus()
    await type('Roland Baptist Church hall')
    await page.keyboard.press('Tab')
    await type('Pies, cakes and bread; proceeds go to the food pantry.')
    await takeYourTime(page)
    await form.getByRole('button', { name: 'Send suggestion' }).focus()
    await page.keyboard.press('Enter')
    await page.locator('[data-suggestion-sent]').waitFor()
    const [latest] = await pending()
    expect(latest).toMatchObject({
      kind: 'event',
      payload: { title: 'Church Bake Sale', event_type: 'Community', location: 'Roland Baptist Church hall' },
    })
    expect(new Date(latest!.payload.starts_at as string).toISOString()).toBe('2027-07-04T14:00:00.000Z')
    expect(new Date(latest!.payload.ends_at as string).toISOString()).toBe('2027-07-04T18:00:00.000Z')
    expect(errors).toEqual([])
  })

  test('a form sent within seconds of opening, or with its hidden field filled, is thanked and not sent', async () => {
    const quick = await openForm('/contact', 'event', 'Submit an event')
    await quick.form.getByLabel('Title').fill('Free money')
    await quick.form.getByRole('button', { name: 'Send suggestion' }).click()
    await quick.page.locator('[data-suggestion-sent]').waitFor()

    const filled = await openForm('/contact', 'new-business', 'Add a business')
    await filled.form.getByLabel('Name', { exact: true }).fill('Cheap pills')
    await filled.form.locator('input[name="fax"]').fill('555')
    await takeYourTime(filled.page)
    await filled.form.getByRole('button', { name: 'Send suggestion' }).click()
    await filled.page.locator('[data-suggestion-sent]').waitFor()
    expect([...quick.posts, ...filled.posts]).toEqual([])
  })

  test('says clearly what the server refused, and keeps what the visitor wrote', async () => {
    // The business closed after the site was built: the server refuses suggestions for it.
    const { json } = await call(consoleServer, '/api/businesses')
    const business = json.businesses.find((b: { slug: string }) => b.slug === 'roland-auto-repair')
    expect(
      (await call(consoleServer, `/api/businesses/${business.id}`, { method: 'PATCH', body: { is_active: false } }))
        .status,
    ).toBe(200)
    const { page, form } = await openForm('/business/roland-auto-repair', 'business-update', 'Suggest an edit')
    await form.getByLabel('Hours', { exact: true }).fill('Mon-Fri 7am-6pm')
    await takeYourTime(page)
    await form.getByRole('button', { name: 'Send suggestion' }).click()
    const alert = form.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/^Your suggestion was not sent: .*roland-auto-repair/)
    expect(await form.getByLabel('Hours', { exact: true }).inputValue()).toBe('Mon-Fri 7am-6pm')
  })

  test('says a suggestion the network lost was not sent, and offers to email it', async () => {
    const { page, form } = await openForm('/events', 'event', 'Submit an event')
    await page.route(`**${endpointPath}`, (route) => route.abort('internetdisconnected'))
    await form.getByLabel('Title').fill('Lake cleanup')
    await form.getByLabel('Type').selectOption('Community')
    await form.getByLabel('Starts (Roland time)').fill('2027-04-10T08:00')
    await form.getByLabel('Location').fill('Vista Point')
    await takeYourTime(page)
    await form.getByRole('button', { name: 'Send suggestion' }).click()
    const alert = form.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toContain('Your suggestion was not sent: the site could not reach its server.')
    const email = new URL((await alert.getByRole('link', { name: 'send it by email' }).getAttribute('href'))!)
    expect(email.pathname).toBe('events@roland-ar.example')
    expect(email.searchParams.get('subject')).toBe('Event submission')
    expect(email.searchParams.get('body')).toBe(
      'Title: Lake cleanup\nType: Community\nStarts (Roland time): 2027-04-10T08:00\nLocation: Vista Point',
    )
  })

  test('the opened forms pass an axe audit', async () => {
    const found: string[] = []
    for (const [pathname, kind, label] of [
      ['/business/roland-coffee-house', 'business-update', 'Suggest an edit'],
      ['/contact', 'event', 'Submit an event'],
    ] as const) {
      const { page } = await openForm(pathname, kind, label)
      found.push(...(await axeViolations(page)).map((violation) => `${pathname}: ${violation}`))
    }
    expect(found).toEqual([])
  })
})

describe('with Cloudflare Turnstile', () => {
  beforeAll(async () => {
    const build = await buildSite({
      outDir: path.join(root, 'site-turnstile'),
      dataDir: path.join(root, 'data'),
      siteUrl: turnstileSite.url,
      env: {
        PUBLIC_SUBMISSIONS_URL: `${consoleServer.url}${endpointPath}`,
        PUBLIC_TURNSTILE_SITE_KEY: '1x00000000000000000000AA',
      },
    })
    if (build.code !== 0) throw new Error(`The site with Turnstile did not build:\n${build.output}`)
  })

  // A stand-in for Cloudflare's widget script (unreachable from here), speaking its API: explicit
  // rendering, the onload callback named in its URL, and a token handed to the widget's callback.
  const widgetStandIn = `(() => {
    const onload = new URL(document.currentScript.src).searchParams.get('onload')
    window.turnstile = {
      ready: (callback) => callback(),
      render(container, options) {
        const element = typeof container === 'string' ? document.querySelector(container) : container
        element.textContent = 'Verified by the Turnstile stand-in'
        setTimeout(() => options.callback && options.callback('stand-in-token'), 0)
        return 'widget-1'
      },
      execute() {},
      reset() {},
      remove() {},
      getResponse: () => 'stand-in-token',
      isExpired: () => false,
    }
    if (onload && window[onload]) window[onload]()
  })()`

  test('loads the widget only when a form opens, and sends its token with the suggestion', async () => {
    const context = await browser.newContext({ viewport: desktop, serviceWorkers: 'block' })
    contexts.push(context)
    const page = await context.newPage()
    page.setDefaultTimeout(30_000)
    await page.clock.install()
    const widgetLoads: string[] = []
    await page.route('https://challenges.cloudflare.com/**', async (route) => {
      widgetLoads.push(route.request().url())
      await route.fulfill({ contentType: 'text/javascript', body: widgetStandIn })
    })
    const tokens: Array<string | undefined> = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(endpointPath)) {
        tokens.push(request.headers()['x-turnstile-token'])
      }
    })
    await page.goto(`${turnstileSite.url}/business/roland-coffee-house`)
    await page.waitForLoadState('networkidle')
    expect(widgetLoads).toEqual([])

    const box = page.locator('[data-suggestion="business-update"]')
    await box.getByText('Suggest an edit', { exact: true }).click()
    const form = box.locator('form')
    await form.getByText('Verified by the Turnstile stand-in').waitFor()
    expect(widgetLoads).toHaveLength(1)
    await form.getByLabel('Hours', { exact: true }).fill('Mon-Sat 6am-3pm')
    await page.clock.fastForward(5000)
    await form.getByRole('button', { name: 'Send suggestion' }).click()
    await page.locator('[data-suggestion-sent]').waitFor()
    expect(tokens).toEqual(['stand-in-token'])
    const [latest] = await pending()
    expect(latest).toMatchObject({ kind: 'business-update', payload: { hours: 'Mon-Sat 6am-3pm' } })
  })
})
