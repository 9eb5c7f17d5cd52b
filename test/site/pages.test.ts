import { readFile } from 'node:fs/promises'
import { describe, expect, inject, test } from 'vitest'
import { builtPages } from '../support/build-site.ts'
import { useSite } from '../support/site-session.ts'

const site = useSite()

/** The seeded location categories, with what their page's back button says. */
const categories = [
  { slug: 'dining-refreshments', name: 'Dining & Refreshments', back: ['All Businesses', '/businesses'] },
  { slug: 'shopping-convenience', name: 'Shopping & Convenience', back: ['All Businesses', '/businesses'] },
  { slug: 'professional-services', name: 'Professional Services', back: ['All Businesses', '/businesses'] },
  { slug: 'pet-services', name: 'Pet Services', back: ['All Businesses', '/businesses'] },
  { slug: 'sports', name: 'Sports & Recreation', back: ['Recreation', '/recreation'] },
  { slug: 'nature', name: 'Natural Attractions', back: ['Recreation', '/recreation'] },
  { slug: 'premium', name: 'Premium Destinations', back: ['Recreation', '/recreation'] },
  { slug: 'centers', name: 'Community Centers', back: ['Community', '/community'] },
  { slug: 'emergency', name: 'Emergency Services', back: ['Community', '/community'] },
  { slug: 'faith', name: 'Faith Communities', back: ['Community', '/community'] },
  { slug: 'education', name: 'Education', back: ['About Roland', '/about'] },
  { slug: 'history', name: 'History', back: ['About Roland', '/about'] },
] as const

const mainText = async (path: string) => {
  const { page, response } = await site.open(path)
  expect(response?.status(), path).toBe(200)
  await expect(page.locator('h1').count(), `one h1 on ${path}`).resolves.toBe(1)
  return { page, text: await page.locator('main').innerText() }
}

