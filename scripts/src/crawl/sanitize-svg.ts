import { isCDATA, isComment, isDirective, isTag, isText, type AnyNode, type Element } from 'domhandler'
import { parseDocument } from 'htmlparser2'
import { CrawlError } from './crawl-error.ts'

// A business logo is often an SVG, and an SVG is a document that can carry scripts, event handlers,
// embedded HTML (foreignObject), links and references to other sites. In an <img> a browser runs none
// of it, but our copy is also reachable at /files/…, on our own origin, where it would. So a crawled
// SVG is rebuilt from an allowlist: drawing elements, their presentation attributes, references to
// its own ids, and raster images embedded as data: URIs. The output is written here, from the parsed
// tree, so nothing the allowlist does not name (comments, doctypes and their entities, processing
// instructions, unknown namespaces) can come through.

/** An SVG rebuilt with only what draws, and what was left out. */
export interface SanitizedSvg {
  bytes: Uint8Array
  /** What was removed, e.g. 'script element', 'onload attribute' (each once). */
  removed: string[]
}

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg'
const MAX_DEPTH = 200

const ALLOWED_ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'title',
  'desc',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'textPath',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
  'pattern',
  'marker',
  'image',
  'style',
  'filter',
  'feBlend',
  'feColorMatrix',
  'feComponentTransfer',
  'feComposite',
  'feDropShadow',
  'feFlood',
  'feFuncA',
  'feFuncB',
  'feFuncG',
  'feFuncR',
  'feGaussianBlur',
  'feMerge',
  'feMergeNode',
  'feMorphology',
  'feOffset',
])
// A link is unwrapped: the drawing inside it stays, the link goes.
const UNWRAPPED_ELEMENTS = new Set(['a'])
const TEXT_PARENTS = new Set(['text', 'tspan', 'textPath', 'title', 'desc'])
const REFERENCE_ATTRIBUTES = new Set(['href', 'xlink:href'])
// Namespaced attributes worth keeping; editors' own (inkscape:, sodipodi:, data-…) say nothing to a browser.
const NAMESPACED_ATTRIBUTES = new Set(['xml:space', 'xml:lang', 'xlink:href', 'xlink:title'])
const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?$/
const EMBEDDED_RASTER = /^data:image\/(?:png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]+$/i

