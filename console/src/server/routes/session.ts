import { operatorSessions } from '@roland/scripts/operators/directory'
import { signInSchema, type SessionView } from '../../shared/api.ts'
import { sessionCookie } from '../auth.ts'
import type { Route } from '../context.ts'
import { HttpError, readJson, sendJson } from '../http.ts'

/** Signing in and out. */
export const sessionRoutes: Route[] = [
  {
    // Sign in with an email and password; the answer sets the session cookie.
    method: 'POST',
    path: /^\/api\/session$/,
    public: true,
    async handler({ req, res, services, client, secure }) {
      const { limiter, config, store } = services
      refuseWhileLockedOut(limiter.retryAfterMs(client))
      const input = await readJson(req, signInSchema)
      // Embedded: the argon2id hash in the operators table. Supabase: Supabase Auth, then the operators table.
      // Either way an unknown email takes the same path and gets the same answers, lockout included.
      const outcome = await store.use((s) => operatorSessions(s).signIn(input, services.accountLimits))
      if (outcome.kind === 'locked') throw lockedOut(outcome.retryAfterMs, 'wrong passwords for this email')
      if (outcome.kind === 'wrong') {
        limiter.fail(client)
        // One answer for an unknown email and a wrong password: nobody learns who has an account.
        throw new HttpError(401, 'Wrong email or password. Ask an admin to reset your password if you forgot it.')
      }
      limiter.succeed(client)
      const { operator } = outcome
      const token = await store.use((s) => operatorSessions(s).start(operator, config.sessionTtlMs))
      const body: SessionView = { signedIn: true, email: operator.email, role: operator.role }
      sendJson(res, 200, body, {
        'set-cookie': sessionCookie(token, Math.floor(config.sessionTtlMs / 1000), { secure }),
      })
    },
  },
  {
    // Who is signed in, and their role (the app asks on load).
    method: 'GET',
    path: /^\/api\/session$/,
    handler({ res, actor }) {
      sendJson(res, 200, { signedIn: true, email: actor.email, role: actor.role } satisfies SessionView)
    },
  },
  {
    // Sign out: the session ends on the server, not only in this browser.
    method: 'DELETE',
    path: /^\/api\/session$/,
    async handler({ res, services, sessionToken, secure }) {
      const { store } = services
      if (sessionToken) await store.use((s) => operatorSessions(s).end(sessionToken))
      sendJson(res, 200, { signedIn: false }, { 'set-cookie': sessionCookie(null, 0, { secure }) })
    },
  },
]

/** Refuses a sign-in while the client is locked out after wrong secrets or passwords. */
export function refuseWhileLockedOut(retryAfterMs: number): void {
  if (retryAfterMs > 0) throw lockedOut(retryAfterMs, 'wrong secrets or passwords')
}

/** The 429 answer of a lockout, with Retry-After. */
function lockedOut(retryAfterMs: number, after: string): HttpError {
  const seconds = Math.ceil(retryAfterMs / 1000)
  return new HttpError(429, `Too many ${after}: wait ${seconds} s before trying again.`, {
    headers: { 'retry-after': String(seconds) },
  })
}
