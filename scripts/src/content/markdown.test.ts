import { describe, expect, test } from 'vitest'
import { isAllowedLink, renderMarkdown } from './markdown.ts'

describe('renderMarkdown', () => {
  test('renders CommonMark headings, lists, emphasis and links', () => {
    const html = renderMarkdown('## Be ready\n\n- one *two*\n- [Contact page](/contact)\n\n[Call](tel:911)')
    expect(html).toBe(
      '<h2>Be ready</h2>\n<ul>\n<li>one <em>two</em></li>\n<li><a href="/contact" class="link">Contact page</a></li>\n</ul>\n' +
        '<p><a href="tel:911" class="link">Call</a></p>\n',
    )
  })

  test('shows raw HTML as text, so a typed <script> never runs', () => {
    const html = renderMarkdown('Hello <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>')
    expect(html).not.toMatch(/<script|<img/)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
  })

  test('leaves a javascript:, data: or protocol-relative link as the text the editor typed', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,x',
      '//evil.example/x',
      'ftp://x',
    ]) {
      const html = renderMarkdown(`[click](${url})`)
      expect(html, url).not.toContain('<a')
      expect(html, url).toContain('[click](')
    }
  })

  test('keeps http(s), mailto and tel links', () => {
    expect(renderMarkdown('<https://example.org>')).toContain('href="https://example.org"')
    expect(renderMarkdown('[m](mailto:a@example.org)')).toContain('href="mailto:a@example.org"')
  })

  test('makes a "# heading" a section heading, the page keeping its one h1', () => {
    expect(renderMarkdown('# Title')).toBe('<h2>Title</h2>\n')
  })

  test('shows no images', () => {
    expect(renderMarkdown('![a cat](https://example.org/cat.png)')).not.toContain('<img')
  })
})

describe('isAllowedLink', () => {
  test.each([
    ['https://example.org', true],
    ['http://example.org', true],
    ['mailto:a@example.org', true],
    ['tel:+15015550123', true],
    ['/community/emergency', true],
    ['#be-ready', true],
    ['javascript:alert(1)', false],
    ['//example.org', false],
    ['vbscript:x', false],
  ])('%s: %s', (url, allowed) => {
    expect(isAllowedLink(url)).toBe(allowed)
  })
})
