import { describe, expect, test } from 'vitest'
import { extractImageCandidates, extractMarkdownImages, parseSrcset, resolveUrl } from './candidates.ts'

const PAGE = 'https://www.rolandhardware.example/shop/'

function only(html: string) {
  return extractImageCandidates(html, PAGE).map(({ url, source, isLogo, isHero, width, height }) => ({
    url,
    source,
    isLogo,
    isHero,
    width,
    height,
  }))
}

describe('resolveUrl', () => {
  test('makes relative, root-relative and protocol-relative addresses absolute', () => {
    expect(resolveUrl('img/a.jpg', PAGE)).toBe('https://www.rolandhardware.example/shop/img/a.jpg')
    expect(resolveUrl('/img/a.jpg', PAGE)).toBe('https://www.rolandhardware.example/img/a.jpg')
    expect(resolveUrl('//cdn.example.net/a.jpg', PAGE)).toBe('https://cdn.example.net/a.jpg')
  })

  test('keeps data: URIs as they are and drops addresses a browser would not load', () => {
    expect(resolveUrl('data:image/gif;base64,R0lGODlh', PAGE)).toBe('data:image/gif;base64,R0lGODlh')
    expect(resolveUrl('javascript:void(0)', PAGE)).toBeUndefined()
    expect(resolveUrl('#top', PAGE)).toBeUndefined()
    expect(resolveUrl('   ', PAGE)).toBeUndefined()
  })

  test('removes the newlines themes leave inside attributes', () => {
    expect(resolveUrl('/img/\n\ta.jpg', PAGE)).toBe('https://www.rolandhardware.example/img/a.jpg')
  })
})

describe('parseSrcset', () => {
  test('reads width and density descriptors', () => {
    expect(parseSrcset('a-300.jpg 300w, a-1024.jpg 1024w')).toEqual([
      { url: 'a-300.jpg', width: 300, density: undefined },
      { url: 'a-1024.jpg', width: 1024, density: undefined },
    ])
    expect(parseSrcset('logo.png 1x, logo@2x.png 2x')[1]).toEqual({ url: 'logo@2x.png', width: undefined, density: 2 })
  })

  test('keeps commas that belong to an address, as image CDNs write them', () => {
    const entries = parseSrcset(
      'https://res.example.net/c_fill,w_400,h_300/shop.jpg 400w, https://res.example.net/c_fill,w_800,h_600/shop.jpg 800w',
    )
    expect(entries.map((entry) => entry.url)).toEqual([
      'https://res.example.net/c_fill,w_400,h_300/shop.jpg',
      'https://res.example.net/c_fill,w_800,h_600/shop.jpg',
    ])
  })
})