describe('a category page', () => {
  test.each(categories)(
    '/$slug shows its icon, name, description, count and the back button of its type',
    async ({ slug, name, back }) => {
      const { page, text } = await mainText(`/${slug}`)
      await expect(page.locator('h1').innerText()).resolves.toBe(name)
      await expect(page.locator('[data-page-icon] svg').isVisible()).resolves.toBe(true)
      expect(text).toMatch(/\d+ Locations? Found/)
      await expect(page.getByRole('link', { name: back[0], exact: true }).first().getAttribute('href')).resolves.toBe(
        back[1],
      )
    },
  )

  test("sets the first featured business apart as the 'Featured Location' and lists the others", async () => {
    const { page, text } = await mainText('/dining-refreshments')
    expect(text).toContain('Coffee, home cooking, barbecue and sweets')
    expect(text).toContain('3 Locations Found')
    const featured = page.locator('article', { hasText: 'Featured Location' })
    const featuredText = await featured.innerText()
    for (const expected of [
      'Maumelle Smokehouse',
      '4.6',
      'Barbecue plates',
      '22000 Highway 10',
      '(501) 555-0102',
      'Thu-Sun 11am-8pm',
    ]) {
      expect(featuredText).toContain(expected)
    }
    await expect(
      featured.getByRole('link', { name: 'Learn More about Maumelle Smokehouse', exact: true }).getAttribute('href'),
    ).resolves.toBe('/business/maumelle-smokehouse')
    await expect(page.locator('main ul article h2').allInnerTexts()).resolves.toEqual([
      'Lakeside Sweets',
      'Roland Coffee House',
    ])
    const coffee = page.locator('main ul article', { hasText: 'Roland Coffee House' })
    const coffeeText = await coffee.innerText()
    expect(coffeeText).toContain('$$')
    expect(coffeeText).toContain('4.8')
    await expect(coffee.getByRole('link', { name: /Visit Website/ }).getAttribute('href')).resolves.toBe(
      'https://coffee.example',
    )
    await expect(
      coffee.getByRole('link', { name: 'View Details of Roland Coffee House', exact: true }).getAttribute('href'),
    ).resolves.toBe('/business/roland-coffee-house')
    await expect(page.getByRole('link', { name: 'View All Business Categories' }).getAttribute('href')).resolves.toBe(
      '/businesses',
    )
  })

  test('hides a photo that fails to load, showing the placeholder icon', async () => {
    const { page } = await site.open('/shopping-convenience')
    const bait = page.locator('main ul article', { hasText: 'Pinnacle Bait & Tackle' })
    await bait.locator('img[hidden]').waitFor({ state: 'attached' })
    await expect(bait.locator('svg').first().isVisible()).resolves.toBe(true)
  })

  test("says 'No Businesses Yet' for an empty business category, with the building icon for an unknown icon name", async () => {
    const { page, text } = await mainText('/pet-services')
    expect(text).toContain('0 Locations Found')
    expect(text).toContain('No Businesses Yet')
    expect(text).not.toContain('View All Business Categories')
    const icon = await page.locator('[data-page-icon] svg use').getAttribute('href')
    expect(icon).toMatch(/^\/icons\.svg\?v=\w+#building$/)
  })

  test("says 'Coming Soon' for other types, pointing to the page that has their content", async () => {
    const { page, text } = await mainText('/nature')
    expect(text).toContain('0 Locations Found')
    expect(text).toContain('Coming Soon')
    await expect(page.getByRole('link', { name: /guide/ }).getAttribute('href')).resolves.toBe('/recreation/nature')
  })
})

describe('a business page', () => {
  test('shows logo, category badge, name, featured image, about text, services and photos', async () => {
    const { page, text } = await mainText('/business/roland-coffee-house')
    await expect(page.locator('h1').innerText()).resolves.toBe('Roland Coffee House')
    await expect(page.getByAltText('Roland Coffee House logo').getAttribute('src')).resolves.toBe(
      '/files/business-images/roland-coffee-house-logo.png',
    )
    expect(text).toContain('Local Favorite')
    await expect(page.locator('[data-featured-image]').getAttribute('src')).resolves.toBe(
      '/files/business-images/roland-coffee-house-hero.png',
    )
    expect(text).toContain('About Roland Coffee House')
    expect(text).toContain('roasts its beans in small batches')
    const services = page.locator('section', { has: page.getByRole('heading', { name: 'Services & Features' }) })
    await expect(services.locator('li').allInnerTexts()).resolves.toEqual(['Free Wi-Fi', 'Drive-thru', 'Catering'])
    const photos = page.locator('section', { has: page.getByRole('heading', { name: 'Photos' }) }).locator('img')
    await expect(photos.evaluateAll((images) => images.map((img) => img.getAttribute('alt')))).resolves.toEqual([
      'The coffee house porch',
      'A latte on the counter',
      'Roland Coffee House photo 3',
      'Biscuits fresh from the oven',
    ])
    await expect(
      photos.evaluateAll((images) =>
        images.every((img) => (img as HTMLImageElement).naturalWidth > 0 || img.getAttribute('loading') === 'lazy'),
      ),
    ).resolves.toBe(true)
  })

  test('gives contact information: directions, a tel link, the website and hours', async () => {
    const { page } = await site.open('/business/roland-coffee-house')
    const contact = page.locator('aside')
    await expect(contact.getByRole('heading', { name: 'Contact Information' }).isVisible()).resolves.toBe(true)
    const directions = new URL((await contact.getByRole('link', { name: /Get Directions/ }).getAttribute('href'))!)
    expect(directions.hostname).toBe('www.google.com')
    expect(directions.searchParams.get('query')).toBe('18000 Highway 300, Roland, AR 72135')
    await expect(contact.getByRole('link', { name: '(501) 555-0101' }).getAttribute('href')).resolves.toBe(
      'tel:+15015550101',
    )
    await expect(contact.getByRole('link', { name: /Visit Website/ }).getAttribute('href')).resolves.toBe(
      'https://coffee.example',
    )
    const hours = await contact.innerText()
    expect(hours).toContain('Mon-Sat 6am-2pm')
    expect(hours).toMatch(/Monday\s+7:00 AM – 5:00 PM/)
    const data = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!)
    expect(data).toMatchObject({
      '@type': 'CafeOrCoffeeShop',
      name: 'Roland Coffee House',
      telephone: '(501) 555-0101',
    })
    await expect(page.locator('[data-generated-note]').count()).resolves.toBe(0)
  })

  test('says when an operator last checked the listing, and carries it as dateModified', async () => {
    const { page } = await site.open('/business/roland-coffee-house')
    await expect(page.locator('aside').getByText('Listing checked October 2026').count()).resolves.toBe(1)
    const data = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!)
    expect(data.dateModified).toBe('2026-10-14')
    // Never verified: nothing said.
    const other = await site.open('/business/roland-general-store')
    await expect(other.page.getByText(/Listing checked/).count()).resolves.toBe(0)
  })

  test('drops the link to a website unreachable at 3 checks in a row, and keeps the listing', async () => {
    const { page, response } = await site.open('/business/roland-general-store')
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('link', { name: /Visit Website/ }).count()).resolves.toBe(0)
    await expect(page.locator('body').innerHTML()).resolves.not.toContain('store.example')
  })

  test('chooses a generated image before the primary one, and says it is an illustration', async () => {
    const { page } = await site.open('/business/maumelle-smokehouse')
    await expect(page.locator('[data-featured-image]').getAttribute('src')).resolves.toBe(
      '/files/business-images/maumelle-smokehouse-generated.png',
    )
    await expect(page.locator('[data-generated-note]').innerText()).resolves.toBe(
      'An illustration drawn for this listing, not a photo of Maumelle Smokehouse.',
    )
  })

  test('falls back to a stock line and a building icon for a business with nothing but a name', async () => {
    const { page, text } = await mainText('/business/lakeside-sweets')
    expect(text).toContain('About Lakeside Sweets')
    expect(text).toContain('Lakeside Sweets is a local business in Roland, Arkansas.')
    expect(text).not.toContain('Photos')
    expect(text).not.toContain('Services & Features')
    await expect(page.locator('main img').count()).resolves.toBe(0)
  })

  test('leaves out an image whose file is missing from storage', async () => {
    const { page } = await mainText('/business/valley-hardware')
    await expect(page.locator('main img').count()).resolves.toBe(0)
  })

  test('has no operator buttons: generating and loading images happen in the console', async () => {
    const { text } = await mainText('/business/lakeside-sweets')
    expect(text).not.toContain('Generate Store Image')
    expect(text).not.toContain('Load Business Photos')
  })

  test('does not exist for an inactive business', async () => {
    const { response, page } = await site.open('/business/closed-diner')
    expect(response?.status()).toBe(404)
    await expect(page.locator('h1').innerText()).resolves.toBe('Oops! Page not found')
  })
})

