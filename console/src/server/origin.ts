import type { IncomingHttpHeaders } from 'node:http'

// Cross-site requests are refused before anything else. SameSite=Strict alone is not enough:
// browsers count every port of 127.0.0.1 as the same site, so a page served on another local
// port (a dev server, a crawled fixture) could otherwise call the console with the cookie.
// The Host check also stops DNS rebinding (a hostile name resolving to 127.0.0.1).
// Behind a reverse proxy (CONSOLE_PUBLIC_URL), the proxy's public name is one more accepted Host,
// its https origin the only Origin accepted from there, and its X-Forwarded-Proto is trusted.

/** Where the console answers: each Host it accepts, with the origin a browser on it sends. */
export interface ConsoleOrigins {
  /** Host header → the console's origin at that host. */
  byHost: Map<string, string>
  /** The public address behind the reverse proxy, or null (loopback only). */
  publicUrl: URL | null
}

/** The hosts the console answers to: 127.0.0.1, localhost and [::1] on its port, and its public address if any. */
export function consoleOrigins(port: number, publicUrl: URL | null = null): ConsoleOrigins {
  const byHost = new Map<string, string>()
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) byHost.set(host, `http://${host}`)
  if (publicUrl) byHost.set(publicUrl.host, publicUrl.origin)
  return { byHost, publicUrl }
}

/** Says whether a request came through the public HTTPS address (its cookies must be Secure). */
export function isHttps(headers: IncomingHttpHeaders, origins: ConsoleOrigins): boolean {
  const { publicUrl } = origins
  return publicUrl?.protocol === 'https:' && headers.host?.toLowerCase() === publicUrl.host
}

/**
 * Says why a request must be refused as cross-site, or null when it may proceed: a Host that is
 * not the console's, an Origin that is not the console's own at that host, a browser's
 * Sec-Fetch-Site that is not same-origin (or 'none', a typed address), or, at the public address,
 * a request the proxy says came over another scheme. Scripts send none of these headers but Host.
 */
export function crossSiteReason(headers: IncomingHttpHeaders, origins: ConsoleOrigins): string | null {
  const host = headers.host?.toLowerCase()
  const own = host === undefined ? undefined : origins.byHost.get(host)
  if (!host || !own) {
    const where = origins.publicUrl ? `${origins.publicUrl.origin} or at http://127.0.0.1` : 'http://127.0.0.1'
    return `The console answers only at ${where} on its own port, not at host ${host ?? '(none)'}.`
  }
  const origin = headers.origin
  if (origin !== undefined && origin !== own) {
    return `Cross-site request refused: it came from ${origin}. Use the console at ${own}.`
  }
  const site = headers['sec-fetch-site']
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return `Cross-site request refused (${site}). Use the console at ${own}.`
  }
  if (origins.publicUrl && host === origins.publicUrl.host) {
    // The proxy says how the browser reached it; the first value is the one it set itself.
    const proto = String(headers['x-forwarded-proto'] ?? 'http')
      .split(',')[0]!
      .trim()
      .toLowerCase()
    if (`${proto}:` !== origins.publicUrl.protocol) {
      return `This request reached the console over ${proto}: use ${own}.`
    }
  }
  return null
}
