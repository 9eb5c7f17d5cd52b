import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Actor } from '@roland/scripts/operators/schema'
import type { LeasedStore } from '@roland/scripts/store/leased'
import type { SignInLimiter, SignInLimits } from './auth.ts'
import type { ConsoleBackups } from './backup-schedule.ts'
import type { CheckSchedule } from './check-schedule.ts'
import type { ConsoleFeeds } from './feeds-schedule.ts'
import type { ConsoleConfig } from './config.ts'
import type { EventHub } from './events.ts'
import type { ConsoleOrigins } from './origin.ts'
import type { ConsoleJobs } from './jobs.ts'
import type { AlertTimer } from './alert-timer.ts'
import type { ConsoleNotify } from './notify-schedule.ts'
import type { RebuildScheduler } from './rebuild-scheduler.ts'
import type { FirecrawlKeyStore } from './secrets.ts'
import type { SubmissionWebhook } from './submission-webhook.ts'

/** Everything a route handler may use. */
export interface ConsoleServices {
  config: ConsoleConfig
  store: LeasedStore
  jobs: ConsoleJobs
  hub: EventHub
  scheduler: RebuildScheduler
  /** The scheduled freshness check (ROLAND_CHECK_EVERY). */
  checkSchedule: CheckSchedule
  /** The scheduled, checked backups (ROLAND_BACKUP_DIR, ROLAND_BACKUP_EVERY). */
  backups: ConsoleBackups
  /** The calendar feeds' syncs (ROLAND_FEEDS_EVERY) and "Sync now". */
  feeds: ConsoleFeeds
  /** The timer that rebuilds when a showing alert reaches its end time. */
  alertTimer: AlertTimer
  /** "Notify me": sends the outbox and queues the weekly digest (issue 48). */
  notify: ConsoleNotify
  keys: FirecrawlKeyStore
  /** Wrong secrets and passwords per client. */
  limiter: SignInLimiter
  /** Wrong passwords per account (kept in the operators table). */
  accountLimits: SignInLimits
  origins: ConsoleOrigins
  /** The console's own address on 127.0.0.1 (links in announcements when it has no public one). */
  consoleUrl: string
  /** Announces new submissions (SUBMISSIONS_WEBHOOK_URL), or null. */
  submissionWebhook: SubmissionWebhook | null
}

/** One request, as a handler sees it. */
export interface RouteContext {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  params: Record<string, string>
  services: ConsoleServices
  /** The token of the caller's session cookie, if it sent one. */
  sessionToken: string | undefined
  /** Who is asking, for the sign-in limiter. */
  client: string
  /**
   * Who acts: the signed-in operator, or the automation token as the admin "automation". On the
   * public sign-in route, nobody yet: `{ email: '', role: 'editor' }`.
   */
  actor: Actor
  /** The request came over HTTPS through CONSOLE_PUBLIC_URL: cookies must be Secure. */
  secure: boolean
}

/** A route of the API: method, path pattern (named groups become params) and handler. */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: RegExp
  handler: (context: RouteContext) => Promise<void> | void
  /** Reachable without credentials (only signing in). */
  public?: boolean
  /** Only admins may call it (operator management); editors get 403. */
  adminOnly?: boolean
}
