import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { crawlSite, type CrawlResult } from '../support/crawl-site.ts'

const base = inject('siteUrl')
const siteDir = inject('siteDir')

let sitemap: string[]
let crawl: CrawlResult

beforeAll(async () => {
  const xml = await (await fetch(new URL('/sitemap.xml', base))).text()
  sitemap = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!)
  // From the home page alone: every page must be reachable by following links.
  crawl = await crawlSite(base, ['/'])
})

describe('a crawl of the built site', () => {
  test('finds no broken internal link, image, stylesheet or script', () => {
    expect(crawl.pages.length).toBeGreaterThan(40)
    expect(crawl.images.length).toBeGreaterThan(5)
    expect(crawl.broken).toEqual([])
  })

  test('reaches every page of the sitemap by following links from the home page', () => {
    const reached = new Set(crawl.pages)
    expect(sitemap.length).toBeGreaterThan(40)
    expect(sitemap.filter((url) => !reached.has(url))).toEqual([])
  })

  test('lists in the sitemap every page it reached, redirects aside', () => {
    const listed = new Set(sitemap)
    const redirects = ['/businesses/dining', '/businesses/shopping', '/businesses/services'].map(
      (p) => new URL(p, base).href,
    )
    const unlisted = crawl.pages.filter((url) => !listed.has(url) && !redirects.includes(url))
    expect(unlisted).toEqual([])
  })
})

describe('the images of the built site', () => {
  test('all have a width and a height, and those below the fold load lazily', async () => {
    const files = (await readdir(siteDir, { recursive: true })).filter((f) => f.endsWith('.html'))
    const missing: string[] = []
    let lazy = 0
    for (const file of files) {
      const html = await readFile(path.join(siteDir, file), 'utf8')
      for (const [tag] of html.matchAll(/<img\b[^>]*>/g)) {
        if (!/\swidth="\d+"/.test(tag) || !/\sheight="\d+"/.test(tag)) missing.push(`${file}: ${tag}`)
        if (/\sloading="lazy"/.test(tag)) lazy++
      }
    }
    expect(missing).toEqual([])
    expect(lazy).toBeGreaterThan(10)
  })

  test('the featured image at the top of a business page is not lazy', async () => {
    const html = await readFile(path.join(siteDir, 'business', 'roland-coffee-house', 'index.html'), 'utf8')
    const featured = html.match(/<img\b[^>]*data-featured-image[^>]*>/)?.[0]
    expect(featured).toBeDefined()
    expect(featured).not.toContain('loading="lazy"')
  })
})

describe('robots.txt', () => {
  test('points to the sitemap', async () => {
    const text = await (await fetch(new URL('/robots.txt', base))).text()
    expect(text).toContain(`Sitemap: ${new URL('/sitemap.xml', base).href}`)
  })
})
