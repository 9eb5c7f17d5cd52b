import { describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { layoutShifts, recordLayoutShifts } from '../support/layout-shifts.ts'
import { desktop, phone, useSite } from '../support/site-session.ts'

// Photos sized for phones (issue 17): the fixture's Roland Auto Repair and Big Maumelle Insurance
// have photos processed into derivatives (test/support/photo-variants.ts); the other businesses'
// photos are not processed and are served as they are.

const site = useSite()

const business = '/business/roland-auto-repair'
const category = '/professional-services'

/** The attributes of every image in main, in document order. */
function imagesIn(page: Page, selector = 'main img') {
  return page.locator(selector).evaluateAll((images) =>
    images.map((img) => ({
      alt: img.getAttribute('alt'),
      width: img.getAttribute('width'),
      height: img.getAttribute('height'),
      loading: img.getAttribute('loading'),
      decoding: img.getAttribute('decoding'),
      fetchpriority: img.getAttribute('fetchpriority'),
      inPicture: img.parentElement?.tagName === 'PICTURE',
      sources: [...(img.parentElement?.querySelectorAll('source') ?? [])].map((s) => s.getAttribute('type')),
      background: getComputedStyle(img).backgroundColor,
    })),
  )
}

/** Waits until every image of the page has loaded (after scrolling, so lazy ones start too). */
async function loadAllImages(page: Page) {
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  await page.waitForFunction(() => [...document.images].every((img) => img.complete))
  await page.evaluate(() => window.scrollTo(0, 0))
}

describe('a business page with processed photos', () => {
  test('draws each photo as a <picture>: AVIF, WebP, then the JPEG fallback, in every width, with its sizes', async () => {
    const { page } = await site.open(business)
    const hero = page.locator('picture', { has: page.locator('[data-featured-image]') })
    const sources = await hero.locator('source').evaluateAll((elements) =>
      elements.map((s) => ({
        type: s.getAttribute('type'),
        srcset: s.getAttribute('srcset'),
        sizes: s.getAttribute('sizes'),
      })),
    )
    const widths = [320, 640, 720, 960, 1440]
    const srcset = (extension: string) =>
      widths.map((w) => `/files/business-images/roland-auto-repair-shop-${w}.${extension} ${w}w`).join(', ')
    expect(sources.map(({ type, srcset }) => ({ type, srcset }))).toEqual([
      { type: 'image/avif', srcset: srcset('avif') },
      { type: 'image/webp', srcset: srcset('webp') },
    ])
    const img = page.locator('[data-featured-image]')
    await expect(img.getAttribute('srcset')).resolves.toBe(srcset('jpg'))
    const sizes = await img.getAttribute('sizes')
    expect(sizes).toMatch(/calc\(100vw - 2rem\)$/)
    expect(sources.every((s) => s.sizes === sizes)).toBe(true)
  })

  test('gives its transparent logo a PNG fallback', async () => {
    const { page } = await site.open(business)
    const logo = page.getByAltText('Roland Auto Repair logo')
    await expect(logo.getAttribute('srcset')).resolves.toBe(
      '/files/business-images/roland-auto-repair-logo-200.png 200w',
    )
    await expect(logo.getAttribute('sizes')).resolves.toBe('80px')
  })

  test('makes Chromium on a phone fetch the AVIF as wide as the phone, and never the original', async () => {
    const opened = await site.open('about:blank', { viewport: phone })
    const fetched: string[] = []
    opened.page.on('request', (request) => fetched.push(new URL(request.url()).pathname))
    await opened.page.goto(site.url(business))
    await loadAllImages(opened.page)
    const chosen = await opened.page
      .locator('[data-featured-image]')
      .evaluate((img) => (img as HTMLImageElement).currentSrc)
    // 390px wide, less the page's 2rem of padding: the 640px derivative is the narrowest that fills it.
    expect(new URL(chosen).pathname).toBe('/files/business-images/roland-auto-repair-shop-640.avif')
    const images = fetched.filter((path) => path.startsWith('/files/'))
    expect(images.every((path) => path.endsWith('.avif'))).toBe(true)
    expect(images).not.toContain('/files/business-images/roland-auto-repair-shop.jpg')
  })

  test('fetches its featured image first and its logo at once; the photos below the fold lazily', async () => {
    const { page } = await site.open(business)
    const [logo, hero, ...photos] = await imagesIn(page)
    expect(logo).toMatchObject({ alt: 'Roland Auto Repair logo', loading: null, fetchpriority: null, inPicture: true })
    expect(hero).toMatchObject({
      alt: 'The garage doors of Roland Auto Repair',
      loading: null,
      fetchpriority: 'high',
      inPicture: true,
    })
    expect(photos.length).toBeGreaterThan(0)
    for (const photo of photos) expect(photo).toMatchObject({ loading: 'lazy', decoding: 'async', inPicture: true })
  })

  test('shares its featured image by the widest JPEG derivative, not the original (og:image)', async () => {
    const { page } = await site.open(business)
    const shared = await page.locator('meta[property="og:image"]').getAttribute('content')
    expect(shared).toMatch(/-1440\.jpg$/)
    const response = await page.request.get(shared!)
    expect(response.headers()['content-type']).toBe('image/jpeg')
  })

  test('gives every image its intrinsic width and height', async () => {
    const { page } = await site.open(business)
    const sizes = (await imagesIn(page)).map(({ alt, width, height }) => ({ alt, width, height }))
    expect(sizes).toEqual([
      { alt: 'Roland Auto Repair logo', width: '200', height: '200' },
      { alt: 'The garage doors of Roland Auto Repair', width: '1500', height: '1000' },
      { alt: 'The garage doors of Roland Auto Repair', width: '1500', height: '1000' },
      { alt: 'A car on the lift', width: '800', height: '600' },
    ])
  })

  test('shows each photo’s colour until it loads, and a blurred preview behind the featured image', async () => {
    const { page } = await site.open(business, { javaScriptEnabled: false })
    for (const image of await imagesIn(page)) {
      expect(image.background, image.alt!).toMatch(/^rgb\(\d+, \d+, \d+\)$/)
    }
    // The hero's colour is the ThumbHash's average of a blue sky over a dark ground.
    const [, hero] = await imagesIn(page)
    const [r, , b] = hero!.background.match(/\d+/g)!.map(Number)
    expect(b).toBeGreaterThan(r!)
    const preview = await page.locator('[data-featured-image]').evaluate((img) => getComputedStyle(img).backgroundImage)
    expect(preview).toMatch(/^url\("data:image\/png;base64,/)
  })

  test('does not move while its photos load (no layout shift)', async () => {
    for (const viewport of [phone, desktop]) {
      const { page } = await site.open('about:blank', { viewport })
      // The photos are held back until the page is parsed and drawn, then let through: any box
      // that waits for its image would move after that. (A busy machine may draw a page before its
      // parser is done; what moves then is the slow-network test's concern, slow-network.test.ts.)
      let letThrough = () => {}
      let held = Promise.resolve()
      await page.route('**/files/**', async (route) => {
        await held
        await route.continue()
      })
      await recordLayoutShifts(page)
      for (const path of [business, category]) {
        held = new Promise<void>((resolve) => (letThrough = resolve))
        await page.goto(site.url(path), { waitUntil: 'domcontentloaded' })
        const drawnAt = await page.evaluate(
          () =>
            new Promise<number>((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now())))),
        )
        letThrough()
        await loadAllImages(page)
        const { shifts: all } = await layoutShifts(page)
        const shifts = all.filter(({ at }) => at >= drawnAt).map(({ moved }) => moved)
        expect(shifts, `${path} at ${viewport.width}px`).toEqual([])
      }
    }
  })
})

describe('cards with processed photos', () => {
  test('draw a <picture> on a category page, the featured location first, the others lazily', async () => {
    const { page } = await site.open(category)
    const images = await imagesIn(page)
    const shown = images.map(({ alt, loading, fetchpriority, inPicture, sources }) => ({
      alt,
      loading,
      fetchpriority,
      inPicture,
      sources,
    }))
    expect(shown).toEqual([
      {
        alt: 'The garage doors of Roland Auto Repair',
        loading: null,
        fetchpriority: 'high',
        inPicture: true,
        sources: ['image/avif', 'image/webp'],
      },
      {
        alt: 'The insurance office on Highway 300',
        loading: 'lazy',
        fetchpriority: null,
        inPicture: true,
        sources: ['image/avif', 'image/webp'],
      },
    ])
    // A card is never wider than 960px on a 2x screen: it is not offered the 1440px derivative.
    const srcsets = await page
      .locator('main source, main img')
      .evaluateAll((elements) => elements.map((e) => e.getAttribute('srcset')))
    expect(srcsets.join(' ')).not.toContain('1440w')
  })

  test('the first card of /businesses is fetched first (a phone’s LCP), every other card lazily', async () => {
    const { page } = await site.open('/businesses')
    const images = await imagesIn(page, 'main article img')
    expect(images.length).toBeGreaterThan(2)
    expect(images[0]).toMatchObject({ loading: null, fetchpriority: 'high' })
    for (const image of images.slice(1)) expect(image).toMatchObject({ loading: 'lazy', fetchpriority: null })
  })

  test('draw the same <picture> in the static list and in a search result', async () => {
    const { page } = await site.open('/businesses')
    const card = page.locator('article[data-business="roland-auto-repair"] picture')
    const markup = () =>
      card.evaluate((picture) => {
        const img = picture.querySelector('img')!
        return {
          sources: [...picture.querySelectorAll('source')].map((s) => [s.type, s.srcset, s.sizes]),
          img: [img.getAttribute('src'), img.srcset, img.sizes, img.width, img.height, img.loading, img.decoding],
          background: getComputedStyle(img).backgroundColor,
        }
      })
    const before = await markup()
    expect(before.sources.map(([type]) => type)).toEqual(['image/avif', 'image/webp'])
    const search = page.getByPlaceholder('Search businesses...')
    await search.focus()
    await page.locator('[data-directory="ready"]').waitFor()
    await search.fill('brakes')
    await page.waitForFunction(() => document.querySelectorAll('article[data-business]').length === 1)
    expect(await markup()).toEqual(before)
  })
})
