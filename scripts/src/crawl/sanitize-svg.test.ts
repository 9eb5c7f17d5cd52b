import { readFile } from 'node:fs/promises'
import { describe, expect, test } from 'vitest'
import { FIXTURE_SITES } from '../../test/crawl-fixture-server.ts'
import { CrawlError } from './crawl-error.ts'
import { isSafeCss, sanitizeSvg } from './sanitize-svg.ts'

const encode = (text: string) => new TextEncoder().encode(text)
const clean = (text: string) => new TextDecoder().decode(sanitizeSvg(encode(text)).bytes)

describe('sanitizeSvg', () => {
  test('keeps every part of a plain logo that draws', async () => {
    const logo = await readFile(`${FIXTURE_SITES}onepage-smokehouse/img/pinnacle-smokehouse.svg`)
    const { bytes, removed } = sanitizeSvg(new Uint8Array(logo))
    expect(new TextDecoder().decode(bytes)).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40">' +
        '<path d="M4 36 L20 6 L36 36 Z" fill="#c0392b"/>' +
        '<text x="44" y="27" font-family="Oswald, sans-serif" font-size="16" fill="#fff">PINNACLE</text></svg>\n',
    )
    expect(removed).toEqual([])
  })

  test('drops scripts, event handlers and embedded HTML, saying what went', () => {
    const { bytes, removed } = sanitizeSvg(
      encode(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">
        <script>alert(document.cookie)</script>
        <foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example"/></foreignObject>
        <circle r="4" onclick="steal()" onmouseover="steal()"/>
        <animate attributeName="href" to="javascript:alert(1)"/>
      </svg>`),
    )
    const output = new TextDecoder().decode(bytes)
    expect(output).toBe('<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>\n')
    expect(removed).toEqual(
      expect.arrayContaining([
        'onload attribute',
        'script element',
        'foreignObject element',
        'onclick attribute',
        'animate element',
      ]),
    )
  })

  test('unwraps links, keeping the drawing and losing the javascript: address', () => {
    expect(
      clean(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><rect width="4" height="4"/></a></svg>',
      ),
    ).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><rect width="4" height="4"/></svg>\n',
    )
  })

  test('keeps references inside the document and drops those that reach other sites', () => {
    const output = clean(`<svg xmlns="http://www.w3.org/2000/svg">
      <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>
      <rect fill="url(#g)" width="4" height="4"/>
      <rect fill="url(https://tracker.example/x.svg#g)" width="4" height="4"/>
      <use href="#g"/><use href="https://evil.example/sprite.svg#logo"/>
      <image href="https://evil.example/pixel.png" width="1" height="1"/>
      <image href="data:image/png;base64,iVBORw0KGgo=" width="8" height="8"/>
    </svg>`)
    expect(output).toContain('<rect fill="url(#g)" width="4" height="4"/>')
    expect(output).toContain('<rect width="4" height="4"/>')
    expect(output).toContain('<use href="#g"/>')
    expect(output).toContain('<image href="data:image/png;base64,iVBORw0KGgo=" width="8" height="8"/>')
    expect(output).not.toContain('example')
  })

  test('keeps a stylesheet that only styles and drops one that imports or fetches', () => {
    expect(clean('<svg xmlns="http://www.w3.org/2000/svg"><style>.a{fill:#c0392b}</style></svg>')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg"><style>.a{fill:#c0392b}</style></svg>\n',
    )
    expect(
      clean('<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/a.css);</style></svg>'),
    ).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>\n')
    expect(clean('<svg xmlns="http://www.w3.org/2000/svg"><g style="background:url(//evil.example/x)"/></svg>')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg"><g/></svg>\n',
    )
  })

  test('drops editor namespaces, comments and a doctype with its entities', () => {
    const output = clean(`<?xml version="1.0"?>
      <!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
      <!-- Generator: Adobe Illustrator -->
      <svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" inkscape:version="1.2">
        <inkscape:grid/><text>&xxe;</text>
      </svg>`)
    expect(output).toBe('<svg xmlns="http://www.w3.org/2000/svg"><text>&amp;xxe;</text></svg>\n')
  })

  test('adds the SVG namespace a browser needs to draw a standalone file', () => {
    expect(clean('<svg viewBox="0 0 4 4"><rect width="4" height="4"/></svg>')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>\n',
    )
  })

  test('escapes what it writes, so its output reads back the same', () => {
    const once = clean('<svg xmlns="http://www.w3.org/2000/svg"><title>Bait &amp; "Tackle" &lt;3</title></svg>')
    expect(once).toBe('<svg xmlns="http://www.w3.org/2000/svg"><title>Bait &amp; "Tackle" &lt;3</title></svg>\n')
    expect(clean(once)).toBe(once)
  })

  test('refuses a document that is not an SVG', () => {
    const refuse = () => sanitizeSvg(encode('<html><body><svg></svg></body></html>'), 'https://x.example/logo.svg')
    expect(refuse).toThrow(CrawlError)
    expect(refuse).toThrow('https://x.example/logo.svg is not an SVG document: its root element is not <svg>')
  })
})

describe('isSafeCss', () => {
  test('allows colours, fonts and references to the document', () => {
    expect(isSafeCss('fill: #fff; font-family: "Oswald", sans-serif; clip-path: url(#clip)')).toBe(true)
  })

  test('refuses imports, outside addresses, scripts and escapes that could hide them', () => {
    for (const css of [
      '@import "x.css"',
      'background: url(https://evil.example/x.png)',
      "fill: url('//evil.example/x#a')",
      'width: expression(alert(1))',
      'background: u\\72l(https://evil.example)',
      'background-image: image-set("x.png" 1x)',
    ]) {
      expect(isSafeCss(css), css).toBe(false)
    }
  })
})