describe('extractImageCandidates', () => {
  test('reads og:image with its declared size and twitter:image', () => {
    const found = only(`<head>
      <meta property="og:image" content="/share.jpg"><meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">
      <meta name="twitter:image" content="https://www.rolandhardware.example/twitter.jpg"></head>`)
    expect(found).toEqual([
      {
        url: 'https://www.rolandhardware.example/share.jpg',
        source: 'og:image',
        isLogo: false,
        isHero: true,
        width: 1200,
        height: 630,
      },
      {
        url: 'https://www.rolandhardware.example/twitter.jpg',
        source: 'twitter:image',
        isLogo: false,
        isHero: true,
        width: undefined,
        height: undefined,
      },
    ])
  })

  test('reads the logo and images of JSON-LD, skipping a person’s avatar and broken blocks', () => {
    const found = only(`
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"HardwareStore","name":"Roland Hardware",
        "logo":{"@type":"ImageObject","url":"/brand/rh.png","width":"400","height":"400"},
        "image":["/photos/aisle.jpg","/photos/counter.jpg"],
        "employee":{"@type":"Person","name":"Bob","image":"/team/bob.jpg"}}</script>
      <script type="application/ld+json">{"@type": "Organization", broken</script>`)
    expect(found.map(({ url, source }) => [url.replace('https://www.rolandhardware.example', ''), source])).toEqual([
      ['/brand/rh.png', 'json-ld-logo'],
      ['/photos/aisle.jpg', 'json-ld-image'],
      ['/photos/counter.jpg', 'json-ld-image'],
    ])
    expect(found[0]).toMatchObject({ isLogo: true, width: 400, height: 400 })
  })

  test('reads icons with their sizes, the apple-touch-icon defaulting to 180 pixels', () => {
    const found = only(
      `<link rel="icon" href="/favicon-32x32.png" sizes="32x32"><link rel="apple-touch-icon" href="/apple-touch-icon.png">`,
    )
    expect(found).toEqual([
      {
        url: 'https://www.rolandhardware.example/favicon-32x32.png',
        source: 'icon',
        isLogo: false,
        isHero: false,
        width: 32,
        height: 32,
      },
      {
        url: 'https://www.rolandhardware.example/apple-touch-icon.png',
        source: 'apple-touch-icon',
        isLogo: false,
        isHero: false,
        width: 180,
        height: 180,
      },
    ])
  })

  test('takes a lazy-loaded image’s real address instead of its placeholder', () => {
    const found = only(`
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/photos/paint-aisle.jpg" class="lazyload" width="600" height="400" alt="Paint aisle">
      <img src="/wp-content/plugins/lazy/placeholder.png" data-lazy-src="/photos/garden-center.jpg" width="600" height="400">`)
    expect(found.map((candidate) => candidate.url)).toEqual([
      'https://www.rolandhardware.example/photos/paint-aisle.jpg',
      'https://www.rolandhardware.example/photos/garden-center.jpg',
    ])
  })

  test('takes the largest srcset entry and scales the declared height to it', () => {
    const [found] = only(
      `<img src="/p/tools-300x200.jpg" srcset="/p/tools-300x200.jpg 300w, /p/tools-1536x1024.jpg 1536w, /p/tools-768x512.jpg 768w" width="300" height="200">`,
    )
    expect(found).toMatchObject({
      url: 'https://www.rolandhardware.example/p/tools-1536x1024.jpg',
      width: 1536,
      height: 1024,
    })
  })

  test('reads a data-srcset of a lazy loader', () => {
    const [found] = only(
      `<img src="data:," data-srcset="/p/grill-400.webp 400w, /p/grill-1200.webp 1200w" width="400" height="300">`,
    )
    expect(found?.url).toBe('https://www.rolandhardware.example/p/grill-1200.webp')
  })

  test('reads a picture as one image, its sources counting as larger copies', () => {
    const found = only(`<picture>
      <source type="image/webp" srcset="/p/storefront-800.webp 800w, /p/storefront-1600.webp 1600w">
      <img src="/p/storefront-800.jpg" width="800" height="533" alt="The store on Highway 300"></picture>`)
    expect(found).toEqual([
      {
        url: 'https://www.rolandhardware.example/p/storefront-1600.webp',
        source: 'picture',
        isLogo: false,
        isHero: false,
        width: 1600,
        height: 1066,
      },
    ])
  })

  test('reads a <picture> of AVIF and WebP sources without widths as its <img>, with the size the <img> declares', () => {
    const found = only(`<picture>
      <source type="image/avif" srcset="/img/hero-river-1600.avif">
      <source type="image/webp" srcset="/img/hero-river-1600.webp">
      <img src="/img/hero-river-1600.jpg" width="1600" height="900" alt="Canoes on a gravel bar"></picture>`)
    expect(found).toEqual([
      {
        url: 'https://www.rolandhardware.example/img/hero-river-1600.jpg',
        source: 'picture',
        isLogo: false,
        isHero: false,
        width: 1600,
        height: 900,
      },
    ])
  })

  test('takes a <picture> source that declares a larger size with width and height attributes', () => {
    const found = only(`<picture>
      <source media="(min-width: 900px)" srcset="/img/deck-wide.jpg" width="1800" height="600">
      <img src="/img/deck-narrow.jpg" width="600" height="600" alt="The deck"></picture>`)
    expect(found).toEqual([
      {
        url: 'https://www.rolandhardware.example/img/deck-wide.jpg',
        source: 'picture',
        isLogo: false,
        isHero: false,
        width: 1800,
        height: 600,
      },
    ])
  })

  test('adds the full-size picture a gallery thumbnail links to', () => {
    const found = only(
      `<a href="/uploads/porch-swing.jpg"><img src="/uploads/porch-swing-150x150.jpg" width="150" height="150"></a>`,
    )
    expect(found.map(({ url, source }) => [url, source])).toEqual([
      ['https://www.rolandhardware.example/uploads/porch-swing-150x150.jpg', 'img'],
      ['https://www.rolandhardware.example/uploads/porch-swing.jpg', 'linked-image'],
    ])
  })

  test('reads inline background images, also behind a gradient, and lazy background attributes', () => {
    const found = only(`
      <section class="hero-banner" style="background-image: linear-gradient(rgba(0,0,0,.4), rgba(0,0,0,.4)), url('/img/front-door.jpg')"></section>
      <div class="tile" data-bg="/img/lumber.jpg"></div>`)
    expect(found).toEqual([
      {
        url: 'https://www.rolandhardware.example/img/front-door.jpg',
        source: 'background',
        isLogo: false,
        isHero: true,
        width: undefined,
        height: undefined,
      },
      {
        url: 'https://www.rolandhardware.example/img/lumber.jpg',
        source: 'background',
        isLogo: false,
        isHero: false,
        width: undefined,
        height: undefined,
      },
    ])
  })

  test('reads background images of a style block, marking a hero rule', () => {
    const found = only(
      `<style>.masthead { background: #000 url("../img/sign.jpg") center / cover } @font-face { src: url(f.woff2) }</style>`,
    )
    expect(found).toEqual([
      {
        url: 'https://www.rolandhardware.example/img/sign.jpg',
        source: 'stylesheet',
        isLogo: false,
        isHero: true,
        width: undefined,
        height: undefined,
      },
    ])
  })

  test('marks logos by class, id, alt, file name and a branded container', () => {
    const found = only(`
      <img class="custom-logo" src="/a.png"><img id="site-logo" src="/b.png"><img alt="Roland Hardware logo" src="/c.png">
      <img src="/uploads/RH-Logo-White.png"><a class="navbar-brand" href="/"><img src="/d.svg"></a><img src="/e.jpg" alt="Our team">`)
    expect(found.map((candidate) => candidate.isLogo)).toEqual([true, true, true, true, true, false])
  })

  test('marks the first image in the header that links to the home page as the logo, whatever its name', () => {
    const logos = (html: string) =>
      extractImageCandidates(html, PAGE)
        .filter((candidate) => candidate.isLogo)
        .map((candidate) => candidate.url)
    expect(
      logos(`<div class="s-header"><a href="/"><img src="/media/a1b2.png" width="240" height="72"></a></div>
        <main><a href="/"><img src="/media/photo.jpg"></a></main>`),
    ).toEqual(['https://www.rolandhardware.example/media/a1b2.png'])
    expect(
      logos(`<header><a href="tel:5015550101"><img src="/phone.png" width="20" height="20"></a>
        <a href="https://rolandhardware.example/index.html"><img src="/sign.jpg"></a>
        <a href="/"><img src="/second.jpg"></a></header>`),
    ).toEqual(['https://www.rolandhardware.example/sign.jpg'])
  })

  test('does not take a header image that links elsewhere, or a home link outside the header, for the logo', () => {
    const found = extractImageCandidates(
      `<header><a href="/menu.html"><img src="/menu-button.png"></a></header>
       <footer><a href="/"><img src="/footer-badge.png"></a></footer>
       <header><a href="https://other.example/"><img src="/partner.png"></a></header>`,
      PAGE,
    )
    expect(found.map((candidate) => candidate.isLogo)).toEqual([false, false, false])
  })

  test('says an SVG used by fragment or <use> is a sprite, and an SVG font is an icon font', () => {
    const found = extractImageCandidates(
      `<link rel="preload" as="image" href="/ui/icons.svg">
       <svg><use href="/ui/icons.svg#phone"></use></svg>
       <img src="/ui/social.svg#facebook" width="24" height="24">
       <img src="/img/social-sprite.png">
       <img src="/fonts/fontawesome-webfont.svg?v=4.7.0#fontawesomeregular">
       <img src="/img/logo.svg">`,
      PAGE,
    )
    expect(found.map(({ url, junk, isLogo }) => [new URL(url).pathname, junk, isLogo])).toEqual([
      ['/ui/icons.svg', 'sprite (a file of icons shown one at a time)', false],
      ['/ui/social.svg', 'sprite (a file of icons shown one at a time)', false],
      ['/img/social-sprite.png', 'sprite (a file of icons shown one at a time)', false],
      ['/fonts/fontawesome-webfont.svg', 'icon font (glyphs, not a picture)', false],
      ['/img/logo.svg', undefined, true],
    ])
  })

  test('marks the image the page asks to load first as a hero', () => {
    const found = only(`<img src="/hero.jpg" fetchpriority="high"><link rel="preload" as="image" href="/lcp.jpg">`)
    expect(found.map(({ source, isHero }) => [source, isHero])).toEqual([
      ['img', true],
      ['preload', true],
    ])
  })

  test('reads a video poster', () => {
    expect(only(`<video poster="/video/tour-poster.jpg" width="1280" height="720"></video>`)[0]).toMatchObject({
      source: 'poster',
      width: 1280,
      height: 720,
    })
  })

  test('reads the original size Squarespace declares', () => {
    expect(
      only(
        `<img data-src="https://images.squarespace-cdn.com/content/v1/1/abc/photo" data-image-dimensions="2500x1667">`,
      )[0],
    ).toMatchObject({
      width: 2500,
      height: 1667,
    })
  })

  test('resolves addresses against a base href', () => {
    const [found] = extractImageCandidates(
      `<base href="https://cdn.rolandhardware.example/site/"><img src="img/a.jpg">`,
      PAGE,
    )
    expect(found?.url).toBe('https://cdn.rolandhardware.example/site/img/a.jpg')
  })

  test('numbers candidates in page order', () => {
    const found = extractImageCandidates(`<img src="/1.jpg"><img src="/2.jpg"><img src="/3.jpg">`, PAGE)
    expect(found.map((candidate) => candidate.position)).toEqual([0, 1, 2])
  })
})

