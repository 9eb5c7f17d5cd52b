import { describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { activeFixtureBusinesses } from '../support/fixture-catalog.ts'
import { phone, useSite } from '../support/site-session.ts'

const site = useSite()
const allNames = activeFixtureBusinesses.map((b) => b.name).sort((a, b) => a.localeCompare(b))

const cardNames = (page: Page) => page.locator('main article h2').allInnerTexts()
const searchBox = (page: Page) => page.getByPlaceholder('Search businesses...')
const categorySelect = (page: Page) => page.getByLabel('Category')
const query = (page: Page) => new URL(page.url()).search
/**
 * The address follows the filters once typing pauses (the island waits 300 ms): waits for it to say
 * this, as long as the other waits on the page (Vitest's default second leaves a busy machine 0.7 s).
 */
const addressSays = (page: Page, search: string) => expect.poll(() => query(page), { timeout: 15_000 }).toBe(search)

/** Opens /businesses, starts a search (the island waits for one) and waits for the search index. */
async function openDirectory(path = '/businesses') {
  const opened = await site.open(path)
  await searchBox(opened.page).focus()
  await opened.page.locator('[data-directory="ready"]').waitFor()
  return opened
}

describe('the businesses page, as HTML', () => {
  test('lists every active business without JavaScript, and never an inactive one', async () => {
    const { page, response } = await site.open('/businesses', { javaScriptEnabled: false })
    expect(response?.status()).toBe(200)
    await expect(page.locator('h1').innerText()).resolves.toBe('Local Businesses')
    await expect(cardNames(page)).resolves.toEqual(allNames)
    await expect(page.locator('main').innerText()).resolves.not.toContain('Closed Diner')
  })

  test("offers the search box and the category select: 'All', then the distinct categories", async () => {
    const { page } = await site.open('/businesses', { javaScriptEnabled: false })
    await expect(searchBox(page).count()).resolves.toBe(1)
    await expect(categorySelect(page).locator('option').allInnerTexts()).resolves.toEqual([
      'All',
      'Professional Services',
      'Dining & Refreshments',
      'Shopping & Convenience',
      'Recreation',
      'Business',
    ])
  })

  test('shows each card as SPEC §2 says', async () => {
    const { page } = await site.open('/businesses', { javaScriptEnabled: false })
    const coffee = page.locator('article[data-business="roland-coffee-house"]')
    const text = await coffee.innerText()
    for (const expected of [
      'Local Favorite',
      'Featured',
      'Roland Coffee House',
      'Fresh coffee, breakfast biscuits',
      '18000 Highway 300, Roland, AR 72135',
      '(501) 555-0101',
      'Mon-Sat 6am-2pm',
    ]) {
      expect(text).toContain(expected)
    }
    await expect(coffee.locator('img').getAttribute('src')).resolves.toBe(
      '/files/business-images/roland-coffee-house-hero.png',
    )
    await expect(coffee.getByRole('link', { name: '(501) 555-0101' }).getAttribute('href')).resolves.toBe(
      'tel:+15015550101',
    )
    await expect(
      coffee.getByRole('link', { name: 'View Details of Roland Coffee House', exact: true }).getAttribute('href'),
    ).resolves.toBe('/business/roland-coffee-house')
    const clamp = await coffee.locator('p.line-clamp-3').evaluate((p) => getComputedStyle(p).webkitLineClamp)
    expect(clamp).toBe('3')
  })

  test('gives a business without a description the fallback text, and one without a photo the building icon', async () => {
    const { page } = await site.open('/businesses', { javaScriptEnabled: false })
    const sweets = page.locator('article[data-business="lakeside-sweets"]')
    await expect(sweets.innerText()).resolves.toContain('Lakeside Sweets - Local business in Roland, Arkansas.')
    await expect(sweets.locator('img').count()).resolves.toBe(0)
    await expect(sweets.locator('svg').first().isVisible()).resolves.toBe(true)
    await expect(page.locator('article[data-business="roland-auto-repair"]').innerText()).resolves.not.toContain(
      'Local Business',
    )
    await expect(page.locator('article[data-business="roland-handyman"]').innerText()).resolves.toContain(
      'Local Business',
    )
  })

  test('replaces a photo that fails to load with the building icon', async () => {
    const { page } = await site.open('/businesses')
    const bait = page.locator('article[data-business="pinnacle-bait-tackle"]')
    await bait.locator('img').waitFor({ state: 'hidden' })
    await expect(bait.locator('svg').first().isVisible()).resolves.toBe(true)
  })

  test('loads no script for the search, nor its index, before the visitor starts to search', async () => {
    const { page } = await site.open('/businesses')
    const fetched: string[] = []
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname))
    await page.waitForLoadState('networkidle')
    await page.mouse.wheel(0, 2000)
    await page.waitForTimeout(300)
    expect(fetched.filter((path) => path.endsWith('.js') || path.endsWith('.json'))).toEqual([])
    await expect(page.locator('[data-directory]').getAttribute('data-directory')).resolves.toBe('static')
  })
})

