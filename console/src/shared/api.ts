import {
  operatorEmailSchema,
  operatorPasswordSchema,
  operatorRoleSchema,
  type OperatorRole,
} from '@roland/scripts/operators/schema'
import { z } from 'zod'
import { plainText } from '@roland/scripts/content/schema-base'
import type { OpenFinding } from '@roland/scripts/check/job'
import type { FindingKind } from '@roland/scripts/check/kinds'
import type { BackupCheck } from '@roland/scripts/backup/checked'
import type { Job } from '@roland/scripts/store/types'
import type { CalendarFeed } from '@roland/scripts/feeds/sync'
import type { OutboxDelivery, SubscriberCounts } from '@roland/scripts/notify/outbox'
import type { SendSummary } from '@roland/scripts/notify/send'

// The console API's inputs (validated on the server with these schemas) and outputs (types the
// app imports). Jobs are the rows of the jobs table as scripts/src/store/types.ts declares them.

export type { Job, JobKind, JobProgress, JobStatus } from '@roland/scripts/store/types'
export type { OperatorRole, OperatorView } from '@roland/scripts/operators/schema'
export type { CalendarFeed, FeedSyncLine } from '@roland/scripts/feeds/sync'
export { minPasswordLength } from '@roland/scripts/operators/schema'

/** The largest upload the migration accepts, before base64 (as runMigration checks). */
export const maxUploadBytes = 5 * 1024 * 1024

/** Sign-in: an operator's email and password (the password rules apply when it is set, not here). */
export const signInSchema = z.object({
  email: plainText('Your email address', 'text', 'Enter your email address')
    .trim()
    .min(1, 'Enter your email address')
    .max(254, 'That email address is too long'),
  password: z.string().min(1, 'Enter your password').max(256, 'That is not your password: it is too long'),
})

/** Who is signed in (GET /api/session, and the answer of signing in). */
export interface SessionView {
  signedIn: true
  email: string
  role: OperatorRole
}

/** Adding an operator (admins only). */
export const newOperatorSchema = z.object({
  email: operatorEmailSchema,
  role: operatorRoleSchema,
  password: operatorPasswordSchema,
})

/** Setting an operator's password (admins only). */
export const operatorPasswordRequestSchema = z.object({ password: operatorPasswordSchema })

/** Changing an operator's role (admins only). */
export const operatorRoleRequestSchema = z.object({ role: operatorRoleSchema })

/** Where a migration reads Roland.txt: the 'files' bucket, or a file the operator uploads. */
export const migrationSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('bucket') }),
  z.object({
    kind: z.literal('upload'),
    name: plainText('The file name').min(1).max(200).describe('the uploaded file name, for the job history'),
    base64: z
      .string()
      .min(1, 'The uploaded file is empty: choose Roland.txt again')
      .max(Math.ceil((maxUploadBytes * 4) / 3) + 8, 'The uploaded file is over the 5 MB limit: is it the right file?')
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'The upload is not base64: send the file bytes base64-encoded'),
  }),
])

/** Starting a migration or previewing one (a dry run). */
export const migrationRequestSchema = z.object({
  source: migrationSourceSchema,
  reset: z.boolean().default(false).describe('delete every business first (clear and reload), still atomically'),
  overwriteEdits: z
    .boolean()
    .default(false)
    .describe('replace fields operators edited in the console with the file’s values'),
})
export type MigrationRequest = z.input<typeof migrationRequestSchema>

/** Saving the Firecrawl key (SPEC §5). */
export const firecrawlKeySchema = z.object({
  apiKey: z
    .string()
    .trim()
    .min(1, 'Please enter your Firecrawl API key')
    .max(500, 'That is not a Firecrawl API key: it is too long'),
})

