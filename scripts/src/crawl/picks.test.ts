import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startFixtureSite, type FixtureSite } from '../../test/crawl-fixture-server.ts'
import { crawlBusinessImages, type CrawlResult } from './crawl.ts'

/** What a person looking at the site would pick, and what must never be offered at all. */
interface ExpectedPicks {
  logo: string | null
  hero: string | null
  thumbnail: string | null
  /** Sprites, icons, icon fonts, pixels, spacers, images under 64 px and third-party widgets' images on the site. */
  junk: string[]
}

// Paths are on the fixture server unless they are absolute addresses.
const SITES: Record<string, ExpectedPicks> = {
  // A site builder's header: the logo is an <img> in a link to '/', with no 'logo' anywhere; an SVG sprite preloaded and used.
  'builder-plumber': {
    logo: '/media/c8f2a1d0/hartley-plumbing-wordmark.png',
    hero: '/media/c8f2a1d0/service-van-driveway.jpg',
    thumbnail: '/media/c8f2a1d0/water-heater-install.jpg',
    junk: ['/assets/ui/icons.svg', '/assets/favicon-32.png', '/media/c8f2a1d0/badge-licensed.png'],
  },
  // A top bar linking to the absolute home address, lazy images in data-src, an icon font, a spacer and the Meta pixel.
  'builder-florist': {
    logo: '/uploads/2024/petal-and-stem-mark.png',
    hero: '/uploads/2024/bridal-bouquet-peonies.jpg',
    thumbnail: '/uploads/2024/shop-counter-buckets.jpg',
    junk: ['/static/fonts/petal-glyphs.svg', '/static/img/spacer.gif', 'https://www.facebook.com/tr'],
  },
  // A table layout: the logo is only named logo.png; a 2-pixel shim and badges under 64 px.
  'hosted-autoshop': {
    logo: '/img/logo.png',
    hero: '/img/shop-front-bays.jpg',
    thumbnail: '/img/alignment-rack.jpg',
    junk: ['/img/shim.gif', '/img/aaa-approved.gif', '/img/icons/wrench-48.png'],
  },
  // Weebly: the header image links to /index.html; a banner background; a PNG sprite of social icons.
  'weebly-campground': {
    logo: '/uploads/1/4/2/7/142788/published/bull-creek-header.png?1699999999',
    hero: '/uploads/1/4/2/7/142788/background-images/creek-swimming-hole.jpg',
    thumbnail: '/uploads/1/4/2/7/142788/editor/rv-sites-under-oaks.jpg?1700000000',
    junk: ['/files/theme/images/social-sprite.png'],
  },
  // Hand-made: a phone icon comes first in the header, the sign that links home second; Font Awesome's SVG font.
  'handmade-diner': {
    logo: '/images/ridgetop-sign.jpg',
    hero: '/images/pie-case.jpg',
    thumbnail: '/images/counter-stools.jpg',
    junk: ['/images/phone-icon.png', 'https://cdn.example.net/font-awesome/4.7.0/fonts/fontawesome-webfont.svg'],
  },
  // A <picture> logo in <header role="banner">, an inline symbol sprite and an external one used with xlink:href.
  'builder-yoga': {
    logo: '/s/img/still-water-mark-480.webp',
    hero: '/s/img/studio-morning-light.jpg',
    thumbnail: '/s/img/class-on-the-deck.jpg',
    junk: ['/s/img/ui-sprite.svg'],
  },
  // A site builder's CDN logo by a protocol-relative address with resize steps after the file; a <picture> hero
  // (AVIF and WebP sources, a 1600-px <img>) above smaller photos; a consent dialog, an ad slot, review and BBB
  // badges, a PayPal mark, a chat launcher, a fixed promotion card and an analytics pixel.
  'builder-outfitter': {
    logo: '//img1.example-cdn.com/isteam/ip/7c1f02aa/mro-wordmark.png/:/rs=h:240,cg:true,m/qt=q:95',
    hero: '/img/hero-river-1600.jpg',
    thumbnail: '/img/guides-on-the-bank.jpg',
    junk: [
      'https://consent.cookiebot.com/logo/cb-logo-blue.png',
      '/img/uploads/consent-banner-art.png',
      '/img/uploads/summer-sale-728x90.jpg',
      '/img/uploads/trustpilot-5-stars.png',
      '/img/uploads/bbb-accredited-business-seal.png',
      'https://www.paypalobjects.com/webstatic/mktg/logo/pp_cc_mark_111x69.jpg',
      'https://static.intercomassets.com/avatars/4410/square_128/guide-headshot.jpg',
      '/img/uploads/spring-special-card.jpg',
      'https://px.example-analytics.net/collect?id=77',
    ],
  },
  // WordPress on its own CDN, every address protocol-relative (og:image, a style block's hero, srcset, the
  // logo); a OneTrust banner, sponsored content, a Yelp badge, a tawk.to chat bubble and the Meta pixel.
  'wordpress-cafe': {
    logo: '//cdn.depotstreetcoffee.example/wp-content/uploads/2025/01/depot-street-mark.png',
    hero: '//cdn.depotstreetcoffee.example/wp-content/uploads/2025/04/espresso-bar-morning.jpg',
    thumbnail: '//cdn.depotstreetcoffee.example/wp-content/uploads/2025/04/pastry-case-1200x800.jpg',
    junk: [
      'https://cdn.cookielaw.org/logos/static/powered_by_logo.svg',
      '//cdn.depotstreetcoffee.example/wp-content/uploads/2025/01/cookie-jar-illustration.png',
      '//cdn.depotstreetcoffee.example/wp-content/uploads/2025/03/roaster-partner-ad.jpg',
      'https://s3-media0.fl.yelpcdn.com/assets/public/yelp_favorites_badge_2024.png',
      'https://embed.tawk.to/_s/v4/assets/images/default-profile.png',
      'https://www.facebook.com/tr',
    ],
  },
  // The earlier fixture sites keep their picks.
  'wordpress-bakery': {
    logo: '/wp-content/uploads/2024/01/main-street-bakery-logo.png',
    hero: '/wp-content/uploads/2024/03/bakery-storefront.jpg',
    thumbnail: '/wp-content/uploads/2024/03/sourdough-counter.jpg',
    junk: [],
  },
  'onepage-smokehouse': {
    logo: '/img/pinnacle-smokehouse.svg',
    hero: '/img/smoker-at-dawn.jpg',
    thumbnail: 'http://cdn.pinnaclesmokehouse.example/photos/brisket-plate.jpg',
    junk: [],
  },
  'favicon-only': { logo: null, hero: null, thumbnail: null, junk: ['/favicon-32x32.png', '/images/spacer.gif'] },
}