describe('extractMarkdownImages', () => {
  test('reads Markdown images with their alt text', () => {
    const found = extractMarkdownImages(
      '# Feed & Seed\n![Our logo](/logo.png)\n![Baby chicks in spring](https://cdn.example.net/chicks.jpg "Chicks")',
      PAGE,
    )
    expect(found.map(({ url, alt, isLogo }) => ({ url, alt, isLogo }))).toEqual([
      { url: 'https://www.rolandhardware.example/logo.png', alt: 'Our logo', isLogo: true },
      { url: 'https://cdn.example.net/chicks.jpg', alt: 'Baby chicks in spring', isLogo: false },
    ])
  })
})

describe('protocol-relative image addresses', () => {
  const html = `<head>
      <meta property="og:image" content="//cdn.example-cdn.com/og/storefront.jpg">
      <style>.hero { background-image: url(//cdn.example-cdn.com/bg/river.jpg) }</style>
    </head>
    <body>
      <img src="//img1.example-cdn.com/isteam/ip/7c1f/logo.png/:/rs=h:120,cg:true,m/qt=q:95" alt="">
      <img src="/a.jpg" srcset="//cdn.example-cdn.com/photos/deck-1200.jpg 1200w, //cdn.example-cdn.com/photos/deck-600.jpg 600w">
      <div style="background-image: url('//cdn.example-cdn.com/bg/porch.jpg')"></div>
    </body>`

  test.each([
    ['http://www.rolandhardware.example/', 'http:'],
    ['https://www.rolandhardware.example/', 'https:'],
  ])('takes the scheme of the page %s in <img>, srcset, CSS backgrounds and og:image', (page, scheme) => {
    const found = extractImageCandidates(html, page)
    expect(found.map(({ url, source }) => [source, url])).toEqual([
      ['og:image', `${scheme}//cdn.example-cdn.com/og/storefront.jpg`],
      ['stylesheet', `${scheme}//cdn.example-cdn.com/bg/river.jpg`],
      ['img', `${scheme}//img1.example-cdn.com/isteam/ip/7c1f/logo.png/:/rs=h:120,cg:true,m/qt=q:95`],
      ['img', `${scheme}//cdn.example-cdn.com/photos/deck-1200.jpg`],
      ['background', `${scheme}//cdn.example-cdn.com/bg/porch.jpg`],
    ])
  })

  test('knows a logo by its file name when an image CDN puts resize steps after it', () => {
    const found = extractImageCandidates(html, 'https://www.rolandhardware.example/')
    expect(found.find((candidate) => candidate.url.includes('logo.png'))?.isLogo).toBe(true)
  })
})

