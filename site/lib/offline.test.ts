import { describe, expect, test } from 'vitest'
import { pagePath, pageTitle, savedDay, savedTime, withSavedNote, withSavedPages } from './offline.ts'

describe('a saved page served offline', () => {
  const page =
    '<html><head><title>Big Rock &amp; Co | Roland, Arkansas</title></head><body><header></header><main id="main" class="x"><h1>Hi</h1></main></body></html>'

  test('says when it was saved, at the top of its main content', () => {
    const saved = new Date(2026, 10, 27, 15, 4)
    const html = withSavedNote(page, saved)
    expect(html).toContain('<main id="main" class="x"><p role="status" data-saved-note')
    expect(html).toContain(`Saved on ${savedDay(saved)}: you are offline.</p><h1>Hi</h1>`)
    expect(savedDay(saved)).toBe('November 27, 2026')
  })

  test('with the alerts’ banner, says so at its top, with the time: a saved banner is not the alerts of now', () => {
    const saved = new Date(2026, 10, 27, 15, 4)
    const withBanner = page.replace(
      '<header>',
      '<section aria-label="Alerts"><a data-alert="1">Boil water</a></section><header>',
    )
    const html = withSavedNote(withBanner, saved)
    expect(html).toContain(
      `Saved on November 27, 2026 at ${savedTime(saved)}: you are offline, and these alerts may have changed since.</p><a data-alert="1">`,
    )
    expect(savedTime(saved)).toBe('3:04 PM')
    expect(html.match(/data-saved-note/g)).toHaveLength(1)
  })

  test('reads its title without the site name, its character references read', () => {
    expect(pageTitle(page)).toBe('Big Rock & Co')
    expect(pageTitle('<title>Roland&#39;s Page</title>')).toBe("Roland's Page")
    expect(pageTitle('<p>no title</p>')).toBe('')
  })

  test('is saved under its path, without a trailing slash or a query', () => {
    expect(pagePath('http://127.0.0.1:4321/business/x/?q=1#top')).toBe('/business/x')
    expect(pagePath('http://127.0.0.1:4321/')).toBe('/')
  })
})

describe('the offline page', () => {
  const offline = '<main><ul class="grid" data-saved-pages><li>Pages you open are saved here.</li></ul></main>'

  test('lists the saved pages by title, escaped, in place of its own text', () => {
    const html = withSavedPages(offline, [
      { path: '/businesses', title: 'Local Businesses' },
      { path: '/b?"x"', title: 'A <b> & c' },
    ])
    expect(html).toContain('<ul class="grid" data-saved-pages><li><a href="/b?&quot;x&quot;"')
    expect(html).toContain('>A &lt;b&gt; &amp; c</a></li><li><a href="/businesses"')
    expect(html).not.toContain('Pages you open are saved here.')
  })

  test('keeps its own text when nothing is saved', () => {
    expect(withSavedPages(offline, [])).toBe(offline)
  })
})
