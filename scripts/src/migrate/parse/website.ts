import { stripTrailing } from './text.ts'

// Fields, website: web addresses typed with a scheme, with 'www.', or bare ('facebook.com/page').

/** An e-mail address anywhere in a line. */
export const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g
/** A web address with its scheme. */
export const SCHEME_URL = /\bhttps?:\/\/[^\s<>"'()]+/i
/** A web address starting 'www.' (not inside an e-mail address). */
export const WWW_URL = /(?<![@\w.-])www\.[^\s<>"'()]+/i
const BARE_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}(?::\d{1,5})?(?:[/?#]\S*)?$/i

/** The first bare domain of a line ('BUFFALOCLIMB.EXAMPLE', 'facebook.com/page'), or null. */
export function findDomain(text: string): string | null {
  for (const word of withoutEmails(text).split(/\s+/)) {
    const candidate = stripTrailing(word.replace(/^[("'“]+/, ''))
    // 'st.louis' or 'ST.LOUIS' could be a domain; 'St.Louis', typed in mixed case, is a place.
    const host = candidate.split(/[/?#]/)[0] ?? ''
    const oneCase = host === host.toLowerCase() || host === host.toUpperCase()
    if (BARE_DOMAIN.test(candidate) && oneCase && !/^\d+(\.\d+)*$/.test(candidate) && /[a-z]{2,}\./i.test(candidate))
      return candidate
  }
  return null
}

/** The first web address of a line typed with a scheme or 'www.', or null. */
export function findUrl(text: string): string | null {
  const rest = withoutEmails(text)
  const scheme = SCHEME_URL.exec(rest)
  const www = WWW_URL.exec(rest)
  const found = [scheme, www].filter((match) => match !== null).sort((a, b) => a.index - b.index)[0]
  return found ? stripTrailing(found[0]) : null
}

/** The text with its e-mail addresses blanked out (the search skipped on the lines without an '@'). */
function withoutEmails(text: string): string {
  return text.includes('@') ? text.replace(EMAIL, ' ') : text
}

/** What a volunteer types for a business without a website. */
export const NO_WEBSITE = /^(?:none|n\/?a|no|-+|tbd|coming soon)$/i

/** Makes a typed web address absolute ('https://…'), or null when it is not one. */
export function normaliseWebsite(raw: string): string | null {
  const text = stripTrailing(raw.trim())
  if (text === '' || text.includes('@') || NO_WEBSITE.test(text)) return null
  const absolute = /^https?:\/\//i.test(text) ? text : `https://${text.replace(/^\/+/, '')}`
  let url: URL
  try {
    url = new URL(absolute)
  } catch {
    return null
  }
  if (!/^(?:[a-z0-9-]+\.)+[a-z]{2,}$/i.test(url.hostname)) return null
  // Keep what the volunteer typed recognisable: 'https://lakeviewmarina.example', not '…example/'.
  return url.pathname === '/' && url.search === '' && url.hash === '' ? `${url.protocol}//${url.host}` : url.href
}
