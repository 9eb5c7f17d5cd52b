import { describe, expect, test } from 'vitest'
import { references } from './crawl-site.ts'

describe('references', () => {
  test('finds links, images, stylesheets, scripts and meta refreshes, decoding entities', () => {
    const html = `
      <link rel="stylesheet" href="/_astro/a.css"><link rel="canonical" href="http://x/">
      <meta http-equiv="refresh" content="0;url=/dining-refreshments">
      <a href="/businesses?q=a&amp;category=b">x</a><img src="/files/a.png" alt="">
      <script type="module" src="/_astro/b.js"></script>`
    expect(references(html)).toEqual([
      { url: '/_astro/a.css', kind: 'asset' },
      { url: '/dining-refreshments', kind: 'page' },
      { url: '/businesses?q=a&category=b', kind: 'page' },
      { url: '/files/a.png', kind: 'image' },
      { url: '/_astro/b.js', kind: 'asset' },
    ])
  })
})
