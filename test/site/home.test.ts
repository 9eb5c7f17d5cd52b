import { describe, expect, test } from 'vitest'
import { useSite } from '../support/site-session.ts'

const site = useSite()

describe('the home page', () => {
  test('shows the site title with its tagline, the welcome text and the garden teaser', async () => {
    const { page, response, errors } = await site.open('/')
    expect(response?.status()).toBe(200)
    await expect(page.locator('h1').count()).resolves.toBe(1)
    const title = await page.locator('h1').innerText()
    expect(title).toContain('Roland')
    expect(title).toContain('Arkansas Community')
    const hero = await page.locator('main section').first().innerText()
    expect(hero).toMatch(/Welcome to Roland, where nature meets community/)
    expect(hero).toContain('Coming Soon - Growing Our Community Together!')
    expect(errors).toEqual([])
  })

  test('offers the two calls to action', async () => {
    const { page } = await site.open('/')
    await expect(page.getByRole('link', { name: 'Explore Local Businesses' }).getAttribute('href')).resolves.toBe(
      '/businesses',
    )
    await expect(page.getByRole('link', { name: 'Discover Attractions' }).getAttribute('href')).resolves.toBe(
      '/recreation',
    )
  })

  test('counts the headline figures from the data where it can', async () => {
    const { page } = await site.open('/')
    const figures = await page
      .locator('main dl > div')
      .evaluateAll((divs) =>
        divs.map((div) => `${div.querySelector('dd')?.textContent} ${div.querySelector('dt')?.textContent}`),
      )
    // Ten active fixture businesses, the six seeded attractions, and SPEC's fixed figures.
    expect(figures).toEqual(['10+ Local Businesses', '6 Attractions', '6 Faith Communities', '1 Community'])
  })

  test('features the featured businesses, by name', async () => {
    const { page } = await site.open('/')
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Featured Local Businesses' }) })
    await expect(section.locator('article h3').allInnerTexts()).resolves.toEqual([
      'Maumelle Smokehouse',
      'Roland Auto Repair',
      'Roland Coffee House',
      'Roland General Store',
    ])
    await expect(section.getByText('from the first cup of coffee to automotive services').count()).resolves.toBe(1)
  })

  test('leads to Pinnacle Mountain, five more attractions and all attractions', async () => {
    const { page } = await site.open('/')
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Recreation & Attractions' }) })
    const featured = section.locator('article').first()
    await expect(featured.innerText()).resolves.toMatch(/Pinnacle Mountain State Park[\s\S]*5 miles away/)
    await expect(featured.getByRole('link').getAttribute('href')).resolves.toBe('/recreation/pinnacle-mountain')
    await expect(
      section.locator('ul li a').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
    ).resolves.toEqual([
      '/attraction/lake-maumelle',
      '/attraction/arkansas-arboretum',
      '/attraction/ouachita-national-recreation-trail',
      '/attraction/two-rivers-park',
      '/attraction/chenal-country-club',
    ])
    await expect(section.getByRole('link', { name: 'Explore All Attractions' }).getAttribute('href')).resolves.toBe(
      '/recreation',
    )
  })

  test('shows the community services, the garden card and the next three events', async () => {
    const { page } = await site.open('/')
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Community Life' }) })
    await expect(
      section
        .locator('ul')
        .first()
        .locator('a')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
    ).resolves.toEqual(['/community/centers', '/community/emergency', '/community/faith', '/about/education'])
    await expect(
      section.getByRole('link', { name: /Roland Community Garden - Coming Soon!/ }).getAttribute('href'),
    ).resolves.toBe('/community/garden')
    const events = await section
      .locator('li')
      .filter({ hasText: / at \d+:\d\d [AP]M/ })
      .allInnerTexts()
    expect(events).toHaveLength(3)
    // The weekly supper of the fixture, once, at its next date; then the single events.
    expect(events[0]).toMatch(/Wednesday Supper[\s\S]* at 6:00 PM/)
    expect(events[1]).toContain('Dec 28 at 7:00 PM')
    expect(events[2]).toContain('Jan 15 at 6:00 PM')
    await expect(section.innerText()).resolves.not.toContain('Fall Roadside Cleanup')
    await expect(section.getByRole('link', { name: 'View All Events' }).getAttribute('href')).resolves.toBe('/events')
  })
})

describe('the footer', () => {
  // SPEC §9 shows © 2024; issue 39 makes the footer's year the year of the build.
  test("links SPEC's targets and shows the town, ZIP 72135 and © the build's year", async () => {
    const { page } = await site.open('/')
    const footer = page.locator('footer')
    const hrefs = await footer.locator('nav a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))
    expect(hrefs).toEqual([
      '/businesses/dining',
      '/businesses/shopping',
      '/businesses/services',
      '/recreation/sports',
      '/recreation/nature',
      '/recreation/premium',
      '/community/centers',
      '/community/emergency',
      '/community/faith',
      '/community/garden',
      '/about/education',
      '/about/history',
      '/contact',
    ])
    const text = await footer.innerText()
    expect(text).toContain('Roland, Arkansas 72135')
    expect(text).toContain(`© ${new Date().getFullYear()}`)
  })
})