/** Tell whether CSS or a presentation attribute can only style: no imports, scripts, outside resources or escapes. */
export function isSafeCss(css: string): boolean {
  if (/@import|expression\s*\(|javascript:|vbscript:|behavior\s*:|-moz-binding|\\/i.test(css)) return false
  if (/(?:^|[^\w-])(?:image|image-set|-webkit-image-set|src|cross-fade|element)\s*\(/i.test(css)) return false
  // url() may only point inside the document (a gradient, a clip path).
  const outside = css.replace(/url\s*\(\s*(['"]?)\s*#[^'"()\s]*\s*\1\s*\)/gi, '')
  return !/url\s*\(/i.test(outside)
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;')
}

/**
 * Rebuild an SVG from an allowlist, dropping scripts, event handlers, foreignObject, outside references
 * and everything else that is not drawing; refuse bytes that are no SVG document.
 */
export function sanitizeSvg(bytes: Uint8Array, url = 'the SVG'): SanitizedSvg {
  const text = new TextDecoder('utf-8').decode(bytes)
  const document = parseDocument(text, { xmlMode: true })
  const roots = document.children.filter(isTag)
  const root = roots[0]
  if (roots.length !== 1 || !root || root.name !== 'svg') {
    throw new CrawlError('not-an-image', `${url} is not an SVG document: its root element is not <svg>`, { url })
  }
  const removed = new Set<string>()
  const out: string[] = []

  const writeChildren = (node: Element, depth: number): void => {
    for (const child of node.children) write(child, depth + 1, node)
  }

  const write = (node: AnyNode, depth: number, parent: Element | undefined): void => {
    if (depth > MAX_DEPTH) {
      throw new CrawlError('not-an-image', `${url} nests elements more than ${MAX_DEPTH} deep: not a logo`, { url })
    }
    if (isText(node)) {
      // Text is drawn only inside text elements and read by screen readers in title/desc.
      if (parent && TEXT_PARENTS.has(parent.name)) out.push(escapeText(node.data))
      return
    }
    if (isCDATA(node)) {
      removed.add('CDATA section')
      return
    }
    if (!isTag(node)) {
      if (isComment(node)) return
      removed.add(isDirective(node) ? 'doctype or processing instruction' : `${node.type} node`)
      return
    }
    if (UNWRAPPED_ELEMENTS.has(node.name)) {
      removed.add(`${node.name} element (its drawing kept)`)
      writeChildren(node, depth)
      return
    }
    if (!ALLOWED_ELEMENTS.has(node.name)) {
      removed.add(`${node.name} element`)
      return
    }
    if (node.name === 'style') {
      const css = styleText(node)
      // "<" has no place in CSS; refusing it keeps the sheet harmless even if the SVG were ever inlined in HTML.
      if (!isSafeCss(css) || css.includes('<')) {
        removed.add('style element with imports, scripts or outside references')
        return
      }
      out.push(`<style>${escapeText(css)}</style>`)
      return
    }
    const attributes = keptAttributes(node, removed)
    if (node.name === 'image' && !attributes.some(([name]) => REFERENCE_ATTRIBUTES.has(name))) {
      removed.add('image element that is not an embedded raster')
      return
    }
    if (node === root && !attributes.some(([name]) => name === 'xmlns')) attributes.unshift(['xmlns', SVG_NAMESPACE])
    const opening = [node.name, ...attributes.map(([name, value]) => `${name}="${escapeAttribute(value)}"`)].join(' ')
    out.push(`<${opening}>`)
    const mark = out.length
    writeChildren(node, depth)
    if (out.slice(mark).join('') === '') {
      // Nothing inside survived (or there was nothing): close it in place.
      out.length = mark
      out[mark - 1] = `<${opening}/>`
    } else {
      out.push(`</${node.name}>`)
    }
  }

  write(root, 0, undefined)
  return { bytes: new TextEncoder().encode(`${out.join('')}\n`), removed: [...removed] }
}

function styleText(node: Element): string {
  const parts: string[] = []
  for (const child of node.children) {
    if (isText(child)) parts.push(child.data)
    else if (isCDATA(child)) parts.push(...child.children.filter(isText).map((text) => text.data))
  }
  return parts.join('')
}

function keptAttributes(node: Element, removed: Set<string>): Array<[string, string]> {
  const kept: Array<[string, string]> = []
  for (const [name, value] of Object.entries(node.attribs)) {
    const lower = name.toLowerCase()
    if (!NAME.test(name)) {
      removed.add('malformed attribute')
      continue
    }
    if (lower.startsWith('on')) {
      removed.add(`${lower} attribute`)
      continue
    }
    if (name.includes(':') && !NAMESPACED_ATTRIBUTES.has(lower) && !lower.startsWith('xmlns')) {
      removed.add(`${name.slice(0, name.indexOf(':'))}: attributes`)
      continue
    }
    if (lower.startsWith('xmlns') && value !== SVG_NAMESPACE && value !== 'http://www.w3.org/1999/xlink') {
      // Declaring another namespace only serves elements we drop.
      removed.add(`${name} declaration`)
      continue
    }
    if (REFERENCE_ATTRIBUTES.has(lower)) {
      const target = value.trim()
      const allowed = node.name === 'image' ? EMBEDDED_RASTER.test(target) : target.startsWith('#')
      if (!allowed) {
        removed.add('reference outside the document')
        continue
      }
      kept.push([name, target])
      continue
    }
    if (lower === 'src' || lower === 'xml:base' || lower === 'formaction' || lower === 'action') {
      removed.add(`${lower} attribute`)
      continue
    }
    // Presentation attributes (fill, filter, clip-path, style…) may reference the document, never beyond it.
    if (!isSafeCss(value)) {
      removed.add(`${lower} attribute with scripts or outside references`)
      continue
    }
    kept.push([name, value])
  }
  return kept
}