describe('logo and photo picks on varied small-business sites', () => {
  const results = new Map<string, { site: FixtureSite; result: CrawlResult }>()

  beforeAll(async () => {
    for (const name of Object.keys(SITES)) {
      const site = await startFixtureSite(name)
      const result = await crawlBusinessImages({
        businessName: name,
        websiteUrl: site.url('/'),
        engine: 'builtin',
        allowPrivateNetwork: true,
        limits: { maxPages: 1 },
      })
      results.set(name, { site, result })
    }
  })

  afterAll(async () => {
    await Promise.all([...results.values()].map(({ site }) => site.close()))
  })

  const at = (site: FixtureSite, path: string | null) => (path === null ? null : new URL(path, site.origin).href)

  test('picks at least 96% of the logos, heroes and thumbnails a person would', () => {
    const misses: string[] = []
    let right = 0
    for (const [name, want] of Object.entries(SITES)) {
      const { site, result } = results.get(name)!
      for (const [role, got] of [
        ['logo', result.logoUrl],
        ['hero', result.heroUrl],
        ['thumbnail', result.thumbnailUrl],
      ] as const) {
        if (got === at(site, want[role])) right += 1
        else misses.push(`${name} ${role}: got ${got}, want ${at(site, want[role])}`)
      }
    }
    expect(right / (Object.keys(SITES).length * 3), misses.join('\n')).toBeGreaterThanOrEqual(0.96)
  })

  test.each(Object.keys(SITES))('offers no sprite, icon, pixel, spacer, tiny or widget image of %s', (name) => {
    const { site, result } = results.get(name)!
    const offered = result.images.map((image) => image.url)
    const junk = SITES[name]!.junk.map((path) => at(site, path)!)
    expect(offered.filter((url) => junk.some((bad) => url.startsWith(bad)))).toEqual([])
    // Each was seen and rejected with a reason, not silently missed.
    for (const bad of junk)
      expect(
        result.rejected.some((rejected) => rejected.url.startsWith(bad)),
        bad,
      ).toBe(true)
  })
})