describe('starting a search', () => {
  test('fetches the search index when the visitor focuses the search box', async () => {
    const { page } = await site.open('/businesses')
    const index = page.waitForRequest((request) => new URL(request.url()).pathname === '/businesses/search-index.json')
    await searchBox(page).focus()
    await index
    await page.locator('[data-directory="ready"]').waitFor()
  })

  test('keeps what the visitor typed while the search was loading', async () => {
    const { page, errors } = await site.open('/businesses')
    await searchBox(page).focus()
    await page.keyboard.type('biscuits')
    await page.locator('[data-directory="ready"]').waitFor()
    await expect(cardNames(page)).resolves.toEqual(['Roland Coffee House'])
    await expect(searchBox(page).inputValue()).resolves.toBe('biscuits')
    await addressSays(page, '?q=biscuits')
    expect(errors).toEqual([])
  })

  test('replaces a photo that fails to load in a search result with the building icon', async () => {
    const { page } = await openDirectory()
    await searchBox(page).fill('tackle')
    const bait = page.locator('article[data-business="pinnacle-bait-tackle"]')
    await bait.waitFor()
    await bait.locator('img').waitFor({ state: 'detached' })
    await expect(bait.locator('svg').first().isVisible()).resolves.toBe(true)
  })

  test("shows the list as 'No businesses found' when the search index cannot be loaded", async () => {
    const { page } = await site.open('/businesses')
    await page.route('**/businesses/search-index.json', (route) => route.fulfill({ status: 500, body: 'down' }))
    await searchBox(page).fill('coffee')
    await page.locator('[data-directory="failed"]').waitFor()
    await expect(page.getByText('No businesses found matching your criteria.').isVisible()).resolves.toBe(true)
    await page.getByRole('button', { name: 'Clear Filters' }).click()
    await expect(cardNames(page)).resolves.toEqual(allNames)
  })
})

describe('searching and filtering businesses', () => {
  test('matches the search text in names and both descriptions, ignoring case, and keeps it in the URL', async () => {
    const { page, errors } = await openDirectory()
    await searchBox(page).fill('BISCUITS')
    await expect(cardNames(page)).resolves.toEqual(['Roland Coffee House'])
    await addressSays(page, '?q=BISCUITS')
    // "hickory" is only in the smokehouse's full description.
    await searchBox(page).fill('hickory')
    await expect(cardNames(page)).resolves.toEqual(['Maumelle Smokehouse'])
    await searchBox(page).fill('smokehouse')
    await expect(cardNames(page)).resolves.toEqual(['Maumelle Smokehouse'])
    expect(errors).toEqual([])
  })

  test('keeps only the businesses whose category equals the choice', async () => {
    const { page } = await openDirectory()
    await categorySelect(page).selectOption('Shopping & Convenience')
    await expect(cardNames(page)).resolves.toEqual([
      'Pinnacle Bait & Tackle',
      'Roland General Store',
      'Valley Hardware',
    ])
    await addressSays(page, '?category=Shopping+%26+Convenience')
    await categorySelect(page).selectOption('All')
    await expect(cardNames(page)).resolves.toEqual(allNames)
    await addressSays(page, '')
  })

  test("says 'No businesses found matching your criteria.' and 'Clear Filters' resets search and category", async () => {
    const { page } = await openDirectory()
    await searchBox(page).fill('bait')
    await categorySelect(page).selectOption('Dining & Refreshments')
    await expect(page.getByText('No businesses found matching your criteria.').isVisible()).resolves.toBe(true)
    await expect(cardNames(page)).resolves.toEqual([])
    await addressSays(page, '?q=bait&category=Dining+%26+Refreshments')
    await page.getByRole('button', { name: 'Clear Filters' }).click()
    await expect(cardNames(page)).resolves.toEqual(allNames)
    await expect(searchBox(page).inputValue()).resolves.toBe('')
    await expect(categorySelect(page).inputValue()).resolves.toBe('')
    await addressSays(page, '')
  })

  test('keeps a filtered view through a reload', async () => {
    const { page } = await openDirectory()
    await searchBox(page).fill('coffee')
    await categorySelect(page).selectOption('Dining & Refreshments')
    await expect(cardNames(page)).resolves.toEqual(['Roland Coffee House'])
    await addressSays(page, '?q=coffee&category=Dining+%26+Refreshments')
    await page.reload()
    await page.locator('[data-directory="ready"]').waitFor()
    await expect(searchBox(page).inputValue()).resolves.toBe('coffee')
    await expect(categorySelect(page).inputValue()).resolves.toBe('Dining & Refreshments')
    await expect(cardNames(page)).resolves.toEqual(['Roland Coffee House'])
  })

  test('keeps the search in the address when a card is opened before typing pauses, so Back returns to it', async () => {
    const { page } = await openDirectory()
    await searchBox(page).fill('biscuits')
    await page.getByRole('link', { name: 'View Details of Roland Coffee House' }).click()
    await page.waitForURL(site.url('/business/roland-coffee-house'))
    await page.goBack()
    await page.locator('[data-directory="ready"]').waitFor()
    expect(query(page)).toBe('?q=biscuits')
    await expect(cardNames(page)).resolves.toEqual(['Roland Coffee House'])
  })

  test('opens a shared filtered URL filtered', async () => {
    const { page } = await openDirectory('/businesses?category=Recreation')
    await expect(cardNames(page)).resolves.toEqual(['Pinnacle Fitness'])
    await expect(categorySelect(page).inputValue()).resolves.toBe('Recreation')
  })

  test('works on a phone', async () => {
    const { page } = await site.open('/businesses?q=tackle', { viewport: phone })
    await page.locator('[data-directory="ready"]').waitFor()
    await expect(cardNames(page)).resolves.toEqual(['Pinnacle Bait & Tackle'])
  })
})
