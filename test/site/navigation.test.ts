import { describe, expect, test } from 'vitest'
import { phone, useSite } from '../support/site-session.ts'

const site = useSite()

describe('the navigation bar on a wide screen', () => {
  test('links every page of SPEC §2', async () => {
    const { page } = await site.open('/')
    const hrefs = await page
      .locator('header nav[aria-label="Main"] a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')))
    expect([...new Set(hrefs)]).toEqual([
      '/',
      '/businesses',
      '/dining-refreshments',
      '/shopping-convenience',
      '/professional-services',
      '/recreation',
      '/sports',
      '/nature',
      '/premium',
      '/community',
      '/centers',
      '/emergency',
      '/faith',
      '/about',
      '/education',
      '/history',
      '/nearby',
      '/events',
      '/contact',
    ])
  })

  test('opens a dropdown on hover', async () => {
    const { page } = await site.open('/')
    const nav = page.locator('header nav[aria-label="Main"]')
    const dining = nav.getByRole('link', { name: 'Dining & Refreshments' })
    await expect(dining.isVisible()).resolves.toBe(false)
    await nav.getByRole('link', { name: 'Businesses', exact: true }).hover()
    await dining.waitFor({ state: 'visible' })
  })

  test('opens a dropdown on keyboard focus, and Tab moves into it', async () => {
    const { page } = await site.open('/')
    const nav = page.locator('header nav[aria-label="Main"]')
    await nav.getByRole('link', { name: 'Community', exact: true }).focus()
    await nav.getByRole('link', { name: 'Emergency Services' }).waitFor({ state: 'visible' })
    await page.keyboard.press('Tab')
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Community Overview')
  })

  test('offers a skip link as the first stop of the keyboard', async () => {
    const { page } = await site.open('/businesses')
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to main content' })
    await expect(skip.isVisible()).resolves.toBe(true)
    await page.keyboard.press('Enter')
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('main')
  })

  test('marks the page being shown', async () => {
    const { page } = await site.open('/events')
    await expect(page.locator('header nav[aria-label="Main"] [aria-current="page"]').innerText()).resolves.toBe(
      'Events',
    )
  })
})

describe('the menu on a phone', () => {
  test('is collapsed behind a toggle', async () => {
    const { page } = await site.open('/', { viewport: phone })
    await expect(page.locator('header nav[aria-label="Main"]').isVisible()).resolves.toBe(false)
    await expect(page.getByRole('navigation', { name: 'Main menu' }).isVisible()).resolves.toBe(false)
  })

  test('opens on the toggle, hydrates, and then closes when a link is chosen', async () => {
    const { page, errors } = await site.open('/', { viewport: phone })
    await page.getByText('Menu', { exact: true }).click()
    const menu = page.getByRole('navigation', { name: 'Main menu' })
    await menu.waitFor({ state: 'visible' })
    await page.locator('[data-mobile-menu][data-hydrated]').waitFor({ state: 'attached' })
    // Keep the page here, so what the menu itself does with the click is what is seen.
    await page.evaluate(() => window.addEventListener('click', (event) => event.preventDefault()))
    await menu.getByRole('link', { name: 'Events' }).click()
    await menu.waitFor({ state: 'hidden' })
    await expect(
      page.locator('[data-mobile-menu]').evaluate((details) => (details as HTMLDetailsElement).open),
    ).resolves.toBe(false)
    expect(errors).toEqual([])
  })

  test('stays open through hydration, keeping the links the server rendered', async () => {
    const { page, errors } = await site.open('/', { viewport: phone })
    // The closed menu is out of the accessibility tree, so it is found by its markup.
    const menu = page.locator('nav[aria-label="Main menu"]')
    // A mark set before React loads survives only if hydration adopts the server's nodes.
    await menu.evaluate((nav) => nav.querySelector('a')!.setAttribute('data-before-hydration', ''))
    await page.getByText('Menu', { exact: true }).click()
    await page.locator('[data-mobile-menu][data-hydrated]').waitFor({ state: 'attached' })
    await expect(menu.isVisible()).resolves.toBe(true)
    await expect(menu.locator('a[data-before-hydration]').getAttribute('href')).resolves.toBe('/')
    expect(errors).toEqual([])
  })

  test('takes the visitor to the chosen page', async () => {
    const { page } = await site.open('/', { viewport: phone })
    await page.getByText('Menu', { exact: true }).click()
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Natural Attractions' }).click()
    await page.waitForURL(site.url('/nature'))
    await expect(page.locator('h1').innerText()).resolves.toBe('Natural Attractions')
    await expect(page.getByRole('navigation', { name: 'Main menu' }).isVisible()).resolves.toBe(false)
  })

  test('works with the keyboard: Enter opens it, Tab walks its links, Escape closes it and gives the focus back to the toggle', async () => {
    const { page, errors } = await site.open('/', { viewport: phone })
    const toggle = page.locator('[data-mobile-menu] summary')
    // From the skip link, Tab reaches the alert banner's link (the fixture shows one), the home link,
    // then the toggle.
    for (let i = 0; i < 4 && !(await toggle.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab')
    }
    await expect(toggle.evaluate((el) => el === document.activeElement)).resolves.toBe(true)
    await page.keyboard.press('Enter')
    const menu = page.getByRole('navigation', { name: 'Main menu' })
    await menu.waitFor({ state: 'visible' })
    await page.locator('[data-mobile-menu][data-hydrated]').waitFor({ state: 'attached' })
    await page.keyboard.press('Tab')
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Home')
    await page.keyboard.press('Escape')
    await menu.waitFor({ state: 'hidden' })
    await expect(page.evaluate(() => document.activeElement?.tagName)).resolves.toBe('SUMMARY')
    // Space opens it again, as on any <details>.
    await page.keyboard.press(' ')
    await menu.waitFor({ state: 'visible' })
    expect(errors).toEqual([])
  })

  test('works without JavaScript', async () => {
    const { page } = await site.open('/', { viewport: phone, javaScriptEnabled: false })
    await page.getByText('Menu', { exact: true }).click()
    const menu = page.getByRole('navigation', { name: 'Main menu' })
    await menu.waitFor({ state: 'visible' })
    await menu.getByRole('link', { name: 'Contact' }).click()
    await page.waitForURL(site.url('/contact'))
    await expect(page.locator('h1').innerText()).resolves.toBe('Contact')
  })
})
