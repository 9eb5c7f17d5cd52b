import { createHash, timingSafeEqual } from 'node:crypto'
import { defaultSignInLimits, lockoutMs, type SignInLimits } from '@roland/scripts/operators/lockout'

export { defaultSignInLimits, type SignInLimits }

// Operators sign in with their email and password and get a session cookie (the sessions live in
// the database: scripts/src/operators/accounts.ts); scripts and CI send the automation token
// (CONSOLE_TOKEN) as a bearer token.

/** The session cookie's name. */
export const sessionCookieName = 'roland_console_session'

/** Says whether a candidate equals the secret, in time that does not depend on where they differ. */
export function secretMatches(candidate: string, secret: string): boolean {
  const a = createHash('sha256').update(candidate).digest()
  const b = createHash('sha256').update(secret).digest()
  return timingSafeEqual(a, b)
}

/** Reads the secret from an `Authorization: Bearer …` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i)
  return match?.[1] ?? null
}

/** Parses a Cookie header into name → value. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=')
    if (index < 1) continue
    const name = part.slice(0, index).trim()
    if (!cookies.has(name)) cookies.set(name, part.slice(index + 1).trim())
  }
  return cookies
}

/**
 * Writes the Set-Cookie value of a session (HttpOnly, SameSite=Strict, whole site), or of its removal;
 * Secure when the console is reached over HTTPS (behind CONSOLE_PUBLIC_URL).
 */
export function sessionCookie(id: string | null, maxAgeSeconds: number, options: { secure?: boolean } = {}): string {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Strict', ...(options.secure ? ['Secure'] : [])]
  return id === null
    ? `${sessionCookieName}=; ${attributes.join('; ')}; Max-Age=0`
    : `${sessionCookieName}=${id}; ${attributes.join('; ')}; Max-Age=${maxAgeSeconds}`
}

/**
 * Counts wrong secrets and passwords per client and locks it out for a time that doubles with each one past the
 * free attempts. While locked out, every attempt is refused unchecked, the right secret included.
 */
export class SignInLimiter {
  readonly #limits: SignInLimits
  readonly #now: () => number
  readonly #clients = new Map<string, { failures: number; lockedUntil: number }>()

  constructor(limits: SignInLimits = defaultSignInLimits, now: () => number = Date.now) {
    this.#limits = limits
    this.#now = now
  }

  /** Milliseconds the client must still wait before trying again (0: it may try now). */
  retryAfterMs(client: string): number {
    const state = this.#clients.get(client)
    return state ? Math.max(0, state.lockedUntil - this.#now()) : 0
  }

  /** Records a wrong secret. */
  fail(client: string): void {
    const state = this.#clients.get(client) ?? { failures: 0, lockedUntil: 0 }
    state.failures++
    const lockout = lockoutMs(state.failures, this.#limits)
    if (lockout > 0) state.lockedUntil = this.#now() + lockout
    this.#clients.set(client, state)
  }

  /** Forgets a client's wrong secrets after a right one. */
  succeed(client: string): void {
    this.#clients.delete(client)
  }
}