describe('the recreation pages', () => {
  test("/recreation shows the three category cards and the 'Detailed Recreation Guide Coming Soon' placeholder", async () => {
    const { page, text } = await mainText('/recreation')
    for (const [name, href] of [
      ['Sports & Recreation', '/recreation/sports'],
      ['Natural Attractions', '/recreation/nature'],
      ['Premium Destinations', '/recreation/premium'],
    ]) {
      await expect(
        page
          .locator('main ul')
          .first()
          .getByRole('link', { name: new RegExp(`^${name}`) })
          .getAttribute('href'),
      ).resolves.toBe(href)
    }
    expect(text).toContain('Detailed Recreation Guide Coming Soon')
    await expect(page.getByRole('link', { name: 'Get Updates on Progress' }).getAttribute('href')).resolves.toBe(
      '/contact',
    )
  })

  test('/recreation/pinnacle-mountain shows the featured attraction', async () => {
    const { page, text } = await mainText('/recreation/pinnacle-mountain')
    await expect(page.locator('h1').innerText()).resolves.toBe('Pinnacle Mountain State Park')
    expect(text).toContain('5 miles from Roland')
    expect(text).toContain('Most Popular')
  })

  test.each([
    ['pinnacle-mountain-state-park', 'Pinnacle Mountain State Park'],
    ['lake-maumelle', 'Lake Maumelle'],
    ['arkansas-arboretum', 'Arkansas Arboretum'],
    ['ouachita-national-recreation-trail', 'Ouachita National Recreation Trail'],
    ['two-rivers-park', 'Two Rivers Park'],
    ['chenal-country-club', 'Chenal Country Club'],
  ])('/attraction/%s shows %s', async (id, name) => {
    const { page } = await mainText(`/attraction/${id}`)
    await expect(page.locator('h1').innerText()).resolves.toBe(name)
    await expect(page.getByRole('link', { name: 'Back to Recreation' }).getAttribute('href')).resolves.toBe(
      '/recreation',
    )
  })

  test('the featured attraction has one canonical address', async () => {
    const { page } = await site.open('/attraction/pinnacle-mountain-state-park')
    await expect(page.locator('link[rel="canonical"]').getAttribute('href')).resolves.toBe(
      site.url('/recreation/pinnacle-mountain'),
    )
  })

  test('/recreation/nature, /premium and /sports list their attractions and recreation businesses', async () => {
    const nature = await mainText('/recreation/nature')
    await expect(nature.page.locator('main article h3').allInnerTexts()).resolves.toEqual([
      'Pinnacle Mountain State Park',
      'Lake Maumelle',
      'Arkansas Arboretum',
      'Ouachita National Recreation Trail',
      'Two Rivers Park',
    ])
    const premium = await mainText('/recreation/premium')
    await expect(premium.page.locator('main article h3').allInnerTexts()).resolves.toEqual(['Chenal Country Club'])
    const sports = await mainText('/recreation/sports')
    await expect(sports.page.locator('main article h3').allInnerTexts()).resolves.toEqual(['Pinnacle Fitness'])
  })
})

