// How repeated failures are slowed down: a few free attempts, then a wait that doubles with each
// further failure. The console uses it per client (bearer tokens, sign-ins) and per account.

/** How wrong passwords or secrets are slowed down. */
export interface SignInLimits {
  /** Failures allowed before a lockout starts. */
  freeAttempts: number
  /** The first lockout; each further failure doubles it. */
  baseLockoutMs: number
  maxLockoutMs: number
}

/** Default limits: three free tries, then 1 s, 2 s, 4 s… up to 5 minutes. */
export const defaultSignInLimits: SignInLimits = { freeAttempts: 3, baseLockoutMs: 1000, maxLockoutMs: 5 * 60_000 }

/** How long to lock out after this many failures in a row (0: not yet). */
export function lockoutMs(failures: number, limits: SignInLimits): number {
  const over = failures - limits.freeAttempts
  if (over <= 0) return 0
  return Math.min(limits.maxLockoutMs, limits.baseLockoutMs * 2 ** Math.min(over - 1, 30))
}
