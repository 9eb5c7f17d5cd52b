import type { IncomingHttpHeaders } from 'node:http'

// Cross-site requests are refused before anything else. SameSite=Strict alone is not enough:
// browsers count every port of 127.0.0.1 as the same site, so a page served on another local
// port (a dev server, a crawled fixture) could otherwise call the console with the cookie.
// The Host check also stops DNS rebinding (a hostile name resolving to 127.0.0.1).

/** The hosts the console answers to on its port. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])
}

/**
 * Says why a request must be refused as cross-site, or null when it may proceed: a Host that is
 * not the console's, an Origin that is not the console's own, or a browser's Sec-Fetch-Site that
 * is not same-origin (or 'none', a typed address). Scripts send none of these headers but Host.
 */
export function crossSiteReason(headers: IncomingHttpHeaders, hosts: Set<string>): string | null {
  const host = headers.host?.toLowerCase()
  if (!host || !hosts.has(host)) {
    return `The console answers only at http://127.0.0.1 on its own port, not at host ${host ?? '(none)'}.`
  }
  const origin = headers.origin
  if (origin !== undefined && origin !== `http://${host}`) {
    return `Cross-site request refused: it came from ${origin}. Use the console at http://${host}.`
  }
  const site = headers['sec-fetch-site']
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return `Cross-site request refused (${site}). Use the console at http://${host}.`
  }
  return null
}