describe('the linked pages SPEC does not describe', () => {
  test('/community leads to the community services, the garden and the events', async () => {
    const { page, text } = await mainText('/community')
    for (const href of [
      '/community/centers',
      '/community/emergency',
      '/community/faith',
      '/community/garden',
      '/events',
      '/contact',
    ]) {
      await expect(page.locator(`main a[href="${href}"]`).count(), href).resolves.toBeGreaterThan(0)
    }
    expect(text).toContain('Dana Whitfield')
  })

  test('/community/centers lists where the calendar meets', async () => {
    const { text } = await mainText('/community/centers')
    expect(text).toContain('Roland Community Center')
    expect(text).toContain('Community Garden Planning Meeting')
  })

  test('/community/emergency gives 911 and the non-emergency numbers as tel links', async () => {
    const { page } = await mainText('/community/emergency')
    await expect(page.locator('main a[href="tel:911"]').count()).resolves.toBeGreaterThan(0)
    await expect(page.locator('main a[href^="tel:"]').count()).resolves.toBeGreaterThanOrEqual(4)
  })

  test('/community/faith says how to list a congregation', async () => {
    const { text } = await mainText('/community/faith')
    expect(text).toContain('6 congregations')
    expect(text).toContain('Contact page')
  })

  test("/community/garden shows 'Roland Community Garden - Coming Soon!' and its planning meeting", async () => {
    const { page, text } = await mainText('/community/garden')
    await expect(page.locator('h1').innerText()).resolves.toBe('Roland Community Garden - Coming Soon!')
    expect(text).toContain('Community Garden Planning Meeting')
    expect(text).toContain('Dec 28 at 7:00 PM')
  })

  test('/about, /about/education and /about/history tell about Roland', async () => {
    expect((await mainText('/about')).text).toContain('unincorporated community in Pulaski County')
    expect((await mainText('/about/education')).text).toContain('Pulaski County Special School District')
    expect((await mainText('/about/history')).text).toContain('Lake Maumelle')
  })

  test('/events lists every community event and who manages them', async () => {
    const { page, text } = await mainText('/events')
    expect(text).toContain('Events are managed by our community coordinator, Dana Whitfield.')
    expect(text).toContain('Business updates and event submissions are welcome via the Contact page.')
    await expect(
      page
        .locator('section', { has: page.getByRole('heading', { name: 'Upcoming' }) })
        .locator('h3')
        .allInnerTexts()
        // The weekly supper of the fixture (recurring-events.test.ts) comes first, a date a week.
        .then((titles) => titles.filter((title) => !title.startsWith('Wednesday Supper'))),
    ).resolves.toEqual([
      'Community Garden Planning Meeting',
      'New Year Neighbors Potluck',
      'Roland Small Business Meetup',
    ])
    expect(text).toContain('Monday, December 28, 2099 · 7:00 PM – 8:30 PM')
    await expect(
      page.locator('section', { has: page.getByRole('heading', { name: 'Past events' }) }).innerText(),
    ).resolves.toContain('Fall Roadside Cleanup')
  })

  test('/contact says how to send business updates and events, and who the coordinator is', async () => {
    const { page, text } = await mainText('/contact')
    for (const expected of ['Dana Whitfield', 'Community Coordinator', 'Business updates', 'Event submissions'])
      expect(text).toContain(expected)
    await expect(page.getByRole('link', { name: 'Send a business update' }).getAttribute('href')).resolves.toBe(
      'mailto:events@roland-ar.example?subject=Business%20update',
    )
    await expect(page.getByRole('link', { name: 'Submit an event' }).getAttribute('href')).resolves.toBe(
      'mailto:events@roland-ar.example?subject=Event%20submission',
    )
  })

  test('/nearby lists the attractions nearest first', async () => {
    const { page } = await mainText('/nearby')
    const names = await page.locator('main article h3').allInnerTexts()
    expect(names.slice(0, 3)).toEqual([
      'Lake Maumelle',
      'Ouachita National Recreation Trail',
      'Pinnacle Mountain State Park',
    ])
  })

  test.each([
    ['/businesses/dining', '/dining-refreshments', 'Dining & Refreshments'],
    ['/businesses/shopping', '/shopping-convenience', 'Shopping & Convenience'],
    ['/businesses/services', '/professional-services', 'Professional Services'],
  ])('%s redirects to %s', async (from, to, name) => {
    const { page } = await site.open(from)
    await page.waitForURL(site.url(to))
    await expect(page.locator('h1').innerText()).resolves.toBe(name)
  })
})

