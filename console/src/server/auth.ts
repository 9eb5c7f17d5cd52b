import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { defaultSignInLimits, lockoutMs, type SignInLimits } from '@roland/scripts/operators/lockout'

export { defaultSignInLimits, type SignInLimits }

// Operators sign in with the console secret and get a session cookie; scripts send the secret
// as a bearer token. Sessions live in memory: a console restart signs everyone out.

/** The session cookie's name. */
export const sessionCookieName = 'roland_console_session'

/** Makes a new console secret (printed at start when CONSOLE_TOKEN is unset). */
export function generateSecret(): string {
  return randomBytes(24).toString('base64url')
}

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

/** Writes the Set-Cookie value of a session (HttpOnly, SameSite=Strict, whole site), or of its removal. */
export function sessionCookie(id: string | null, maxAgeSeconds: number): string {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Strict']
  return id === null
    ? `${sessionCookieName}=; ${attributes.join('; ')}; Max-Age=0`
    : `${sessionCookieName}=${id}; ${attributes.join('; ')}; Max-Age=${maxAgeSeconds}`
}

/** The signed-in sessions, each expiring after a fixed time. */
export class SessionStore {
  readonly ttlMs: number
  readonly #sessions = new Map<string, number>()
  readonly #now: () => number

  constructor(ttlMs: number, now: () => number = Date.now) {
    this.ttlMs = ttlMs
    this.#now = now
  }

  /** Starts a session and returns its id. */
  create(): string {
    const id = randomBytes(32).toString('base64url')
    this.#sessions.set(id, this.#now() + this.ttlMs)
    return id
  }

  /** Says whether an id is a live session, forgetting it when it has expired. */
  valid(id: string | undefined): boolean {
    if (!id) return false
    const expires = this.#sessions.get(id)
    if (expires === undefined) return false
    if (expires <= this.#now()) {
      this.#sessions.delete(id)
      return false
    }
    return true
  }

  /** Ends a session. */
  delete(id: string | undefined): void {
    if (id) this.#sessions.delete(id)
  }
}

/**
 * Counts wrong secrets per client and locks it out for a time that doubles with each one past the
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
