import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Actor } from '@roland/scripts/content/edit'
import type { LeasedStore } from '@roland/scripts/store/leased'
import type { SessionStore, SignInLimiter } from './auth.ts'
import type { ConsoleConfig } from './config.ts'
import type { EventHub } from './events.ts'
import type { ConsoleJobs } from './jobs.ts'
import type { RebuildScheduler } from './rebuild-scheduler.ts'
import type { FirecrawlKeyStore } from './secrets.ts'

/** Everything a route handler may use. */
export interface ConsoleServices {
  config: ConsoleConfig
  store: LeasedStore
  jobs: ConsoleJobs
  hub: EventHub
  scheduler: RebuildScheduler
  keys: FirecrawlKeyStore
  sessions: SessionStore
  limiter: SignInLimiter
}

/** One request, as a handler sees it. */
export interface RouteContext {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  params: Record<string, string>
  services: ConsoleServices
  /** The id of the caller's session, when it signed in with the cookie. */
  sessionId: string | undefined
  /** Who is asking, for the sign-in limiter. */
  client: string
  /** The operator the credentials name: the audit trail records their edits under it. */
  actor: Actor
}

/** A route of the API: method, path pattern (named groups become params) and handler. */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: RegExp
  handler: (context: RouteContext) => Promise<void> | void
  /** Reachable without credentials (only signing in). */
  public?: boolean
}
