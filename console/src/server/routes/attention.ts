import { openFindings } from '@roland/scripts/check/job'
import { listFeeds } from '@roland/scripts/feeds/sync'
import { findingKinds } from '@roland/scripts/check/kinds'
import { contentRowSchema } from '@roland/scripts/content/edit'
import { callParsed } from '@roland/scripts/store/parsed-call'
import { pendingSubmissionCount } from '@roland/scripts/content/submissions'
import { z } from 'zod'
import type { FindingsView, TodayView } from '../../shared/api.ts'
import { startCheckJob } from '../check-jobs.ts'
import type { ConsoleServices, Route } from '../context.ts'
import { HttpError, sendJson } from '../http.ts'
import { recentChanges } from '../recent-changes.ts'
import { rebuildState } from './rebuild.ts'

// The freshness watch in the console (issue 28): "Check listings", "Needs attention" with its
// one-click actions, and the "Today" overview the console opens on. Deactivating a listing is an
// ordinary edit (PATCH /api/businesses/:id), so its Undo is the audit trail's.

/** What dismiss_finding and restore_finding answer. */
const findingOutcomeSchema = z.object({ status: z.enum(['ok', 'not_found']) })

/** What verify_business answers: the business as it is now, once verified. */
const verifyOutcomeSchema = z.object({ status: z.enum(['ok', 'not_found']), row: contentRowSchema.optional() })

function uuidParam(raw: string | undefined, what: string, list: string): string {
  const parsed = z.uuid().safeParse(raw)
  if (!parsed.success) throw new HttpError(400, `A ${what} id is a UUID: take it from ${list}`)
  return parsed.data
}

/** The open findings, with counts by kind, the last check and when the next is due. */
async function findingsView(services: ConsoleServices): Promise<FindingsView> {
  const [findings, jobs, backup, feeds] = await Promise.all([
    openFindings(services.store),
    services.jobs.list(100),
    services.backups.view(),
    listFeeds(services.store),
  ])
  const open = findings.filter((finding) => finding.dismissed_at === null)
  const byKind = Object.fromEntries(
    findingKinds.map((kind) => [kind, open.filter((finding) => finding.kind === kind).length]),
  ) as FindingsView['byKind']
  const nextAt = services.checkSchedule.nextAt
  return {
    findings,
    byKind,
    lastCheck: jobs.find((job) => job.kind === 'check') ?? null,
    nextCheckAt: nextAt === null ? null : new Date(nextAt).toISOString(),
    backup,
    failingFeeds: feeds.filter((feed) => feed.last_error !== null),
  }
}

/** Needs attention, Check listings and Today. */
export const attentionRoutes: Route[] = [
  {
    // 'Check listings': the freshness check of every active listing, as a job (202 with the job).
    method: 'POST',
    path: /^\/api\/jobs\/check$/,
    async handler({ res, services }) {
      sendJson(res, 202, { job: (await startCheckJob(services)).job })
    },
  },
  {
    method: 'GET',
    path: /^\/api\/findings$/,
    async handler({ res, services }) {
      sendJson(res, 200, await findingsView(services))
    },
  },
  {
    // A false positive: hidden until a check finds other evidence.
    method: 'POST',
    path: /^\/api\/findings\/(?<id>[^/]+)\/dismiss$/,
    async handler({ res, params, services, actor }) {
      const finding = uuidParam(params.id, 'finding', 'GET /api/findings')
      const outcome = await callParsed(services.store, 'dismiss_finding', { finding, actor }, findingOutcomeSchema)
      if (outcome.status === 'not_found') {
        throw new HttpError(404, `No open finding ${finding}: it may have resolved itself; reload the list.`)
      }
      sendJson(res, 200, { dismissed: finding })
    },
  },
  {
    // A dismissal made by mistake: the finding shows in Needs attention again.
    method: 'POST',
    path: /^\/api\/findings\/(?<id>[^/]+)\/restore$/,
    async handler({ res, params, services, actor }) {
      const finding = uuidParam(params.id, 'finding', 'GET /api/findings')
      const outcome = await callParsed(services.store, 'restore_finding', { finding, actor }, findingOutcomeSchema)
      if (outcome.status === 'not_found') {
        throw new HttpError(
          404,
          `No dismissed open finding ${finding}: it may have been restored already or resolved itself; reload the list.`,
        )
      }
      sendJson(res, 200, { restored: finding })
    },
  },
  {
    // 'Mark verified': the listing is current as of now, by this operator (audited like any edit).
    method: 'POST',
    path: /^\/api\/businesses\/(?<id>[^/]+)\/verify$/,
    async handler({ res, params, services, actor }) {
      const business = uuidParam(params.id, 'business', 'GET /api/businesses')
      const outcome = await callParsed(services.store, 'verify_business', { business, actor }, verifyOutcomeSchema)
      if (outcome.status === 'not_found') throw new HttpError(404, `No business with id ${business}: reload the list.`)
      services.scheduler.noteEdit()
      sendJson(res, 200, { business: outcome.row })
    },
  },
  {
    // The overview the console opens on: submissions waiting in the Inbox, findings by kind, recent
    // changes and who made them, edits waiting for a rebuild and the last build.
    method: 'GET',
    path: /^\/api\/today$/,
    async handler({ res, services }) {
      const [findings, changes, jobs, pendingSubmissions] = await Promise.all([
        findingsView(services),
        recentChanges(services.store, 8),
        services.jobs.list(100),
        pendingSubmissionCount(services.store),
      ])
      const today: TodayView = {
        pendingSubmissions,
        byKind: findings.byKind,
        lastCheck: findings.lastCheck,
        recentChanges: changes,
        unpublishedEdits: rebuildState(services).unpublishedEdits,
        backup: findings.backup,
        lastRebuild: jobs.find((job) => job.kind === 'rebuild') ?? null,
      }
      sendJson(res, 200, today)
    },
  },
]
