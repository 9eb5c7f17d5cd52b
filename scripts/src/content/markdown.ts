import MarkdownIt from 'markdown-it'

// The one Markdown renderer (issue 39): the site renders a page's body with it at build time, and
// the console's preview with the same function, so what an editor previews is what the site shows.
// CommonMark (markdown-it's preset), with raw HTML shown as the text it is (html: false) and links
// only to the web (http, https), email (mailto), phones (tel) and the site's own paths: a
// `javascript:` link stays the text the editor typed. No images: a page's photos are the site's.

/** Tells whether a link in a page's Markdown may become a link: http(s), mailto, tel, or a path of the site. */
export function isAllowedLink(url: string): boolean {
  const trimmed = url.trim()
  if (/^(https?:\/\/|mailto:|tel:)/i.test(trimmed)) return true
  // The site's own pages (/contact, /events#today) and anchors, but not //host, which leaves the site.
  return /^\/(?!\/)/.test(trimmed) || trimmed.startsWith('#')
}

const markdown = new MarkdownIt('commonmark', { html: false })
markdown.validateLink = isAllowedLink
markdown.disable('image')

// Links look like the site's other links.
markdown.renderer.rules.link_open = (tokens, index, options, _env, self) => {
  tokens[index]!.attrSet('class', 'link')
  return self.renderToken(tokens, index, options)
}

// The page's heading is its only h1: a body's "# Heading" is a section (h2) like "## Heading".
markdown.core.ruler.push('no_h1', (state) => {
  for (const token of state.tokens) {
    if ((token.type === 'heading_open' || token.type === 'heading_close') && token.tag === 'h1') token.tag = 'h2'
  }
})

/** Renders a page's Markdown body as HTML: safe to put in a page as it is. */
export function renderMarkdown(source: string): string {
  return markdown.render(source)
}
