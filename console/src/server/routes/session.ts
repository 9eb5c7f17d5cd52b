import { signInSchema } from '../../shared/api.ts'
import { secretMatches, sessionCookie } from '../auth.ts'
import type { Route } from '../context.ts'
import { HttpError, readJson, sendJson } from '../http.ts'

/** Signing in and out. */
export const sessionRoutes: Route[] = [
  {
    // Sign in with the console secret; the answer sets the session cookie.
    method: 'POST',
    path: /^\/api\/session$/,
    public: true,
    async handler({ req, res, services, client }) {
      const { limiter, sessions, config } = services
      refuseWhileLockedOut(limiter.retryAfterMs(client))
      const { secret } = await readJson(req, signInSchema)
      if (!secretMatches(secret, config.secret)) {
        limiter.fail(client)
        throw new HttpError(
          401,
          'That is not the console secret: use CONSOLE_TOKEN, or the secret the console printed when it started.',
        )
      }
      limiter.succeed(client)
      const id = sessions.create()
      sendJson(res, 200, { signedIn: true }, { 'set-cookie': sessionCookie(id, Math.floor(sessions.ttlMs / 1000)) })
    },
  },
  {
    // Whether the caller is signed in (the app asks on load).
    method: 'GET',
    path: /^\/api\/session$/,
    handler({ res }) {
      sendJson(res, 200, { signedIn: true })
    },
  },
  {
    method: 'DELETE',
    path: /^\/api\/session$/,
    handler({ res, services, sessionId }) {
      services.sessions.delete(sessionId)
      sendJson(res, 200, { signedIn: false }, { 'set-cookie': sessionCookie(null, 0) })
    },
  },
]

/** Refuses a sign-in while the client is locked out after wrong secrets (429 with Retry-After). */
export function refuseWhileLockedOut(retryAfterMs: number): void {
  if (retryAfterMs <= 0) return
  const seconds = Math.ceil(retryAfterMs / 1000)
  throw new HttpError(429, `Too many wrong secrets: wait ${seconds} s before trying again.`, {
    headers: { 'retry-after': String(seconds) },
  })
}