describe('images of third-party widgets', () => {
  const junkOf = (html: string) =>
    extractImageCandidates(html, PAGE).map(({ url, junk }) => [new URL(url).pathname, junk !== undefined])

  test('are junk inside a consent banner, a chat widget, an ad slot or a payment or review badge, by container', () => {
    expect(
      junkOf(`
        <div id="CybotCookiebotDialog"><img src="/a/consent-art.png" width="300" height="100"></div>
        <div class="cookie-notice"><img src="/a/cookie-jar.png" width="300" height="100"></div>
        <div id="onetrust-banner-sdk"><img src="/a/brand.png" width="300" height="100"></div>
        <div class="intercom-launcher"><img src="/a/agent.jpg" width="128" height="128"></div>
        <div id="tawk-bubble-container"><img src="/a/avatar.png" width="80" height="80"></div>
        <div class="drift-widget-controller"><img src="/a/bot.png" width="80" height="80"></div>
        <ins class="adsbygoogle" data-ad-slot="1"><img src="/a/sale.jpg" width="728" height="90"></ins>
        <div class="ad-slot"><img src="/a/banner.jpg" width="300" height="250"></div>
        <div aria-label="Advertisement"><img src="/a/promo.jpg" width="300" height="250"></div>
        <div class="payment-icons"><img src="/a/cards.png" width="200" height="80"></div>
        <div class="trustpilot-widget"><img src="/a/stars.png" width="240" height="90"></div>
        <img src="/a/storefront.jpg" width="1200" height="800">`),
    ).toEqual([
      ...[
        '/a/consent-art.png',
        '/a/cookie-jar.png',
        '/a/brand.png',
        '/a/agent.jpg',
        '/a/avatar.png',
        '/a/bot.png',
        '/a/sale.jpg',
        '/a/banner.jpg',
        '/a/promo.jpg',
        '/a/cards.png',
        '/a/stars.png',
      ].map((path) => [path, true]),
      ['/a/storefront.jpg', false],
    ])
  })

  test("are junk when served from a widget vendor's host or named for a badge or seal", () => {
    expect(
      junkOf(`
        <img src="https://consent.cookiebot.com/logo.png" width="160" height="40">
        <img src="https://static.intercomassets.com/avatars/1/face.jpg" width="128" height="128">
        <img src="https://tpc.googlesyndication.com/simgad/123.jpg" width="300" height="250">
        <img src="https://www.paypalobjects.com/webstatic/mktg/logo/pp_cc_mark_111x69.jpg" width="111" height="69">
        <img src="https://s3-media0.fl.yelpcdn.com/assets/public/badge.png" width="125" height="125">
        <img src="/img/bbb-accredited-business-seal.png" width="200" height="80">
        <img src="/img/visa-mastercard.png" width="200" height="60">
        <img src="/img/visalia-trip.jpg" width="900" height="600">`),
    ).toEqual([
      ['/logo.png', true],
      ['/avatars/1/face.jpg', true],
      ['/simgad/123.jpg', true],
      ['/webstatic/mktg/logo/pp_cc_mark_111x69.jpg', true],
      ['/assets/public/badge.png', true],
      ['/img/bbb-accredited-business-seal.png', true],
      ['/img/visa-mastercard.png', true],
      ['/img/visalia-trip.jpg', false],
    ])
  })

  test('are junk in an overlay fixed over the page, but a logo in a fixed header is not', () => {
    expect(
      junkOf(`
        <header style="position: fixed; top: 0"><a href="/"><img src="/img/hardware-mark.png" width="240" height="80"></a></header>
        <div class="promo" style="position:fixed;bottom:20px;right:20px"><img src="/img/sale-card.jpg" width="300" height="250"></div>`),
    ).toEqual([
      ['/img/hardware-mark.png', false],
      ['/img/sale-card.jpg', true],
    ])
  })

  test('are junk when a style block draws them for a widget, or a Markdown page links them from a vendor', () => {
    expect(
      junkOf(`<style>
        #onetrust-banner-sdk .ot-brand { background-image: url(/a/ot-brand.png) }
        .hero { background-image: url(/a/river.jpg) }
      </style>`),
    ).toEqual([
      ['/a/ot-brand.png', true],
      ['/a/river.jpg', false],
    ])
    const markdown = extractMarkdownImages('![Chat](https://static.intercomassets.com/a.png) ![Deck](/deck.jpg)', PAGE)
    expect(markdown.map(({ junk }) => junk !== undefined)).toEqual([true, false])
  })

  test('are never taken for the logo, even in the header linking home', () => {
    const found = extractImageCandidates(
      `<header><div class="cookie-banner"><a href="/"><img src="/img/consent-logo.png" width="200" height="80"></a></div>
       <a href="/"><img src="/img/roland-hardware.png" width="240" height="80"></a></header>`,
      PAGE,
    )
    expect(found.map(({ isLogo, junk }) => [isLogo, junk !== undefined])).toEqual([
      [false, true],
      [true, false],
    ])
  })
})