/** A website address as the crawler form takes it (SPEC §5: required, URL-shaped). */
export const websiteUrlSchema = z
  .string()
  .trim()
  .min(1, 'Website URL is required')
  .max(2000, 'That address is too long')
  .refine((value) => {
    try {
      const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`)
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0
    } catch {
      return false
    }
  }, 'Enter a website address such as https://example.com')

/** Crawling a website for a business's images. */
export const crawlRequestSchema = z.object({
  businessName: plainText('Business name', 'name', 'Business name is required')
    .trim()
    .min(1, 'Business name is required')
    .max(200, 'That business name is too long'),
  websiteUrl: websiteUrlSchema,
})

/** Attaching a finished crawl's images to a business. */
export const attachRequestSchema = z.object({
  jobId: z.uuid('jobId must be the id of a finished crawl job'),
  businessId: z.uuid('businessId must be the id of a business'),
})

/**
 * What accepting a suggestion may add to its values (POST /api/submissions/{id}/accept): the
 * listing it is written into, chosen with the Inbox's "Already listed?" picker (a new business that
 * is listed already, a suggested edit whose business is gone). The values themselves are checked
 * with the editors' business schemas; the rest of the body passes through to them.
 */
export const acceptTargetSchema = z.looseObject({
  business_id: z.uuid('business_id must be the id of a listed business: take it from GET /api/businesses').optional(),
})

/** The migration screen's status (SPEC §3 "Migration status", plus whether the bucket has a file). */
export interface MigrationStatusView {
  isComplete: boolean
  businessCount: number
  bucketHasFile: boolean
}

/** What a migration would change, or changed. */
export interface MigrationSummaryView {
  summary: { added: number; updated: number; unchanged: number; deactivated: number; conflicts: number }
  deactivated: string[]
  /** Fields operators edited that the file would change: kept unless overwriteEdits. */
  conflicts: Array<{ slug: string; name: string; field: string; current: unknown; incoming: unknown }>
  overwriteEdits: boolean
  businesses: Array<{
    name: string
    slug: string
    category: string
    status: 'added' | 'updated' | 'unchanged'
    warnings: string[]
  }>
  businessCount: number
  dryRun: boolean
}

/** The crawler's settings as the browser may see them: never the key itself. */
export interface CrawlerSettingsView {
  engine: 'builtin' | 'firecrawl'
  keyStored: boolean
  keySource: 'environment' | 'console' | null
}

export type { BusinessImageRow, BusinessRow } from '@roland/scripts/content/schema'

/** The crawled image result (SPEC §3) a crawl job returns, as far as the console reads it. */
export interface CrawlResultView {
  businessName: string
  websiteUrl: string
  heroUrl: string | null
  thumbnailUrl: string | null
  logoUrl: string | null
  engine: 'builtin' | 'firecrawl'
  images: Array<{ url: string }>
}

/** Where rebuilds stand: how they run, and whether one is waiting. */
export interface RebuildStateView {
  mode: 'hook' | 'local'
  /** A rebuild is due and waits for running jobs or the debounce window. */
  pending: boolean
  /** A rebuild is running now. */
  running: boolean
  /** Jobs that changed data and are still running; the rebuild waits for them. */
  waitingFor: number
  /** Edits saved since the last rebuild started: the console offers to publish them. */
  unpublishedEdits: number
}

/** A finding of the freshness check, as Needs attention lists it. */
export type { OpenFinding as FindingView } from '@roland/scripts/check/job'
export { findingKinds, findingLabels, type FindingKind } from '@roland/scripts/check/kinds'

/** Needs attention: the open findings (dismissed ones marked), their counts by kind, the last and next check. */
export interface FindingsView {
  findings: OpenFinding[]
  byKind: Record<FindingKind, number>
  lastCheck: Job | null
  /** When the scheduled check runs next; null when ROLAND_CHECK_EVERY=off. */
  nextCheckAt: string | null
  /** The scheduled backups, and what about them needs attention. */
  backup: BackupView
  /** The calendar feeds whose last sync failed (issue 40): their events are kept as they were. */
  failingFeeds: CalendarFeed[]
}

/** The "Calendar feeds" screen (issue 40): the feeds, the next scheduled sync, a sync under way. */
export interface FeedsView {
  feeds: CalendarFeed[]
  /** When the scheduled sync runs next; null when ROLAND_FEEDS_EVERY=off. */
  nextSyncAt: string | null
  running: boolean
}

/** The scheduled, checked backups (ROLAND_BACKUP_DIR), as Today and Needs attention show them. */
export interface BackupView {
  /** The backup folder; null when ROLAND_BACKUP_DIR is not set (no scheduled backups). */
  dir: string | null
  /** When the next scheduled backup is due; null when off. */
  nextAt: string | null
  /** A backup is being written or checked now. */
  running: boolean
  /** The newest backup's check, passed or failed. */
  last: BackupCheck | null
  /** The newest backup whose check passed. */
  lastGood: BackupCheck | null
  /** What needs attention: no checked backup for two days, or a failed check; else null. */
  problem: string | null
}

/** Today, the screen the console opens on. */
export interface TodayView {
  /** How many visitors' suggestions wait in the Inbox. */
  pendingSubmissions: number
  byKind: FindingsView['byKind']
  lastCheck: Job | null
  /** The latest saves and jobs, one line each, with who made them. */
  recentChanges: RecentChangeView[]
  unpublishedEdits: number
  /** The last checked backup, and what about backups needs attention. */
  backup: BackupView
  lastRebuild: Job | null
}

/** One line of Today's "Recent changes": one save or one job, in a volunteer's words. */
export interface RecentChangeView {
  /** The transaction (audit_log.txid). */
  id: string
  at: string
  /** The operator who made it; null for a job or a change made directly in the database. */
  who: string | null
  /** What changed: "Imported Roland.txt: 35 businesses added", "changed Big Rock Coffee". */
  text: string
  /** Who ran the job ("by the console"), if a job made it. */
  via: string | null
  jobId: string | null
  /** The main row it touched, for the link to its screen. */
  table: string | null
  rowId: string | null
  action: 'insert' | 'update' | 'delete'
}

/** An API error body: what went wrong and how to fix it. */
export interface ApiErrorBody {
  error: string
  issues?: Array<{ path: string; message: string }>
}

/** "Notify me" as the Alerts and Today screens show it (GET /api/notify, issue 48). */
export interface NotifyView {
  /** Email is on (SMTP_URL and MAIL_FROM set). */
  enabled: boolean
  /** Why email is off, with what to set; null when on. */
  offReason: string | null
  counts: SubscriberCounts
  delivery: OutboxDelivery
  lastSend: (SendSummary & { at: string }) | null
  lastError: string | null
  nextDigestAt: string | null
}
