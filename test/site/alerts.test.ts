import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, inject, test } from 'vitest'
import { builtPages, sitePathOf } from '../support/build-site.ts'
import { validateAgainstSchema, wellFormedProblems } from '../support/cap-validator.ts'
import { fixtureAlerts } from '../support/fixture-catalog.ts'
import { useSite } from '../support/site-session.ts'

// Town alerts on the built fixture site (issue 48): one emergency showing, one notice updated and
// then ended. The banner on every page, /alerts, each alert's page, the Atom feed and the CAP
// messages (checked against OASIS's CAP 1.2 schema with xmllint).

const site = useSite()
const siteDir = inject('siteDir')
const { showing, ended } = fixtureAlerts

async function text(pathname: string): Promise<string> {
  const response = await fetch(site.url(pathname))
  expect(response.status, pathname).toBe(200)
  return response.text()
}

describe('the alerts banner', () => {
  test('is in the HTML of every built page, first, with the level in words, linking to the alert', async () => {
    const pages = await builtPages(siteDir)
    expect(pages.length).toBeGreaterThan(20)
    for (const file of pages) {
      const html = await readFile(file, 'utf8')
      const where = sitePathOf(siteDir, file)
      // A redirect (an old address) is no page of its own: it sends the browser on at once.
      if (/<meta http-equiv="refresh"/.test(html)) continue
      const banner = /<section aria-label="Alerts"[^>]*>([\s\S]*?)<\/section>/.exec(html)
      expect(banner, where).not.toBeNull()
      const link = new RegExp(
        `^<a href="/alerts/${showing.id}" data-alert="${showing.id}" data-level="emergency"[^>]*>Emergency: ${showing.title}</a>$`,
      )
      expect(banner![1], where).toMatch(link)
      // The ended notice never shows; the banner comes before the header.
      expect(banner![1], where).not.toContain(ended.id)
      expect(html.indexOf('aria-label="Alerts"'), where).toBeLessThan(html.indexOf('<header'))
    }
  })

  test('shows without JavaScript, and its link opens the alert’s page', async () => {
    const { page } = await site.open('/businesses', { javaScriptEnabled: false })
    const link = page.locator(`[data-alert="${showing.id}"]`).first()
    await expect(link.innerText()).resolves.toBe(`Emergency: ${showing.title}`)
    await link.click()
    await page.waitForURL(`**/alerts/${showing.id}`)
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(showing.title)
  })
})

describe('/alerts', () => {
  test('lists the showing alert under Now and the ended one under the last 90 days', async () => {
    const { page } = await site.open('/alerts')
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Alerts')
    const now = page.locator('main h2:has-text("Now") + ul [data-alert]')
    await expect(now.evaluateAll((items) => items.map((item) => item.getAttribute('data-alert')))).resolves.toEqual([
      showing.id,
    ])
    const recent = page.locator('main h2:has-text("The last 90 days") + ul [data-alert]')
    await expect(recent.evaluateAll((items) => items.map((item) => item.getAttribute('data-alert')))).resolves.toEqual([
      ended.id,
    ])
    await expect(recent.innerText()).resolves.toMatch(/All clear/)
  })

  test('an ended alert’s page says All clear with its message, and its update, in the town’s time', async () => {
    const { page } = await site.open(`/alerts/${ended.id}`)
    const main = await page.locator('main').innerText()
    expect(main).toContain(ended.allClear)
    expect(main).toMatch(/Updated \w{3}, \w{3} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M/)
    expect(main).toMatch(/All clear \w{3}, \w{3} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M: The road is open again\./)
  })

  test('each alert’s page has SpecialAnnouncement JSON-LD', async () => {
    const html = await text(`/alerts/${showing.id}`)
    const data = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!) as Record<string, unknown>,
    )
    expect(data).toContainEqual(
      expect.objectContaining({
        '@type': 'SpecialAnnouncement',
        name: showing.title,
        url: site.url(`/alerts/${showing.id}`),
      }),
    )
  })

  test('the emergency page lists the showing alert above its numbers', async () => {
    const { page } = await site.open('/community/emergency')
    // The alert (in main, not the banner) comes before the first phone number.
    const alertFirst = await page.locator('main').evaluate((main, id) => {
      const alert = main.querySelector(`[data-alert="${id}"]`)
      const number = main.querySelector('a[href^="tel:"]')
      return Boolean(alert && number && alert.compareDocumentPosition(number) & 4)
    }, showing.id)
    expect(alertFirst).toBe(true)
  })
})

describe('the feeds', () => {
  test('/alerts.xml is well-formed Atom with both alerts, linking their pages and CAP messages', async () => {
    const xml = await text('/alerts.xml')
    const file = path.join(siteDir, 'alerts.xml')
    expect(await readFile(file, 'utf8')).toBe(xml)
    expect(await wellFormedProblems([file])).toBe('')
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">')
    for (const alert of [showing, ended]) {
      expect(xml).toContain(`<id>${site.url(`/alerts/${alert.id}`)}</id>`)
      expect(xml).toContain(`href="${site.url(`/alerts/${alert.id}.cap.xml`)}"`)
    }
  })

  test('each alert’s CAP message is valid against the OASIS CAP 1.2 schema', async () => {
    const files = [showing.id, ended.id].map((id) => path.join(siteDir, 'alerts', `${id}.cap.xml`))
    expect(await validateAgainstSchema(files)).toBe('')
    const first = await text(`/alerts/${showing.id}.cap.xml`)
    expect(first).toContain('<msgType>Alert</msgType>')
    expect(first).toContain('<severity>Severe</severity>')
    expect(first).toContain('<urgency>Immediate</urgency>')
    expect(first).toContain('<category>Infra</category>')
    expect(first).toContain(`<areaDesc>${showing.area}, Roland, AR 72135</areaDesc>`)
    const last = await text(`/alerts/${ended.id}.cap.xml`)
    expect(last).toContain('<msgType>Update</msgType>')
    expect(last).toContain('<responseType>AllClear</responseType>')
    // The first publication and the update before the all clear.
    expect(last).toMatch(/<references>\S+,\S+,\S+ \S+,\S+,\S+<\/references>/)
  })
})