describe('the 404 page', () => {
  test.each(['/no-such-page', '/business/no-such-business', '/attraction/nowhere/deeper'])(
    "answers %s with 'Oops! Page not found' and 'Return to Home'",
    async (path) => {
      const { page, response } = await site.open(path)
      expect(response?.status()).toBe(404)
      await expect(page.locator('h1').innerText()).resolves.toBe('Oops! Page not found')
      await expect(page.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).resolves.toBe('/')
    },
  )
})

describe('the icons', () => {
  test('each icon of every page is a symbol of the sprite the site serves, drawn in Chromium', async () => {
    const sprite = await (await fetch(site.url('/icons.svg'))).text()
    const symbols = new Set([...sprite.matchAll(/<symbol id="([^"]+)"/g)].map(([, id]) => id))
    const hrefs = new Set<string>()
    for (const file of await builtPages(inject('siteDir'))) {
      for (const [, href] of (await readFile(file, 'utf8')).matchAll(/<use href="([^"]+)"/g)) hrefs.add(href!)
    }
    expect(hrefs.size).toBeGreaterThan(10)
    const missing = [...hrefs].filter((href) => !href.startsWith('/icons.svg?v=') || !symbols.has(href.split('#')[1]))
    expect(missing).toEqual([])
    // An icon is drawn from the sprite: once it has come, the icon's shape has a size.
    const { page } = await site.open('/business/roland-coffee-house')
    await page.waitForFunction(() => document.querySelector<SVGUseElement>('main svg.icon use')!.getBBox().width > 0)
  })
})
