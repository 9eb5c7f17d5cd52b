/** A reference from one page of the site to something else on it. */
export interface Reference {
  from: string
  url: string
  kind: 'page' | 'image' | 'asset'
}

/** What a crawl found: every page and asset it fetched with its status, and the references that failed. */
export interface CrawlResult {
  statuses: Map<string, number>
  pages: string[]
  images: string[]
  broken: Array<Reference & { status: number; reason?: string }>
}

const entities: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>' }
const decode = (value: string) => value.replace(/&(amp|quot|#39|lt|gt);/g, (entity) => entities[entity]!)

/** Lists the references of an HTML page: links, images, stylesheets, scripts and meta refreshes. */
export function references(html: string): Array<{ url: string; kind: Reference['kind'] }> {
  const found: Array<{ url: string; kind: Reference['kind'] }> = []
  for (const match of html.matchAll(/<(a|img|link|script|meta)\b[^>]*>/gi)) {
    const tag = match[0]
    const name = match[1]!.toLowerCase()
    const attribute = (attr: string) => tag.match(new RegExp(`\\s${attr}="([^"]*)"`, 'i'))?.[1]
    if (name === 'a' && attribute('href')) found.push({ url: decode(attribute('href')!), kind: 'page' })
    if (name === 'img' && attribute('src')) found.push({ url: decode(attribute('src')!), kind: 'image' })
    if (name === 'script' && attribute('src')) found.push({ url: decode(attribute('src')!), kind: 'asset' })
    if (name === 'link' && attribute('href') && /stylesheet|icon|modulepreload/.test(attribute('rel') ?? '')) {
      found.push({ url: decode(attribute('href')!), kind: 'asset' })
    }
    const refresh =
      name === 'meta' && /refresh/i.test(attribute('http-equiv') ?? '')
        ? attribute('content')?.match(/url=(.+)$/i)?.[1]
        : undefined
    if (refresh) found.push({ url: decode(refresh.trim()), kind: 'page' })
  }
  return found
}

/**
 * Crawls a site from its start pages, following every link that stays on the site, and fetches
 * every image and asset the pages use. Off-site links (other hosts, mailto:, tel:) are not followed.
 */
export async function crawlSite(base: string, start: string[]): Promise<CrawlResult> {
  const origin = new URL(base).origin
  const statuses = new Map<string, number>()
  const pages: string[] = []
  const images: string[] = []
  const broken: CrawlResult['broken'] = []
  const queue: Reference[] = start.map((path) => ({ from: '(start)', url: new URL(path, base).href, kind: 'page' }))
  const seen = new Set(queue.map((r) => r.url))

  while (queue.length > 0) {
    const reference = queue.shift()!
    const response = await fetch(reference.url, { redirect: 'manual' })
    statuses.set(reference.url, response.status)
    const type = response.headers.get('content-type') ?? ''
    if (response.status !== 200) {
      broken.push({ ...reference, status: response.status })
      await response.body?.cancel()
      continue
    }
    if (reference.kind === 'image') {
      images.push(reference.url)
      if (!type.startsWith('image/'))
        broken.push({ ...reference, status: response.status, reason: `served as ${type}` })
      await response.body?.cancel()
      continue
    }
    if (reference.kind === 'asset' || !type.startsWith('text/html')) {
      await response.body?.cancel()
      continue
    }
    pages.push(reference.url)
    for (const found of references(await response.text())) {
      const url = new URL(found.url, reference.url)
      if (url.origin !== origin || !/^https?:$/.test(url.protocol)) continue
      url.hash = ''
      if (seen.has(url.href)) continue
      seen.add(url.href)
      queue.push({ from: reference.url, url: url.href, kind: found.kind })
    }
  }
  return { statuses, pages, images, broken }
}
